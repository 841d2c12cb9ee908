import Basics
import Fetching
import FoodModel
import Foundation
import Snapshot
import SourceAdapters

/// What the fetch and parse stages produced: the merged dataset (all but its service days, which
/// went to the snapshot as they came) and what happened to each partition, in the order the
/// pipeline lists them.
struct HarvestOutcome {
    var dataset = Dataset()
    var failed: [String] = []
    var warnings: [String] = []
    /// Signs of a degraded structure that `checks.degraded_day` lets through with a warning.
    var degraded: [String] = []
    var partitions: [RunManifest.Partition] = []
    /// What the partitions read, hashed in partition order as they come.
    var fingerprint: InputFingerprint
    /// Restaurant names the places file does not list, to be reported once per run.
    var unknownRestaurants: Set<String> = []
    /// Names too long to be real, cut where stored, to be reported once per run.
    var longNames = LongNames()
    /// Partitions whose new fetch was refused or failed, published from their last good version.
    var stale: [StalePartition] = []
    /// Foods whose label got worse tonight, published as the latest snapshot had them.
    var staleFoods: [StalePartition] = []
    var staleFoodsSnapshot = ""
    /// Every different label each food printed, by day.
    var labels = LabelVersions()
    /// Partitions taken from the parse cache, and those of them read again for foods that no
    /// other partition of the run read.
    var partitionsFromCache = 0
    var cachedPartitionsReadAgain = 0
    /// Food documents parsed, and those whose parse of the same bytes was kept from an earlier run.
    var foodDocumentsParsed = 0
    var foodDocumentsFromCache = 0
    /// How the run's documents were had, over every partition.
    var documentCounts = DocumentCounts()
    /// Documents found missing or found again, by source: the ledger records them if the run publishes.
    var missingChanges: [String: MissingChanges] = [:]

    /// How a partition's documents were had, and what it found missing, into the run's counts.
    mutating func add(_ outcome: PartitionOutcome, of source: String) {
        documentCounts = documentCounts + outcome.documentCounts
        missingChanges[source, default: MissingChanges()].add(outcome.missingChanges)
        foodDocumentsParsed += outcome.foodDocumentsParsed
        foodDocumentsFromCache += outcome.foodDocumentsFromCache
    }

    /// The dataset and the label versions, handed to the compute stage, which sets every food's
    /// %DV in place: shared with the harvest, its first change would copy the table of foods and
    /// then each food's nutrients, every food on the run's menus however few days changed. The
    /// harvest keeps its documents, which the run records after; nothing after compute reads its
    /// foods or labels.
    mutating func handOverFoods() -> (dataset: Dataset, labels: LabelVersions) {
        let handed = (dataset, labels)
        dataset.foods = [:]
        labels = LabelVersions()
        return handed
    }
}

/// The fetch and parse stages, run together: every partition of every source, several at a
/// time, each committed to the ledger as soon as it finishes, so a killed run loses only those
/// in flight.
struct Harvest {
    let context: StageContext
    /// The run's scratch files are named from this (`RunContext.scratchFile`).
    let scratch: URL

    init(context: StageContext, scratch: URL) {
        self.context = context
        self.scratch = scratch
        // Made once: naming the store's folder and index asks the file system, and the run
        // commits its records once or twice for every partition.
        raw = RawStore(root: context.options.workspace.raw)
    }

    struct Output {
        var outcome: HarvestOutcome
        /// Where the days went, and their digest for the stages after.
        let menus: MenuStream
        /// What the fetch and parse stages count; their time is what the partitions spent in
        /// each, summed (`StageTimes`): with partitions side by side, more than the wall time.
        let fetchCounts: [String: Int]
        let parseCounts: [String: Int]
    }

