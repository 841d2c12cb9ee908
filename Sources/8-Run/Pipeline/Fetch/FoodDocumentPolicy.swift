import Basics
import Fetching
import Foundation

/// What a partition's log decides before it asks for a document that is its food's (a recipe,
/// ingredient or label page, read with `DocumentLog.fetchUnlessKnown`): whether the stored copy
/// is still fresh, and whether a document the server did not have may be asked again yet.
public struct FoodDocumentPolicy: Sendable {
    public var freshness: Freshness
    public var backOff: MissingBackOff
    /// Documents the server answered 404 or 410 for, by URL.
    public var missing: [String: MissingDocument]
    /// Ask every missing document whatever its back-off (`--force`, `run --date`: a run asked
    /// for by hand asks for everything it covers); what they answer is still recorded.
    public var asksEveryMissing: Bool
    /// Whether misses are remembered at all: a folder is no server to spare, and a file put there
    /// is read the next run.
    public var remembersMissing: Bool
    /// The run's time, which freshness and the back-off are counted against.
    public var now: Date
    /// The partition asking, recorded with what it finds missing.
    public var partition: String
    /// Where a stale or due document is asked: the live source behind the raw store, never a
    /// replay of the partition's last version.
    public var live: any DocumentSource

    public init(freshness: Freshness, backOff: MissingBackOff, missing: [String: MissingDocument],
                asksEveryMissing: Bool, remembersMissing: Bool, now: Date, partition: String,
                live: any DocumentSource) {
        self.remembersMissing = remembersMissing
        self.freshness = freshness
        self.backOff = backOff
        self.missing = missing
        self.asksEveryMissing = asksEveryMissing
        self.now = now
        self.partition = partition
        self.live = live
    }

    /// The record of `url` when it is missing and its back-off is not over: it is not asked.
    func leftAlone(_ url: String) -> MissingDocument? {
        guard !asksEveryMissing, let document = missing[url], !backOff.isDue(document, now: now) else { return nil }
        return document
    }

    /// The failure of a document that is not asked for, its back-off not over.
    func knownMissing(_ document: MissingDocument) -> Failure {
        Failure(.notFound, "known missing (HTTP \(document.status) \(document.times) time(s) in a row, last asked "
                + "\(ISOTimestamp.string(from: document.lastAsked).prefix(10))): not asked again before "
                + "\(ISOTimestamp.string(from: backOff.nextAsk(document)).prefix(10))", at: document.url, status: document.status)
    }

    /// What the ledger will remember of `url`, missing again (or for the first time) now.
    func missingAgain(_ url: String, status: Int) -> MissingDocument {
        let previous = missing[url]
        return MissingDocument(url: url, partition: partition, status: status, times: (previous?.times ?? 0) + 1,
                               firstMissing: previous?.firstMissing ?? now, lastAsked: now)
    }
}

/// How a partition's documents were had, for the summary and the manifest.
public struct DocumentCounts: Sendable, Hashable {
    /// Stored copies used without a request, still fresh.
    public var fresh = 0
    /// Conditional requests answered 304.
    public var revalidated = 0
    /// Requests answered with a body (200).
    public var refetched = 0
    /// Documents known missing whose back-off is not over: not asked.
    public var knownMissing = 0
    /// Documents the server answered 404 or 410 for tonight.
    public var missing = 0

    public init() {}

    public static func + (lhs: DocumentCounts, rhs: DocumentCounts) -> DocumentCounts {
        var sum = lhs
        sum.fresh += rhs.fresh
        sum.revalidated += rhs.revalidated
        sum.refetched += rhs.refetched
        sum.knownMissing += rhs.knownMissing
        sum.missing += rhs.missing
        return sum
    }

    /// The manifest's keys (the fetch stage's counts).
    public var asCounts: [String: Int] {
        ["documents_fresh": fresh, "documents_revalidated": revalidated, "documents_refetched": refetched,
         "documents_known_missing": knownMissing, "documents_missing": missing]
    }
}
