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
    /// Time the partitions spent waiting for documents and parsing them, summed over partitions:
    /// with partitions running side by side these add up to more than the wall time.
    var fetchSeconds = 0.0
    var parseSeconds = 0.0
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
}

/// One partition's work, done in a child task.
struct PartitionWork: Sendable {
    var index: Int
    var harvester: any Harvester
    var live: any DocumentSource
    var key: String
    var previous: PartitionState?
    var reused: Bool
    /// What the revalidation already fetched for this partition, served instead of a second request.
    var prefetched: [String: Result<FetchedDocument, any Error>] = [:]
    /// Revalidation found every document the ledger lists unchanged: the partition is parsed
    /// from the raw store, by sha256, and nothing of it is held in memory meanwhile.
    var confirmed = false
    /// Documents fetched again by revalidation, and how many of those were 304s.
    var refetched = 0
    var notModified = 0
    /// A day outside the run's dates that the pipeline's `history:` keeps: replayed from the raw
    /// store as last done, never revalidated or fetched.
    var history = false
    /// The source's usual figures, for judging a partition that has no good version yet.
    var usual: PartitionSummary?
    /// Compared with what the ledger recorded, by the revalidation stage or by the harvest.
    var revalidated = false

    /// A partition done before that nothing has compared yet (the revalidation stage stops at
    /// the first change, or does not run when a day is new): the harvest revalidates it first,
    /// so that an unchanged one is taken from the parse cache.
    var awaitsRevalidation: Bool { !revalidated && !reused && !history && previous?.status == .done }

    /// The documents the partition will read, when they are known before it runs: those of
    /// its last version for a partition replayed or found unchanged.
    var knownDocuments: [SourceDocument]? {
        history ? previous?.lastGood?.documents : reused || confirmed ? previous?.documents : nil
    }

    /// The parse cache's key for this partition built from `documents`. A day is parsed from
    /// its documents alone; a partition that is not a day (a site's hours page) may read the
    /// run's days too (to place a weekday in its year), so its key holds them.
    func parseCacheKey(documents: [SourceDocument]) -> String {
        ParseCache.key(source: harvester.source, partition: key,
                       runPartitions: ServiceDate(key) == nil ? harvester.partitions : [], documents: documents)
    }
}

/// One partition's outcome, handed back to the run's own task, which alone writes the ledger.
private struct PartitionOutcome: Sendable {
    var work: PartitionWork
    /// What is published for the partition: the new fetch, or its last good version when the
    /// new one was refused or failed (then `stale` says so).
    var result: Result<PartitionResult, any Error>
    /// The documents `result` was built from.
    var documents: [SourceDocument]
    /// The documents the new fetch read, for the ledger (the same as `documents` unless stale).
    var attempted: [SourceDocument]
    /// The accepted fetch's counts, kept with it as the partition's last good version.
    var summary: PartitionSummary?
    /// Signs of a degraded structure in the accepted fetch, let through with a warning.
    var degraded: [String] = []
    var stale: StalePartition?
    var revalidate: [String]
    /// Taken from the parse cache instead of being parsed.
    var fromCache = false
    /// Foods on a cached partition's menus that another partition read when it was parsed: if
    /// no partition claims them in this run, the partition is read again for them.
    var borrowed: Set<FoodID> = []
    var reusedCount: Int
    var notModifiedCount: Int
    var fetchSeconds: Double
    var seconds: Double
}

extension PipelineRunner {
    /// How many partitions are fetched and parsed at once: parsing is CPU-bound, so one per core;
    /// politeness towards a host is the fetch policy's job (per-host concurrency and delay).
    var partitionConcurrency: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Every partition of every source, in the pipeline's order, with what the ledger knows of it.
    func partitionWork(_ harvesters: [(any Harvester, any DocumentSource)], ledger: StateLedger?,
                       interrupted: Set<String>) throws -> [PartitionWork] {
        var work: [PartitionWork] = []
        for (harvester, live) in harvesters {
            let own = harvester.partitions
            var kept: Set<String> = []
            if let history = spec.history, let ledger {
                kept = Set(try ledger.keptKeys(source: harvester.source.name).filter { key in
                    guard let date = ServiceDate(key), !own.contains(key) else { return false }
                    return history.keeps(date, today: options.today)
                })
            }
            let usual = try ledger.map {
                PartitionSummary.total(try $0.goodSummaries(source: harvester.source.name, limit: Self.usualWindow))
            }
            let states = try ledger?.states(source: harvester.source.name) ?? [:]
            // Days in date order, kept ones among them; other partitions (`hours`) after, as listed.
            let days = (own.filter { ServiceDate($0) != nil } + kept).sorted()
            for key in days + own.filter({ ServiceDate($0) == nil }) {
                let previous = states[key]
                let isHistory = kept.contains(key)
                var item = PartitionWork(index: work.count, harvester: harvester, live: live, key: key,
                                         previous: previous,
                                         reused: isHistory || reuses(previous, interrupted: interrupted))
                item.history = isHistory
                item.usual = usual
                work.append(item)
            }
        }
        return work
    }