    /// The fetch and parse stages, from what revalidation fetched: the days into `staging` as
    /// they come, labels that got worse tonight kept from the latest snapshot (`LastGoodFoods`).
    func run(_ revalidation: Revalidation, of run: OpenRun, into staging: StagingSnapshot) async throws -> Output {
        // Parsing starts with the first partition fetched: the two stages run together.
        context.emit(.stageStarted, stage: .parse)
        let menus = MenuStream(staging: staging, times: context.times)
        let labelsKept = run.latest?.stalePartitions?
            .contains { $0.partition.hasPrefix(LastGoodFoods.partitionPrefix) } ?? false
        var harvest = try await partitions(revalidation.work, entityTags: revalidation.entityTags, ledger: run.ledger,
                                           menus: menus, rereadFoodPages: labelsKept)
        try run.stopIfDamaged()
        if run.readsFoodPages, let latest = run.latest {
            keepLastGoodLabels(in: &harvest, menus: menus.digest, latest: latest)
        }
        var parseCounts = context.partitionCounts(of: harvest.dataset, documents: harvest.dataset.documents.count)
        if menus.digest.menuItemCount > 0 { parseCounts["menu_items"] = menus.digest.menuItemCount }
        if harvest.partitionsFromCache > 0 { parseCounts["partitions_from_cache"] = harvest.partitionsFromCache }
        if harvest.cachedPartitionsReadAgain > 0 {
            parseCounts["cached_partitions_read_again"] = harvest.cachedPartitionsReadAgain
        }
        if harvest.foodDocumentsParsed > 0 { parseCounts["food_documents_parsed"] = harvest.foodDocumentsParsed }
        if harvest.foodDocumentsFromCache > 0 {
            parseCounts["food_documents_from_cache"] = harvest.foodDocumentsFromCache
        }
        let fetchCounts = harvest.documentCounts.asCounts.merging(["documents": harvest.dataset.documents.count]) {
            _, total in total
        }
        return Output(outcome: harvest, menus: menus, fetchCounts: fetchCounts, parseCounts: parseCounts)
    }

    /// Labels that got worse tonight keep the latest snapshot's version (`LastGoodFoods`); a
    /// latest snapshot that cannot be read keeps nothing, and says so.
    private func keepLastGoodLabels(in harvest: inout HarvestOutcome, menus: MenuDigest, latest: LatestSnapshot) {
        do {
            harvest.staleFoods = try LastGoodFoods(policy: context.spec.checks)
                .carry(into: &harvest.dataset, menus: menus, latest: latest)
            harvest.staleFoodsSnapshot = latest.url.lastPathComponent
        } catch {
            context.emit(.warning, stage: .parse, message: "labels lost tonight cannot be kept from the latest snapshot, "
                         + "which cannot be read: \(error)", path: latest.url.path)
        }
    }

    /// Every partition of every source, several at a time. Each is committed to the ledger as
    /// soon as it finishes, so a killed run loses only those in flight. Finished partitions are
    /// taken in partition order (a few wait for an earlier one still running, never more than
    /// `partitionLookahead`), their days handed to `menus` and the rest merged, so the result
    /// does not depend on which finished first and no more than a few days are in memory at once.
    ///
    /// `rereadFoodPages` (the latest snapshot kept labels from an earlier night) reads every food
    /// page again instead of the raw store's copy, which may be the page that failed.
    ///
    /// `entityTags`: the stored tags of the folder files revalidation read (`Revalidation`).
    private func partitions(_ work: [PartitionWork], entityTags: [String: StoredEntityTags], ledger: StateLedger,
                            menus: MenuStream, rereadFoodPages: Bool) async throws -> HarvestOutcome {
        let adapterRun = RunContext(scratch: scratch)
        let known = context.options.force || rereadFoodPages ? nil : raw
        // A run that reads everything again parses everything again.
        let cache = known.map { _ in ParseCache(folder: context.options.workspace.parseCache(pipeline: context.spec.name)) }
        let lateRevalidation = cache.map { _ in
            SharedRevalidation(work.filter(\.awaitsRevalidation), entityTags: entityTags)
        }
        let keptDocuments = KeptDocuments(work)
        // Cached partitions whose menus name foods another partition read when they were parsed.
        var borrowers: [Borrower] = []
        var order = PartitionOrder()
        var harvest = HarvestOutcome(fingerprint: InputFingerprint(spec: context.spec))
        var unrecorded = CachedPartitionRecords()
        var sourceLines: [String: String] = [:]
        for item in work where sourceLines[item.harvester.source.name] == nil {
            sourceLines[item.harvester.source.name] = ParseCache.sourceLine(item.harvester.source)
        }
        try await withThrowingTaskGroup(of: PartitionOutcome.self) { group in
            var queue = work.makeIterator()
            var waiting = queue.next()
            var running = 0
            while true {
                while !Task.isCancelled, running < context.partitionConcurrency, let item = waiting,
                      item.index < order.next + context.partitionLookahead {
                    context.emit(.partitionStarted, stage: .fetch, source: item.harvester.source.name, partition: item.key)
                    let sourceLine = sourceLines[item.harvester.source.name] ?? ParseCache.sourceLine(item.harvester.source)
                    group.addTask {
                        try await self.harvest(item, adapterRun: adapterRun, known: known, kept: keptDocuments,
                                               cache: cache.map { ($0, sourceLine) }, revalidation: lateRevalidation)
                    }
                    running += 1
                    waiting = queue.next()
                }
                guard let outcome = try await group.next() else { break }
                running -= 1
                // A partition cut short by a stop is neither done nor failed: the next run does it.
                if Task.isCancelled, case .failure = outcome.result { continue }
                try commit(outcome, to: ledger, unrecorded: &unrecorded)
                for ready in order.add(outcome) {
                    let ready = try await checkingDaysWritten(of: ready, menus: menus) { damaged in
                        if let key = damaged.cacheKey { cache?.remove(key) }
                        let work = damaged.work
                        let sourceLine = sourceLines[work.harvester.source.name] ?? ParseCache.sourceLine(work.harvester.source)
                        // Its foods were claimed for the entry: parsed anew, it reads them all.
                        return try await self.harvest(work, adapterRun: RunContext(scratch: scratch), known: known,
                                                      kept: keptDocuments, cache: cache.map { ($0, sourceLine) },
                                                      revalidation: nil)
                    }
                    try absorb(ready, into: &harvest, menus: menus)
                    if let borrower = Borrower(ready) { borrowers.append(borrower) }
                }
            }
        }
        try commitRawRecords()
        try unrecorded.commit(to: ledger)
        try await readUnclaimedFoods(of: borrowers, adapterRun: adapterRun, known: known, foods: cache, ledger: ledger,
                                     menus: menus, into: &harvest)
        try commitRawRecords()
        cache?.flush()
        warnAboutNames(in: &harvest)
        return harvest
    }

