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
    var partitions: [RunManifest.Partition] = []
    /// What the partitions read, hashed in partition order as they come.
    var fingerprint: InputFingerprint
    /// Restaurant names the places file does not list, to be reported once per run.
    var unknownRestaurants: Set<String> = []
    /// Time the partitions spent waiting for documents and parsing them, summed over partitions:
    /// with partitions running side by side these add up to more than the wall time.
    var fetchSeconds = 0.0
    var parseSeconds = 0.0
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
}

/// One partition's outcome, handed back to the run's own task, which alone writes the ledger.
private struct PartitionOutcome: Sendable {
    var work: PartitionWork
    var result: Result<PartitionResult, any Error>
    var documents: [SourceDocument]
    var revalidate: [String]
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
                kept = Set(try ledger.doneKeys(source: harvester.source.name).filter { key in
                    guard let date = ServiceDate(key), !own.contains(key) else { return false }
                    return history.keeps(date, today: options.today)
                })
            }
            // Days in date order, kept ones among them; other partitions (`hours`) after, as listed.
            let days = (own.filter { ServiceDate($0) != nil } + kept).sorted()
            for key in days + own.filter({ ServiceDate($0) == nil }) {
                let previous = try ledger?.state(source: harvester.source.name, key: key)
                let isHistory = kept.contains(key)
                var item = PartitionWork(index: work.count, harvester: harvester, live: live, key: key,
                                         previous: previous,
                                         reused: isHistory || reuses(previous, interrupted: interrupted))
                item.history = isHistory
                work.append(item)
            }
        }
        return work
    }

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
        if !dataset.recipes.isEmpty { counts["recipes"] = dataset.recipes.count }
        return counts
    }
}

/// The fetch and parse stages, run together: every partition of every source, several at a
/// time, each committed to the ledger as soon as it finishes, so a killed run loses only those
/// in flight.
struct HarvestStage {
    let runner: PipelineRunner

    /// The fetch and parse stages: every partition of every source, several at a time. Each is
    /// committed to the ledger as soon as it finishes, so a killed run loses only those in flight.
    /// Finished partitions are taken in partition order (a few wait for an earlier one still
    /// running, never more than `partitionLookahead`), their days handed to `menus` and the rest
    /// merged, so the result does not depend on which finished first and no more than a few days
    /// are in memory at once.
    func run(_ work: [PartitionWork], ledger: StateLedger, menus: MenuStream) async throws -> HarvestOutcome {
        let context = RunContext()
        let known = runner.options.force ? nil : RawStore(root: runner.options.workspace.raw)
        // Finished partitions waiting for an earlier one, by index: never more than the lookahead.
        var finished: [Int: PartitionOutcome] = [:]
        var harvest = HarvestOutcome(fingerprint: InputFingerprint(spec: runner.spec))
        var nextInOrder = 0
        try await withThrowingTaskGroup(of: PartitionOutcome.self) { group in
            var queue = work.makeIterator()
            var waiting = queue.next()
            var running = 0
            while true {
                while !Task.isCancelled, running < runner.partitionConcurrency, let item = waiting,
                      item.index < nextInOrder + runner.partitionLookahead {
                    group.addTask { try await self.harvest(item, context: context, known: known) }
                    running += 1
                    waiting = queue.next()
                }
                guard let outcome = try await group.next() else { break }
                running -= 1
                // A partition cut short by a stop is neither done nor failed: the next run does it.
                if Task.isCancelled, case .failure = outcome.result { continue }
                try record(outcome, in: ledger)
                finished[outcome.work.index] = outcome
                while let ready = finished.removeValue(forKey: nextInOrder) {
                    try absorb(ready, into: &harvest, menus: menus)
                    nextInOrder += 1
                }
            }
        }
        if let places = runner.spec.places, !harvest.unknownRestaurants.isEmpty {
            harvest.warnings.append("restaurant name(s) not in \(places.file.lastPathComponent), kept as printed: "
                                    + harvest.unknownRestaurants.sorted().joined(separator: ", "))
        }
        return harvest
    }

