import Basics
import Fetching
import FoodModel
import Foundation
import Snapshot
import SourceAdapters

/// One partition's outcome, handed back to the run's own task, which alone writes the ledger.
struct PartitionOutcome: Sendable {
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
    /// The code of the failure that the last good version replaces, for a stale partition
    /// (`Failure.Code.name`).
    var staleBecause: String?
    var revalidate: [String]
    /// Taken from the parse cache instead of being parsed.
    var fromCache = false
    /// The parse cache's key of the entry it was taken from.
    var cacheKey: String?
    /// Foods on a cached partition's menus that another partition read when it was parsed: if
    /// no partition claims them in this run, the partition is read again for them. A list, in
    /// the days' order (a food on two of its days twice): it is read only when some food of the
    /// run is unclaimed, and a set of each cached partition's foods cost more than its parse
    /// cache entry's checks.
    var borrowed: [FoodID] = []
    var reusedCount: Int
    var notModifiedCount: Int
    var fetchSeconds: Double
    var seconds: Double
    /// How its documents were had (fresh, revalidated, refetched, missing), for the run's counts.
    var documentCounts = DocumentCounts()
    /// What it found missing, or found again, for the ledger.
    var missingChanges = MissingChanges()
    /// Food documents it parsed, and those whose parse of the same bytes an earlier run kept.
    var foodDocumentsParsed = 0
    var foodDocumentsFromCache = 0
    /// Its days made ready on its own task (`PreparedDays`), once it produced something.
    var prepared: PreparedDays?

    /// The figures the partition is judged by: those the parse cache kept with it, else counted
    /// on what it produced, before its days are prepared (which takes them from the result).
    var judgedSummary: PartitionSummary? {
        if let summary { return summary }
        guard case .success(let result) = result, prepared == nil else { return nil }
        return PartitionSummary(result)
    }

    /// A day published without some parts (`PartitionState.publishedInPart`) that a replay of
    /// it read whole: the parts it lacked answered again. Not one from the parse cache, which
    /// does not keep the parts a result lacks: its entry is an earlier replay of the day as
    /// published, since one that read it whole would have recorded it so.
    var completesDayPublishedInPart: Bool {
        guard work.previous?.publishedInPart == true, !fromCache, case .success(let result) = result else { return false }
        return result.incomplete.isEmpty
    }

    /// Documents served without a request: every one of a partition replayed from the raw
    /// store, else those the raw store already held.
    var documentsReused: Int { work.reused ? documents.count : reusedCount }
}

/// Finished partitions taken in partition order: one that finishes before an earlier one waits
/// for it (never more than the lookahead), so what a run publishes does not depend on which
/// finished first.
struct PartitionOrder {
    private var waiting: [Int: PartitionOutcome] = [:]
    /// The index of the partition to be taken next.
    private(set) var next = 0

    /// Adds a finished partition; those now next in order, in order.
    mutating func add(_ outcome: PartitionOutcome) -> [PartitionOutcome] {
        waiting[outcome.work.index] = outcome
        var ready: [PartitionOutcome] = []
        while let outcome = waiting.removeValue(forKey: next) {
            ready.append(outcome)
            next += 1
        }
        return ready
    }
}