    /// Names the places file does not list, and names too long to be real: once per run.
    private func warnAboutNames(in harvest: inout HarvestOutcome) {
        if let places = context.spec.places, !harvest.unknownRestaurants.isEmpty {
            harvest.warnings.append("restaurant name(s) not in \(places.file.lastPathComponent), kept as printed: "
                                    + harvest.unknownRestaurants.sorted().joined(separator: ", "))
        }
        if let warning = harvest.longNames.warning { harvest.warnings.append(warning) }
    }

    /// A partition taken from the parse cache waits to be committed with the next one fetched
    /// or parsed (`CachedPartitionRecords`); any other is committed now, after those. The raw
    /// store's records go first.
    private func commit(_ outcome: PartitionOutcome, to ledger: StateLedger,
                        unrecorded: inout CachedPartitionRecords) throws {
        try commitRawRecords()
        if outcome.fromCache, outcome.stale == nil {
            if let state = ledgerState(of: outcome) {
                try unrecorded.add(state, previous: outcome.work.previous, to: ledger)
            }
        } else {
            try unrecorded.commit(to: ledger)
            try record(outcome, in: ledger)
        }
    }

    /// A cached partition whose days to be written have their bytes checked
    /// (`DayToWrite.checked`); the days that keep the continued snapshot's rows are read no
    /// further than their digests. Every day is checked when the partition prints labels
    /// (`absorb` numbers their versions on each whole day). A day whose bytes are damaged costs
    /// the entry, and the partition is harvested again (`harvestAgain`, which removes the entry
    /// and parses the partition), before any of its days is appended.
    private func checkingDaysWritten(of outcome: PartitionOutcome, menus: MenuStream,
                                     harvestAgain: (PartitionOutcome) async throws -> PartitionOutcome) async throws
        -> PartitionOutcome {
        guard outcome.fromCache, let prepared = outcome.prepared,
              prepared.days.contains(where: \.rows.awaitsCheck), case .success(let result) = outcome.result
        else { return outcome }
        let kept = result.labels == nil ? menus.wouldKeep(prepared.days.map(\.rows)) : prepared.days.map { _ in false }
        var checked = prepared
        do {
            for (index, day) in prepared.days.enumerated() where !kept[index] {
                checked.days[index] = PreparedDays.Day(rows: try day.rows.checked(), menus: day.menus)
            }
        } catch {
            return try await harvestAgain(outcome)
        }
        var outcome = outcome
        outcome.prepared = checked
        return outcome
    }