    /// How many of a source's newest good partitions make its usual figures.
    static let usualWindow = 28

    /// How far past the earliest unfinished partition new ones may start. Finished partitions
    /// wait in memory for their turn, so one stalled partition (a page timing out and retried)
    /// holds back the start of others rather than letting the whole run pile up behind it.
    var partitionLookahead: Int { partitionConcurrency * 4 }

    /// What a partition produced, for its progress line.
    func partitionCounts(of dataset: Dataset, documents: Int) -> [String: Int] {
        var counts = ["documents": documents]
        if !dataset.serviceDays.isEmpty {
            counts["menu_items"] = dataset.serviceDays.reduce(0) { $0 + $1.menuItemCount }
        }
        if !dataset.foods.isEmpty { counts["food_pages"] = dataset.foods.count }
        if !dataset.hours.isEmpty { counts["hours"] = dataset.hours.count }
        let recipes = dataset.recipes.count + dataset.recipeSpools.reduce(0) { $0 + $1.count }
        if recipes > 0 { counts["recipes"] = recipes }
        return counts
    }
}

/// The fetch and parse stages, run together: every partition of every source, several at a
/// time, each committed to the ledger as soon as it finishes, so a killed run loses only those
/// in flight.
struct HarvestStage {
    let runner: PipelineRunner
    /// The run's scratch files are named from this (`RunContext.scratchFile`).
    let scratch: URL

    /// The fetch and parse stages: every partition of every source, several at a time. Each is
    /// committed to the ledger as soon as it finishes, so a killed run loses only those in flight.
    /// Finished partitions are taken in partition order (a few wait for an earlier one still
    /// running, never more than `partitionLookahead`), their days handed to `menus` and the rest
    /// merged, so the result does not depend on which finished first and no more than a few days
    /// are in memory at once.
    ///
    /// `rereadFoodPages` (the latest snapshot kept labels from an earlier night) reads every food
    /// page again instead of the raw store's copy, which may be the page that failed.
    func run(_ work: [PartitionWork], ledger: StateLedger, menus: MenuStream, rereadFoodPages: Bool) async throws
        -> HarvestOutcome {
        let context = RunContext(scratch: scratch)
        let known = runner.options.force || rereadFoodPages ? nil : RawStore(root: runner.options.workspace.raw)
        // A run that reads everything again parses everything again.
        let cache = known.map { _ in ParseCache(folder: runner.options.workspace.parseCache(pipeline: runner.spec.name)) }
        let lateRevalidation = cache.map { _ in SharedRevalidation(work.filter(\.awaitsRevalidation)) }
        let keptDocuments = KeptDocuments(work)
        // Cached partitions whose menus name foods another partition read when they were parsed.
        var borrowers: [Borrower] = []
        // Finished partitions waiting for an earlier one, by index: never more than the lookahead.
        var finished: [Int: PartitionOutcome] = [:]
        var harvest = HarvestOutcome(fingerprint: InputFingerprint(spec: runner.spec))
        var nextInOrder = 0
        var unrecorded = CachedPartitionRecords()
        try await withThrowingTaskGroup(of: PartitionOutcome.self) { group in
            var queue = work.makeIterator()
            var waiting = queue.next()
            var running = 0
            while true {
                while !Task.isCancelled, running < runner.partitionConcurrency, let item = waiting,
                      item.index < nextInOrder + runner.partitionLookahead {
                    runner.emit(.partitionStarted, stage: .fetch, source: item.harvester.source.name, partition: item.key)
                    group.addTask {
                        try await self.harvest(item, context: context, known: known, kept: keptDocuments,
                                               cache: cache, revalidation: lateRevalidation)
                    }
                    running += 1
                    waiting = queue.next()
                }
                guard let outcome = try await group.next() else { break }
                running -= 1
                // A partition cut short by a stop is neither done nor failed: the next run does it.
                if Task.isCancelled, case .failure = outcome.result { continue }
                if outcome.fromCache, outcome.stale == nil {
                    if let state = ledgerState(of: outcome) {
                        try unrecorded.add(state, previous: outcome.work.previous, to: ledger)
                    }
                } else {
                    try unrecorded.commit(to: ledger)
                    try record(outcome, in: ledger)
                }
                finished[outcome.work.index] = outcome
                while let ready = finished.removeValue(forKey: nextInOrder) {
                    try absorb(ready, into: &harvest, menus: menus)
                    if !ready.borrowed.isEmpty {
                        borrowers.append(Borrower(work: ready.work, foods: ready.borrowed, documents: ready.documents,
                                                  summary: ready.summary))
                    }
                    nextInOrder += 1
                }
            }
        }
        try unrecorded.commit(to: ledger)
        // Claims only grow, so a borrower none of whose foods is unclaimed now never has one.
        // The foods on any menu are a few thousand; the foods the cached days borrow, counted
        // per day, a hundred thousand: one pass over the first instead of one per borrower.
        let unclaimed = borrowers.isEmpty ? [] : await context.unclaimed(Set(menus.digest.foods.keys))
        for borrower in borrowers where unclaimed.contains(where: borrower.foods.contains) {
            try await readUnclaimedFoods(of: borrower, context: context, known: known, ledger: ledger, into: &harvest)
        }
        cache?.flush()
        if let places = runner.spec.places, !harvest.unknownRestaurants.isEmpty {
            harvest.warnings.append("restaurant name(s) not in \(places.file.lastPathComponent), kept as printed: "
                                    + harvest.unknownRestaurants.sorted().joined(separator: ", "))
        }
        return harvest
    }

