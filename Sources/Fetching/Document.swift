import Foundation

/// A document as it arrived: the bytes and everything needed to trace a row back to them.
public struct FetchedDocument: Sendable, Hashable {
    /// The URL that was asked for.
    public var url: String
    public var status: Int
    /// Response headers with lower-cased names.
    public var headers: [String: String]
    public var body: Data
    /// The charset the transport declared (`Content-Type: ...; charset=`), if any.
    public var charset: String?
    /// Lower-case hex SHA-256 of `body`: the key in the raw store.
    public var sha256: String
    public var fetchedAt: Date

    public init(url: String, status: Int, headers: [String: String], body: Data, charset: String?,
                sha256: String, fetchedAt: Date) {
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.charset = charset
        self.sha256 = sha256
        self.fetchedAt = fetchedAt
    }
}

/// Anything that turns a URL into a document: the web through libcurl, or a folder on disk.
///
/// Pipelines depend on this protocol only, so the bundled SampleData, an offline replay and
/// the live site run through the same stages.
public protocol DocumentSource: Sendable {
    func fetch(_ url: String) async throws -> FetchedDocument
}