    /// The cached partitions whose borrowed foods no partition of this run read.
    private func readUnclaimedFoods(of borrowers: [Borrower], adapterRun: RunContext, known: RawStore?,
                                    foods: ParseCache?, ledger: StateLedger, menus: MenuStream,
                                    into harvest: inout HarvestOutcome) async throws {
        guard !borrowers.isEmpty else { return }
        // Claims only grow, so a borrower none of whose foods is unclaimed now never has one.
        // The foods on any menu are a few thousand; the foods the cached days borrow, counted
        // per day, a hundred thousand: one pass over the first instead of one per borrower.
        let unclaimed = await adapterRun.unclaimed(Set(menus.digest.foodOrder))
        for borrower in borrowers where !unclaimed.isEmpty && borrower.foods.contains(where: unclaimed.contains) {
            try await readUnclaimedFoods(of: borrower, adapterRun: adapterRun, known: known, foods: foods,
                                         ledger: ledger, into: &harvest)
        }
    }

    /// One finished partition, in its turn: its days to the snapshot, the rest to the dataset,
    /// and its progress event, so that events come in partition order.
    private func absorb(_ outcome: PartitionOutcome, into harvest: inout HarvestOutcome, menus: MenuStream) throws {
        let source = outcome.work.harvester.source.name
        let key = outcome.work.key
        report(outcome)
        if outcome.fromCache { harvest.partitionsFromCache += 1 }
        harvest.add(outcome, of: source)
        context.times.add(outcome.fetchSeconds, to: .fetch)
        context.times.add(max(0, outcome.seconds - outcome.fetchSeconds), to: .parse)
        switch outcome.result {
        case .success(let result):
            try absorb(result, of: outcome, into: &harvest, menus: menus)
        case .failure(let error):
            harvest.fingerprint.add(.init(source: source, key: key, documents: outcome.documents, failed: true))
            let partition = RunManifest.Partition(
                source: source, key: key, status: .failed, documents: outcome.documents.count,
                documentsReused: outcome.documentsReused, notModified: outcome.notModifiedCount,
                message: "\(error)", failure: (error as? Failure)?.code.name)
            harvest.failed.append(partition.brief)
            harvest.partitions.append(partition)
        }
    }

    /// A partition that produced something (fresh, cached or its last good version): its days
    /// to the snapshot as they come, the rest merged.
    private func absorb(_ result: PartitionResult, of outcome: PartitionOutcome, into harvest: inout HarvestOutcome,
                        menus: MenuStream) throws {
        let source = outcome.work.harvester.source.name
        var result = result
        harvest.fingerprint.add(.init(source: source, key: outcome.work.key, documents: outcome.documents, failed: false))
        if let stale = outcome.stale { harvest.stale.append(stale) }
        harvest.degraded.append(contentsOf: outcome.degraded)
        let prepared = outcome.prepared ?? PreparedDays(normalizing: &result.dataset, of: outcome.work,
                                                        documents: outcome.documents, places: context.spec.places)
        harvest.unknownRestaurants.formUnion(prepared.unknownRestaurants)
        harvest.longNames.add(prepared.longNames)
        harvest.warnings.append(contentsOf: prepared.warnings)
        for day in prepared.days {
            let versions = try result.labels.map { harvest.labels.record($0, on: try day.rows.day()) } ?? []
            try menus.append(day, servedBy: source, labelVersions: versions)
        }
        result.dataset.serviceDays = []
        // A stale day's foods are its last good version's: a food another partition read
        // fresh tonight keeps tonight's label, whichever of the two comes first (a later
        // fresh partition replaces what the stale one brought, as merging does).
        if outcome.stale != nil {
            result.dataset.foods = result.dataset.foods.filter { harvest.dataset.foods[$0.key] == nil }
        }
        harvest.dataset.merge(result.dataset)
        harvest.dataset.documents.append(contentsOf: outcome.documents)
        harvest.warnings.append(contentsOf: result.warnings)
        let status: PartitionStatus = outcome.stale != nil ? .stale : outcome.work.reused ? .reused : .fetched
        harvest.partitions.append(.init(
            source: source, key: outcome.work.key, status: status,
            documents: outcome.documents.count, documentsReused: outcome.documentsReused,
            notModified: outcome.notModifiedCount, message: outcome.stale?.reason,
            counts: result.counts.isEmpty ? nil : result.counts, failure: outcome.staleBecause))
    }