    /// One finished partition, in its turn: its days to the snapshot, the rest to the dataset,
    /// and its progress event, so that events come in partition order.
    private func absorb(_ outcome: PartitionOutcome, into harvest: inout HarvestOutcome, menus: MenuStream) throws {
        let source = outcome.work.harvester.source.name
        let key = outcome.work.key
        report(outcome)
        if outcome.fromCache { harvest.partitionsFromCache += 1 }
        harvest.fetchSeconds += outcome.fetchSeconds
        harvest.parseSeconds += max(0, outcome.seconds - outcome.fetchSeconds)
        switch outcome.result {
        case .success(var result):
            harvest.fingerprint.add(.init(source: source, key: key, documents: outcome.documents, failed: false))
            if let stale = outcome.stale { harvest.stale.append(stale) }
            harvest.degraded.append(contentsOf: outcome.degraded)
            // Normalizing: one name per restaurant, as the pipeline's places file says.
            if let places = runner.spec.places {
                result.dataset.serviceDays = result.dataset.serviceDays.map {
                    places.normalize($0, unknown: &harvest.unknownRestaurants)
                }
                result.dataset.hours = places.normalize(result.dataset.hours, unknown: &harvest.unknownRestaurants)
            }
            if let text = ReplacementCharacters.firstText(in: result.dataset) {
                let document = outcome.documents.first.map { " (read from \($0.url))" } ?? ""
                harvest.warnings.append("\(source)/\(key)\(document): text holds U+FFFD, bytes that were not in the "
                                        + "encoding the document declared, first in \"\(text)\"")
            }
            for day in result.dataset.serviceDays {
                let versions = result.labels.map { harvest.labels.record($0, on: day) } ?? []
                try menus.append(day, labelVersions: versions)
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
                source: source, key: key, status: status,
                documents: outcome.documents.count, documentsReused: outcome.reusedCount,
                notModified: outcome.notModifiedCount, message: outcome.stale?.reason,
                counts: result.counts.isEmpty ? nil : result.counts))
        case .failure(let error):
            harvest.fingerprint.add(.init(source: source, key: key, documents: outcome.documents, failed: true))
            harvest.failed.append("\(source)/\(key): \(error)")
            harvest.partitions.append(.init(
                source: source, key: key, status: .failed, documents: outcome.documents.count,
                documentsReused: outcome.reusedCount, notModified: outcome.notModifiedCount,
                message: "\(error)"))
        }
    }

    /// The partition's `partition_finished` event: what it produced, or why it failed or is stale.
    private func report(_ outcome: PartitionOutcome) {
        let source = outcome.work.harvester.source.name
        let key = outcome.work.key
        switch (outcome.result, outcome.stale) {
        case (.success(let result), nil):
            var counts = runner.partitionCounts(of: result.dataset, documents: outcome.documents.count)
            counts["documents_reused"] = outcome.reusedCount
            counts["not_modified"] = outcome.notModifiedCount
            if outcome.fromCache { counts["parsed_from_cache"] = 1 }
            counts.merge(result.counts) { _, adapter in adapter }
            runner.emit(.partitionFinished, stage: .fetch, source: source, partition: key,
                        status: (outcome.work.reused ? PartitionStatus.reused : .fetched).rawValue,
                        seconds: outcome.seconds, counts: counts)
        case (.success, let stale?):
            runner.emit(.partitionFinished, stage: .fetch, source: source, partition: key,
                        status: PartitionStatus.stale.rawValue, message: stale.line)
        case (.failure(let error), _):
            runner.emit(.partitionFinished, stage: .fetch, source: source, partition: key,
                        status: PartitionStatus.failed.rawValue, message: "\(error)")
        }
    }

    /// Fetches and parses one partition and judges what it produced; a failure is a value, so
    /// one bad day never stops the others. A fetch that fails or is refused is replaced by the
    /// partition's last good version, replayed from the raw store and marked stale.
    ///
    /// A partition whose documents are known and unchanged is taken from `cache` when it has
    /// it; one that nothing compared yet is revalidated first (through `revalidation`).
    private func harvest(_ work: PartitionWork, context: RunContext, known: RawStore?, kept: KeptDocuments,
                         cache: ParseCache?, revalidation: SharedRevalidation?) async throws -> PartitionOutcome {
        var work = work
        if let revalidation, work.awaitsRevalidation {
            work = await RevalidateStage.revalidate(work, shared: revalidation).0
        }
        let started = Date()
        let lastFailed = work.previous?.status == .failed
        let cache = work.harvester.cachesPartitions ? cache : nil
        var outcome: PartitionOutcome
        var cacheKey: String?
        if let cache, let documents = work.knownDocuments,
           case let key = work.parseCacheKey(documents: documents), let entry = cache.entry(key) {
            outcome = await cachedOutcome(entry, of: work, documents: documents, context: context)
        } else {
            outcome = try await parse(work, context: context, known: lastFailed ? nil : known)
            if cache != nil { cacheKey = work.parseCacheKey(documents: outcome.documents) }
        }
        if work.history {
            // A kept day is its last good version; still stale if its newest fetch was refused.
            if lastFailed, let good = work.previous?.lastGood {
                outcome.stale = StalePartition(source: work.harvester.source.name, partition: work.key,
                                               keptFetchedAt: good.fetchedAt, keptRunId: good.runId,
                                               reason: work.previous?.message ?? "the newest fetch failed")
            }
            if let cache, let cacheKey, case .success(let kept) = outcome.result {
                cache.store(.init(result: kept, revalidate: outcome.revalidate), key: cacheKey)
            }
        } else {
            let refusal: String
            switch outcome.result {
            case .success(let fresh):
                let summary = PartitionSummary(fresh)
                let judge = PartitionJudge(policy: runner.spec.checks)
                let lastGood = work.previous?.lastGood?.summary
                let degradation = judge.degradation(summary, lastGood: lastGood)
                let problems = judge.problems(summary, lastGood: lastGood, usual: work.usual) + degradation.refusals
                if problems.isEmpty {
                    outcome.summary = summary
                    outcome.degraded = degradation.warnings.map {
                        "\(work.harvester.source.name)/\(work.key): \($0), published as read (checks.degraded_day: warn)"
                    }
                    outcome.seconds = Date().timeIntervalSince(started)
                    if let cache, let cacheKey {
                        cache.store(.init(result: fresh, revalidate: outcome.revalidate), key: cacheKey)
                    }
                    return outcome
                }
                refusal = "refused: " + problems.joined(separator: "; ")
                outcome.result = .failure(PartitionRefused(problems: problems))
            case .failure(let error):
                refusal = "\(error)"
            }
            if let good = work.previous?.lastGood {
                await replayLastGood(good, of: work, because: refusal, kept: kept, into: &outcome)
            }
        }
        outcome.seconds = Date().timeIntervalSince(started)
        return outcome
    }

    /// Reads and parses the partition: from the raw store when its documents are known, else
    /// from its source (what revalidation fetched for it first).
    private func parse(_ work: PartitionWork, context: RunContext, known: RawStore?) async throws
        -> PartitionOutcome {
        var work = work
        let upstream = try work.knownDocuments.map { try runner.replay($0, fallback: work.live) } ?? work.live
        let log = DocumentLog(upstream: upstream, known: known, prefetched: work.prefetched)
        // The log has the prefetched bodies now; the outcome need not carry them until its turn.
        work.prefetched = [:]
        let result: Result<PartitionResult, any Error>
        do {
            result = .success(try await work.harvester.harvest(partition: work.key, from: log, run: context))
        } catch {
            result = .failure(error)
        }
        let attempted = await log.documents
        return PartitionOutcome(
            work: work, result: result, documents: attempted, attempted: attempted, revalidate: await log.revalidate,
            reusedCount: await log.reusedCount, notModifiedCount: await log.notModifiedCount,
            fetchSeconds: await log.fetchSeconds, seconds: 0)
    }

    /// A partition as the cache has it, read from the documents it lists: its foods are claimed
    /// for it, as when it was parsed, and the foods it left to other partitions are noted.
    private func cachedOutcome(_ entry: ParseCache.Entry, of work: PartitionWork, documents: [SourceDocument],
                               context: RunContext) async -> PartitionOutcome {
        let own = entry.result.dataset.foods.keys
        await context.claim(foods: own)
        var borrowed: Set<FoodID> = []
        for day in entry.result.dataset.serviceDays {
            day.forEachMenuItem { borrowed.insert($0.food) }
        }
        borrowed.subtract(own)
        return PartitionOutcome(
            work: work, result: .success(entry.result), documents: documents, attempted: documents,
            revalidate: entry.revalidate, fromCache: true, borrowed: borrowed, reusedCount: 0, notModifiedCount: 0,
            fetchSeconds: 0, seconds: 0)
    }

    /// A cached partition's menus name foods that no partition of this run read (the day that
    /// read them when it was parsed has changed or left the window): the partition is parsed
    /// again from the raw store, which reads just those (the others are claimed), and its new
    /// foods and documents join the run. Its days went to the snapshot already and are the same.
    private func readUnclaimedFoods(of borrower: Borrower, context: RunContext, known: RawStore?, ledger: StateLedger,
                                    into harvest: inout HarvestOutcome) async throws {
        guard !(await context.unclaimed(borrower.foods)).isEmpty else { return }
        let outcome = try await parse(borrower.work, context: context, known: known)
        guard case .success(let reread) = outcome.result else { return }
        harvest.cachedPartitionsReadAgain += 1
        let source = borrower.work.harvester.source.name
        let newDocuments = outcome.documents.filter { document in !borrower.documents.contains { $0.url == document.url } }
        harvest.fingerprint.add(documents: newDocuments, of: source)
        harvest.dataset.documents.append(contentsOf: newDocuments)
        for (id, food) in reread.dataset.foods where harvest.dataset.foods[id] == nil {
            harvest.dataset.foods[id] = food
        }
        let reported = Set(harvest.warnings)
        harvest.warnings.append(contentsOf: reread.warnings.filter { !reported.contains($0) })
        // The ledger lists what the partition read in all: what the cache's version read, and
        // the pages read for it now.
        var recorded = outcome
        recorded.documents = borrower.documents + newDocuments
        recorded.attempted = recorded.documents
        recorded.summary = borrower.summary
        try record(recorded, in: ledger)
    }

    /// Parses the partition's last good version again, from the raw store alone (nothing is
    /// fetched), with its own claims so that it reads every food page it read then.
    private func replayLastGood(_ good: LastGood, of work: PartitionWork, because refusal: String,
                                kept: KeptDocuments, into outcome: inout PartitionOutcome) async {
        let source = work.harvester.source.name
        do {
            let shared = try runner.replay(kept.documents(of: source), fallback: NothingKept())
            let upstream = try runner.replay(good.documents, fallback: shared)
            let log = DocumentLog(upstream: upstream, known: nil)
            let replayed = try await work.harvester.harvest(partition: work.key, from: log,
                                                            run: RunContext(scratch: scratch))
            outcome.result = .success(replayed)
            outcome.documents = await log.documents
            outcome.fromCache = false
            outcome.borrowed = []
            outcome.stale = StalePartition(source: source, partition: work.key, keptFetchedAt: good.fetchedAt,
                                           keptRunId: good.runId, reason: refusal)
        } catch {
            outcome.result = .failure(StaleReplayFailed(refusal: refusal, replay: "\(error)"))
        }
    }

    /// Commits a finished partition to the ledger as soon as it finishes. A kept day is not
    /// written: a replay learns nothing new about it.
    private func record(_ outcome: PartitionOutcome, in ledger: StateLedger) throws {
        if case .failure(let error) = outcome.result {
            runner.logger.info("partition failed", metadata: [
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
        case (.success, nil):
            guard !outcome.work.history else { return nil }
            let lastGood = previous?.lastGood.flatMap { $0.documents == outcome.documents ? $0 : nil }
            return PartitionState(
                source: source, key: key, status: .done, documents: outcome.documents, runId: runner.runId,
                updatedAt: isoTimestamp(Date()), revalidate: outcome.revalidate,
                lastGood: LastGood(documents: outcome.documents, runId: lastGood?.runId ?? runner.runId,
                                   summary: outcome.summary))
        case (.success, let stale?):
            guard !outcome.work.history else { return nil }
            return PartitionState(
                source: source, key: key, status: .failed, documents: outcome.attempted, runId: runner.runId,
                updatedAt: isoTimestamp(Date()), message: stale.reason, lastGood: previous?.lastGood)
        case (.failure(let error), _):
            return PartitionState(source: source, key: key, status: .failed, documents: outcome.attempted,
                                  runId: runner.runId, updatedAt: isoTimestamp(Date()), message: "\(error)",
                                  lastGood: previous?.lastGood)
        }
    }
}

/// The ledger states of partitions taken from the parse cache, not yet committed. Such a state
/// changes only which run saw the partition last: losing it to a kill costs the next run one
/// cache read, where a commit of its own would cost a sync of the log (a fifth of the harvest
/// of a rerun in which one day changed). They are committed with the next partition that was
/// fetched or parsed, `perCommit` at a time, and at the end of the harvest; a state that is the
/// one recorded but for its run and time updates those two alone, without encoding the rest.
private struct CachedPartitionRecords {
    static let perCommit = 64
    private var states: [PartitionState] = []
    private var seenAgain: [(source: String, key: String)] = []
    private var run: (id: String, time: String)?

    mutating func add(_ state: PartitionState, previous: PartitionState?, to ledger: StateLedger) throws {
        var recorded = previous
        recorded?.runId = state.runId
        recorded?.updatedAt = state.updatedAt
        if recorded == state {
            seenAgain.append((state.source, state.key))
            run = (state.runId, state.updatedAt)
        } else {
            states.append(state)
        }
        if states.count + seenAgain.count >= Self.perCommit { try commit(to: ledger) }
    }

    mutating func commit(to ledger: StateLedger) throws {
        try ledger.record(states)
        if let run { try ledger.recordSeenAgain(seenAgain, runId: run.id, at: run.time) }
        states = []
        seenAgain = []
        run = nil
    }
}

/// A cached partition whose menus name foods other partitions read when it was parsed: what
/// reading it again for them needs, without its values (those went to the snapshot).
private struct Borrower {
    var work: PartitionWork
    var foods: Set<FoodID>
    var documents: [SourceDocument]
    var summary: PartitionSummary?
}

/// Every document of the run's partitions' last good versions, by source and URL: a stale
/// replay reads from here the pages its day shared with others (a dish another day read first).
struct KeptDocuments: Sendable {
    private let bySource: [String: [SourceDocument]]

    init(_ work: [PartitionWork]) {
        var bySource: [String: [SourceDocument]] = [:]
        for item in work {
            bySource[item.harvester.source.name, default: []] += item.previous?.lastGood?.documents ?? []
        }
        self.bySource = bySource
    }

    func documents(of source: String) -> [SourceDocument] { bySource[source] ?? [] }
}

/// Where the service days go as partitions finish: into the staging snapshot, summed up in a
/// digest for the stages after the write. Used from the run's own task only.
final class MenuStream {
    private let staging: StagingSnapshot
    private(set) var digest = MenuDigest()
    /// Time spent writing days, which belongs to the write stage.
    private(set) var seconds = 0.0

    init(staging: StagingSnapshot) {
        self.staging = staging
    }

    /// `labelVersions`: each item's label version, in page order (`LabelVersions.record`).
    func append(_ day: ServiceDay, labelVersions: [Int?] = []) throws {
        let started = Date()
        defer { seconds += Date().timeIntervalSince(started) }
        try staging.append(day, labelVersions: labelVersions)
        digest.add(day)
    }
}