    /// One finished partition, in its turn: its days to the snapshot, the rest to the dataset.
    private func absorb(_ outcome: PartitionOutcome, into harvest: inout HarvestOutcome, menus: MenuStream) throws {
        let source = outcome.work.harvester.source.name
        let key = outcome.work.key
        harvest.fetchSeconds += outcome.fetchSeconds
        harvest.parseSeconds += max(0, outcome.seconds - outcome.fetchSeconds)
        switch outcome.result {
        case .success(var result):
            harvest.fingerprint.add(.init(source: source, key: key, documents: outcome.documents, failed: false))
            // Normalizing: one name per restaurant, as the pipeline's places file says.
            if let places = runner.spec.places {
                result.dataset.serviceDays = result.dataset.serviceDays.map {
                    places.normalize($0, unknown: &harvest.unknownRestaurants)
                }
                result.dataset.hours = places.normalize(result.dataset.hours, unknown: &harvest.unknownRestaurants)
            }
            for day in result.dataset.serviceDays { try menus.append(day) }
            result.dataset.serviceDays = []
            harvest.dataset.merge(result.dataset)
            harvest.dataset.documents.append(contentsOf: outcome.documents)
            harvest.warnings.append(contentsOf: result.warnings)
            harvest.partitions.append(.init(
                source: source, key: key, status: outcome.work.reused ? .reused : .fetched,
                documents: outcome.documents.count, documentsReused: outcome.reusedCount,
                notModified: outcome.notModifiedCount, message: nil,
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

    /// Fetches and parses one partition; a failure is a value, so one bad day never stops the
    /// others.
    private func harvest(_ work: PartitionWork, context: RunContext, known: RawStore?) async throws
        -> PartitionOutcome {
        let upstream = work.reused || work.confirmed ? try runner.replay(work.previous, fallback: work.live) : work.live
        let log = DocumentLog(upstream: upstream, known: known, prefetched: work.prefetched)
        // The log has the prefetched bodies now; the outcome need not carry them until its turn.
        var work = work
        work.prefetched = [:]
        let started = Date()
        let result: Result<PartitionResult, any Error>
        do {
            result = .success(try await work.harvester.harvest(partition: work.key, from: log, run: context))
        } catch {
            result = .failure(error)
        }
        return PartitionOutcome(
            work: work, result: result, documents: await log.documents, revalidate: await log.revalidate,
            reusedCount: await log.reusedCount,
            notModifiedCount: await log.notModifiedCount, fetchSeconds: await log.fetchSeconds,
            seconds: Date().timeIntervalSince(started))
    }

    /// Commits a finished partition to the ledger and reports it.
    private func record(_ outcome: PartitionOutcome, in ledger: StateLedger) throws {
        let source = outcome.work.harvester.source.name
        let key = outcome.work.key
        switch outcome.result {
        case .success(let result):
            try ledger.record(PartitionState(source: source, key: key, status: .done, documents: outcome.documents,
                                             runId: runner.runId, updatedAt: isoTimestamp(Date()),
                                             revalidate: outcome.revalidate))
            var counts = runner.partitionCounts(of: result.dataset, documents: outcome.documents.count)
            counts["documents_reused"] = outcome.reusedCount
            counts["not_modified"] = outcome.notModifiedCount
            counts.merge(result.counts) { _, adapter in adapter }
            runner.emit(.partitionFinished, stage: .fetch, source: source, partition: key,
                        status: (outcome.work.reused ? PartitionStatus.reused : .fetched).rawValue,
                        seconds: outcome.seconds, counts: counts)
        case .failure(let error):
            try ledger.record(PartitionState(source: source, key: key, status: .failed, documents: outcome.documents,
                                             runId: runner.runId, updatedAt: isoTimestamp(Date()), message: "\(error)"))
            runner.emit(.partitionFinished, stage: .fetch, source: source, partition: key,
                        status: PartitionStatus.failed.rawValue, message: "\(error)")
            runner.logger.info("partition failed", metadata: [
                "stage": "\(StageName.fetch.rawValue)", "source": "\(source)", "partition": "\(key)",
                "error": "\(error)",
            ])
        }
    }
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

    func append(_ day: ServiceDay) throws {
        let started = Date()
        defer { seconds += Date().timeIntervalSince(started) }
        try staging.append(day)
        digest.add(day)
    }
}