    /// The partition's `partition_finished` event: what it produced, or why it failed or is stale.
    private func report(_ outcome: PartitionOutcome) {
        let source = outcome.work.harvester.source.name
        let key = outcome.work.key
        switch (outcome.result, outcome.stale) {
        case (.success(let result), nil):
            var counts = context.partitionCounts(of: result.dataset, documents: outcome.documents.count)
            if let prepared = outcome.prepared, !prepared.days.isEmpty { counts["menu_items"] = prepared.menuItemCount }
            counts["documents_reused"] = outcome.documentsReused
            counts["not_modified"] = outcome.notModifiedCount
            if outcome.fromCache { counts["parsed_from_cache"] = 1 }
            counts.merge(result.counts) { _, adapter in adapter }
            context.emit(.partitionFinished, stage: .fetch, source: source, partition: key,
                        status: (outcome.work.reused ? PartitionStatus.reused : .fetched).rawValue,
                        seconds: outcome.seconds, counts: counts)
        case (.success, let stale?):
            context.emit(.partitionFinished, stage: .fetch, source: source, partition: key,
                        status: PartitionStatus.stale.rawValue, message: stale.line)
        case (.failure(let error), _):
            context.emit(.partitionFinished, stage: .fetch, source: source, partition: key,
                        status: PartitionStatus.failed.rawValue, message: "\(error)")
        }
    }

    /// Fetches and parses one partition and judges what it produced; a failure is a value, so
    /// one bad day never stops the others. A fetch that fails or is refused is replaced by the
    /// partition's last good version, replayed from the raw store and marked stale.
    ///
    /// A partition whose documents are known and unchanged is taken from `cache` when it has
    /// it; one that nothing compared yet is revalidated first (through `revalidation`).
    /// `cache`: the parse cache, with the line its keys name the partition's source by.
    private func harvest(_ work: PartitionWork, adapterRun: RunContext, known: RawStore?, kept: KeptDocuments,
                         cache: (ParseCache, source: String)?, revalidation: SharedRevalidation?) async throws
        -> PartitionOutcome {
        var work = work
        if let revalidation, work.awaitsRevalidation {
            work = await Revalidate.revalidate(work, shared: revalidation).0
        }
        let started = context.clock.instant
        // A day whose newest fetch was published without some parts is that fetch: not stale.
        let lastFailed = work.previous?.status == .failed && work.previous?.publishedInPart == false
        let partitionCache = work.harvester.cachesPartitions ? cache : nil
        var outcome: PartitionOutcome
        var cacheKey: String?
        let preparation = PreparedDays.inputs(of: work, places: context.spec.places)
        if case let (cache, source)? = partitionCache, !work.documentsDue, let documents = work.knownDocuments,
           case let key = work.parseCacheKey(documents: documents, source: source, preparedBy: preparation),
           let entry = cache.entry(key) {
            outcome = await cachedOutcome(entry, of: work, documents: documents, adapterRun: adapterRun)
            outcome.cacheKey = key
        } else {
            outcome = try await parse(work, adapterRun: adapterRun, known: known, foods: cache?.0)
            if let source = partitionCache?.source {
                cacheKey = work.parseCacheKey(documents: outcome.documents, source: source, preparedBy: preparation)
            }
        }
        // What was parsed is kept once prepared: a kept day as read, a new fetch once accepted.
        var keep = work.history
        if work.history {
            // A kept day is its last good version; still stale if its newest fetch was refused.
            if lastFailed, let good = work.previous?.lastGood {
                outcome.stale = StalePartition(source: work.harvester.source.name, partition: work.key,
                                               keptFetchedAt: good.fetchedAt, keptRunId: good.runId,
                                               reason: work.previous?.message ?? "the newest fetch failed")
                outcome.staleBecause = work.previous?.failure
            } else if outcome.completesDayPublishedInPart {
                // Its replay read what the day was published without, from the source: kept
                // whole from now on, as the ledger will say.
                outcome.summary = outcome.judgedSummary
            }
        } else if let refusal = judge(&outcome, of: work) {
            if let good = work.previous?.lastGood {
                if case .failure(let error) = outcome.result { outcome.staleBecause = (error as? Failure)?.code.name }
                await replayLastGood(good, of: work, because: refusal, kept: kept, into: &outcome)
            }
        } else if case .success(let result) = outcome.result, result.incomplete.isEmpty {
            keep = true
        }
        // Counted before the days are prepared, as the judge counts them.
        let summary = keep && cacheKey != nil ? outcome.judgedSummary : nil
        prepare(&outcome)
        if let summary, let cache = partitionCache?.0, let cacheKey, case .success(let result) = outcome.result,
           let prepared = outcome.prepared {
            cache.store(.init(result: result, revalidate: outcome.revalidate, prepared: prepared, summary: summary),
                        key: cacheKey)
        }
        outcome.seconds = context.clock.seconds(since: started)
        return outcome
    }

