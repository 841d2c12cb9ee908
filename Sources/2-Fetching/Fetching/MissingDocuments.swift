import Basics
import Foundation

/// A document the server said it does not have (404 or 410), as the ledger remembers it.
public struct MissingDocument: Hashable, Sendable {
    public var url: String
    /// The partition that last asked for it, which reads it again when it comes due.
    public var partition: String
    public var status: Int
    /// How many times in a row it was asked and missing.
    public var times: Int
    public var firstMissing: Date
    public var lastAsked: Date

    public init(url: String, partition: String, status: Int, times: Int, firstMissing: Date, lastAsked: Date) {
        self.url = url
        self.partition = partition
        self.status = status
        self.times = times
        self.firstMissing = firstMissing
        self.lastAsked = lastAsked
    }
}

/// `fetch.missing_documents`: how long a missing document is left alone before it is asked
/// again. After its n-th miss in a row it waits 2^n × `retryAfter` (two days after the first with
/// the default of one), spread by its address over up to three times that and never more than
/// `max`: a night's hundreds of misses come back over several nights, not all on one.
public struct MissingBackOff: Hashable, Sendable {
    public var retryAfterDays: Int
    public var maxDays: Int

    public init(retryAfterDays: Int = 1, maxDays: Int = 14) {
        self.retryAfterDays = retryAfterDays
        self.maxDays = maxDays
    }

    /// Days `document` waits after it was last asked.
    public func wait(for document: MissingDocument) -> Int {
        let doubling = min(max(document.times, 1), 20)
        let base = min(maxDays, retryAfterDays << doubling)
        // The digest of the address's path picks a place in [base, 3 × base): the same every run,
        // and on any host that mirrors the feed.
        let spread = Double(UInt32(sha256Hex(Data(Self.path(of: document.url).utf8)).prefix(8), radix: 16) ?? 0)
            / Double(UInt32.max)
        return min(maxDays, base + Int(spread * Double(2 * base)))
    }

    /// `/recipes/1.json` of `https://host:port/recipes/1.json`; the whole text when it has no host.
    static func path(of url: String) -> Substring {
        guard let scheme = url.range(of: "://") else { return url[...] }
        let rest = url[scheme.upperBound...]
        return rest.firstIndex(of: "/").map { rest[$0...] } ?? ""
    }

    /// The first day (its start, UTC) `document` may be asked again.
    public func nextAsk(_ document: MissingDocument) -> Date {
        UTCDay.adding(wait(for: document), to: document.lastAsked)
    }

    /// True when `document` may be asked at `now`: its wait is over, or the clock went back
    /// past its last ask (a wait counted from a time to come would never end).
    public func isDue(_ document: MissingDocument, now: Date) -> Bool {
        let days = UTCDay.between(document.lastAsked, and: now)
        return days < 0 || days >= wait(for: document)
    }
}
