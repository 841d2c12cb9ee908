import Basics
import Foundation

/// A document as it arrived: the bytes and everything needed to trace a row back to them.
public struct FetchedDocument: Sendable, Hashable {
    /// The URL that was asked for.
    public var url: String
    public var status: Int
    /// Response headers with lower-cased names.
    public var headers: [String: String]
    public var body: Data {
        didSet { digestOrigin = DigestOrigin(computedFromBody: false) }
    }
    /// The charset the transport declared (`Content-Type: ...; charset=`), if any.
    public var charset: String?
    /// Lower-case hex SHA-256 of `body`: the key in the raw store.
    public var sha256: String {
        didSet { digestOrigin = DigestOrigin(computedFromBody: false) }
    }
    public var fetchedAt: Date
    /// True when the server answered 304 to a conditional GET: `body` is the stored copy it
    /// confirmed, so the pipeline can tell "nothing new" from a fresh download.
    public var notModified: Bool
    /// Whether this module computed `sha256` from `body` itself, so the raw store need not hash
    /// the same bytes a second time. Any change to either resets it.
    var digestOrigin = DigestOrigin(computedFromBody: false)

    public init(url: String, status: Int, headers: [String: String], body: Data, charset: String?,
                sha256: String, fetchedAt: Date, notModified: Bool = false) {
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.charset = charset
        self.sha256 = sha256
        self.fetchedAt = fetchedAt
        self.notModified = notModified
    }

    /// A document whose digest is computed here, from the bytes it holds.
    init(url: String, status: Int, headers: [String: String], body: Data, charset: String?, fetchedAt: Date) {
        self.init(url: url, status: status, headers: headers, body: body, charset: charset,
                  sha256: sha256Hex(body), fetchedAt: fetchedAt)
        digestOrigin = DigestOrigin(computedFromBody: true)
    }
}

/// Where a document's digest came from. Equal whatever its value, so that two documents with
/// the same fields compare and hash equal however they were made.
struct DigestOrigin: Hashable, Sendable {
    var computedFromBody: Bool

    static func == (_: DigestOrigin, _: DigestOrigin) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

/// Anything that turns a URL into a document: the web through libcurl, or a folder on disk.
///
/// Pipelines depend on this protocol only, so the bundled SampleData, an offline replay and
/// the live site run through the same stages.
public protocol DocumentSource: Sendable {
    func fetch(_ url: String) async throws -> FetchedDocument
    /// The document at `url` handed to `consume` in pieces, in order, for documents too large
    /// to hold at once (a dump of a million recipes); the record returned describes all of it
    /// (sha256, size) without its bytes. Throws if `consume` does.
    func stream(_ url: String, into consume: (Data) throws -> Void) async throws -> FetchRecord
    /// The sha256 of the bytes this source answers `url` with when it answers a fixed version
    /// of it (a replay of a partition's stored copies), whatever the site holds now; nil when
    /// it asks the site. What partitions share of one address is kept apart by it.
    func pinnedVersion(of url: String) -> String?
}

extension DocumentSource {
    public func pinnedVersion(of url: String) -> String? { nil }

    /// A source that can only fetch whole documents: fetched, then handed over in pieces.
    public func stream(_ url: String, into consume: (Data) throws -> Void) async throws -> FetchRecord {
        let document = try await fetch(url)
        try handOver(document.body, to: consume)
        return FetchRecord(document)
    }
}

/// A source that can revalidate a copy it was handed (conditional GET), so that a store in front
/// of it can supply the validators without the source keeping any memory of its own.
public protocol RevalidatingSource: DocumentSource {
    /// Fetches `url`, sending `previous`'s ETag / Last-Modified if it has them; a 304 returns
    /// `previous`'s body with `notModified` set.
    func fetch(_ url: String, revalidating previous: FetchedDocument?) async throws -> FetchedDocument
}