    /// Normalizes what the partition produced and prepares its days (`PreparedDays`), on the
    /// partition's own task, unless the parse cache kept it prepared. The days go from the
    /// result to the prepared ones, which are all that is read of them after.
    private func prepare(_ outcome: inout PartitionOutcome) {
        guard outcome.prepared == nil, case .success(var result) = outcome.result else { return }
        outcome.prepared = PreparedDays(normalizing: &result.dataset, of: outcome.work, documents: outcome.documents,
                                        places: context.spec.places)
        result.dataset.serviceDays = []
        outcome.result = .success(result)
    }

    /// Judges a new fetch against the partition's last good version and its usual size: nil when
    /// it is accepted (its summary and degradation warnings kept), else why it was not (a refusal
    /// made a failure of the outcome, or the failure it already was).
    private func judge(_ outcome: inout PartitionOutcome, of work: PartitionWork) -> String? {
        let fresh: PartitionResult
        switch outcome.result {
        case .success(let result): fresh = result
        case .failure(let error): return "\(error)"
        }
        // A cached partition comes with the summary it was judged by; its days are prepared.
        let summary = outcome.summary ?? PartitionSummary(fresh)
        let judge = PartitionJudge(policy: context.spec.checks)
        let lastGood = work.previous?.lastGood?.summary
        let degradation = judge.degradation(summary, lastGood: lastGood)
        var problems = judge.problems(summary, lastGood: lastGood, usual: work.usual) + degradation.refusals
        // A part that could not be read would make a day published with it worse: its last good
        // version is kept instead. A day never published has nothing better than the rest, nor
        // one whose last good version lacked the same parts, or the wholes they belong to.
        let lacked = work.previous?.lastGood.map { Set($0.lacking) }
        func lackedBefore(_ part: PartNotRead) -> String? {
            guard let lacked else { return nil }
            if lacked.contains(part.part) { return "its last good version lacked it too" }
            return part.within.flatMap { lacked.contains($0) ? "its last good version lacked all of \($0)" : nil }
        }
        if lacked != nil {
            problems += fresh.incomplete.filter { lackedBefore($0) == nil }.map { "\($0.line), not read" }
        }
        guard problems.isEmpty else {
            outcome.result = .failure(Failure.partitionRefused(problems))
            return "refused: " + problems.joined(separator: "; ")
        }
        outcome.summary = summary
        outcome.degraded = degradation.warnings.map {
            "\(work.harvester.source.name)/\(work.key): \($0), published as read (checks.degraded_day: warn)"
        }
        if !fresh.incomplete.isEmpty {
            var published = fresh
            published.warnings += fresh.incomplete.map {
                "\($0.line), not read: the rest is published without it ("
                    + (lackedBefore($0) ?? "the partition has no last good version to keep instead") + ")"
            }
            outcome.result = .success(published)
        }
        return nil
    }

    /// The documents a failed attempt read with other bytes than its last good version (all it
    /// read, when it never had one): a refused night's pages may be why it was refused, so the
    /// next night asks for them again rather than reading the raw store's copies. Everything else
    /// the store holds is used as on any night: an outage night read nothing, and the night after
    /// it asks only what is due.
    static func readOnAFailedNight(_ previous: PartitionState) -> Set<String> {
        guard previous.status == .failed else { return [] }
        let good = Set((previous.lastGood?.documents ?? []).map { [$0.url, $0.sha256] })
        return Set(previous.documents.filter { !good.contains([$0.url, $0.sha256]) }.map(\.url))
    }

    /// Reads and parses the partition: from the raw store when its documents are known, else
    /// from its source (what revalidation fetched for it first).
    private func parse(_ work: PartitionWork, adapterRun: RunContext, known: RawStore?, foods: ParseCache?) async throws
        -> PartitionOutcome {
        var work = work
        let upstream = try work.knownDocuments.map { try context.replay($0, fallback: work.live) } ?? work.live
        let log = DocumentLog(upstream: upstream, known: known, clock: context.clock, prefetched: work.prefetched,
                              policy: context.foodDocumentPolicy(for: work), upstreamAsks: work.knownDocuments == nil,
                              parsedFoods: foods, distrusted: work.previous.map(Self.readOnAFailedNight) ?? [])
        // The log has the prefetched bodies now; the outcome need not carry them until its turn.
        work.prefetched = [:]
        let result: Result<PartitionResult, any Error>
        do {
            result = .success(try await work.harvester.harvest(partition: work.key, from: log, run: adapterRun))
        } catch {
            result = .failure(error)
        }
        let attempted = await log.documents
        let counts = await log.counts + work.confirmedCounts
        return PartitionOutcome(
            work: work, result: result, documents: attempted, attempted: attempted, revalidate: await log.revalidate,
            reusedCount: counts.fresh, notModifiedCount: counts.revalidated,
            fetchSeconds: await log.fetchSeconds, seconds: 0, documentCounts: counts,
            missingChanges: MissingChanges(missing: await log.missing, found: await log.found),
            foodDocumentsParsed: await log.foodDocumentsParsed,
            foodDocumentsFromCache: await log.foodDocumentsFromCache)
    }

    /// A partition as the cache has it, read from the documents it lists: its foods are claimed
    /// for it, as when it was parsed, and the foods it left to other partitions are noted.
    private func cachedOutcome(_ entry: ParseCache.Entry, of work: PartitionWork, documents: [SourceDocument],
                               adapterRun: RunContext) async -> PartitionOutcome {
        let own = entry.result.dataset.foods
        await adapterRun.claim(foods: own.keys)
        var borrowed: [FoodID] = []
        for day in entry.prepared.days {
            borrowed += day.menus.foodIDs.filter { own[$0] == nil }
        }
        // What revalidation asked for it (its menu, often a 304) is all that was asked: the
        // cache's foods were claimed, not read.
        let counts = work.confirmedCounts
        return PartitionOutcome(
            work: work, result: .success(entry.result), documents: documents, attempted: documents,
            summary: entry.summary, revalidate: entry.revalidate, fromCache: true, borrowed: borrowed,
            reusedCount: counts.fresh, notModifiedCount: counts.revalidated, fetchSeconds: 0, seconds: 0,
            documentCounts: counts, prepared: entry.prepared)
    }

    /// A cached partition's menus name foods that no partition of this run read (the day that
    /// read them when it was parsed has changed or left the window): the partition is parsed
    /// again from the raw store, which reads just those (the others are claimed), and its new
    /// foods and documents join the run. Its days went to the snapshot already and are the same.
    private func readUnclaimedFoods(of borrower: Borrower, adapterRun: RunContext, known: RawStore?, foods: ParseCache?,
                                    ledger: StateLedger, into harvest: inout HarvestOutcome) async throws {
        guard !(await adapterRun.unclaimed(Set(borrower.foods))).isEmpty else { return }
        let outcome = try await parse(borrower.work, adapterRun: adapterRun, known: known, foods: foods)
        guard case .success(let reread) = outcome.result else { return }
        harvest.cachedPartitionsReadAgain += 1
        let source = borrower.work.harvester.source.name
        harvest.add(outcome, of: source)
        let newDocuments = outcome.documents.filter { document in !borrower.documents.contains { $0.url == document.url } }
        harvest.fingerprint.add(documents: newDocuments, of: source)
        harvest.dataset.documents.append(contentsOf: newDocuments)
        for (id, food) in reread.dataset.foods where harvest.dataset.foods[id] == nil {
            harvest.dataset.foods[id] = harvest.longNames.shorten(food, partition: "\(source)/\(borrower.work.key)")
        }
        let reported = Set(harvest.warnings)
        harvest.warnings.append(contentsOf: reread.warnings.filter { !reported.contains($0) })
        // The ledger lists what the partition read in all: what the cache's version read, and
        // the pages read for it now.
        var recorded = outcome
        recorded.documents = borrower.documents + newDocuments
        recorded.attempted = recorded.documents
        recorded.summary = borrower.summary
        try commitRawRecords()
        try record(recorded, in: ledger)
    }

    /// Parses the partition's last good version again, from the raw store alone (nothing is
    /// fetched), with its own claims so that it reads every food page it read then.
    private func replayLastGood(_ good: LastGood, of work: PartitionWork, because refusal: String,
                                kept: KeptDocuments, into outcome: inout PartitionOutcome) async {
        let source = work.harvester.source.name
        do {
            let shared = try context.replay(kept.documents(of: source), fallback: NothingKept())
            let upstream = try context.replay(good.documents, fallback: shared)
            let log = DocumentLog(upstream: upstream, known: nil, clock: context.clock)
            let replayed = try await work.harvester.harvest(partition: work.key, from: log,
                                                            run: RunContext(scratch: scratch))
            outcome.result = .success(replayed)
            outcome.documents = await log.documents
            outcome.fromCache = false
            outcome.borrowed = []
            outcome.stale = StalePartition(source: source, partition: work.key, keptFetchedAt: good.fetchedAt,
                                           keptRunId: good.runId, reason: refusal)
        } catch {
            outcome.result = .failure(Failure.staleReplayFailed(refusal: refusal, replay: error))
        }
    }

    /// The raw store the run's sources store into. Its records are committed in batches; each
    /// is committed before the ledger names documents (`commit`, and before every `record`), so
    /// a partition the ledger calls done never points at a record a kill took from the index.
    private let raw: RawStore

    /// Storing what was fetched is part of fetching it, though a run commits a batch at a time
    /// between fetches rather than in each: its time is the fetch stage's.
    private func commitRawRecords() throws {
        try context.times.measure(.fetch) { try raw.commitPending() }
    }

    /// Commits a finished partition to the ledger as soon as it finishes, once the raw store has
    /// committed its documents' records. A kept day is not written: a replay learns nothing new about it.
    private func record(_ outcome: PartitionOutcome, in ledger: StateLedger) throws {
        if case .failure(let error) = outcome.result {
            context.logger.info("partition failed", metadata: [
                "stage": "\(StageName.fetch.rawValue)", "source": "\(outcome.work.harvester.source.name)",
                "partition": "\(outcome.work.key)", "error": "\(error)",
            ])
        }
        if let state = ledgerState(of: outcome) { try ledger.record(state) }
    }

    /// What the ledger records of a finished partition; nil for a kept day.
    private func ledgerState(of outcome: PartitionOutcome) -> PartitionState? {
        let source = outcome.work.harvester.source.name
        let key = outcome.work.key
        let previous = outcome.work.previous
        switch (outcome.result, outcome.stale) {
        case (.success(let result), nil) where !result.incomplete.isEmpty:
            // Published without the parts not read, for want of a better version: recorded as
            // not done, so that every night asks for the day again (no revalidation finds it
            // unchanged) until it is read whole, and keeps this version meanwhile.
            guard !outcome.work.history else { return nil }
            return PartitionState(
                source: source, key: key, status: .failed, documents: outcome.documents, runId: context.runId,
                updatedAt: ISOTimestamp.string(from: context.clock.now()),
                message: result.incomplete.map(\.line).joined(separator: "; ") + ", not read",
                revalidate: outcome.revalidate,
                lastGood: LastGood(documents: outcome.documents, runId: context.runId, summary: outcome.summary,
                                   lacking: result.incomplete.map(\.part)))
        case (.success, nil):
            guard !outcome.work.history || outcome.completesDayPublishedInPart else { return nil }
            let lastGood = previous?.lastGood.flatMap { $0.documents == outcome.documents ? $0 : nil }
            return PartitionState(
                source: source, key: key, status: .done, documents: outcome.documents, runId: context.runId,
                updatedAt: ISOTimestamp.string(from: context.clock.now()), revalidate: outcome.revalidate,
                lastGood: LastGood(documents: outcome.documents, runId: lastGood?.runId ?? context.runId,
                                   summary: outcome.summary))
        case (.success, let stale?):
            guard !outcome.work.history else { return nil }
            return PartitionState(
                source: source, key: key, status: .failed, documents: outcome.attempted, runId: context.runId,
                updatedAt: ISOTimestamp.string(from: context.clock.now()), message: stale.reason, failure: outcome.staleBecause,
                lastGood: previous?.lastGood)
        case (.failure(let error), _):
            return PartitionState(source: source, key: key, status: .failed, documents: outcome.attempted,
                                  runId: context.runId, updatedAt: ISOTimestamp.string(from: context.clock.now()), message: "\(error)",
                                  failure: (error as? Failure)?.code.name, lastGood: previous?.lastGood)
        }
    }
}
