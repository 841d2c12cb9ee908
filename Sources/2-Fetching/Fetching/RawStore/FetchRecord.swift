import Basics
import Foundation

/// One fetch as the raw store remembers it: everything about the response except its bytes,
/// which the raw store keeps by their sha256.
public struct FetchRecord: Codable, Sendable, Hashable {
    public var url: String
    public var status: Int
    public var headers: [String: String]
    public var charset: String?
    public var sha256: String
    public var size: Int
    public var fetchedAt: Date
    public var notModified: Bool

    public init(_ document: FetchedDocument) {
        url = document.url
        status = document.status
        headers = document.headers.filter { Self.keptHeaders.contains($0.key.lowercased()) }
        charset = document.charset
        sha256 = document.sha256
        size = document.body.count
        fetchedAt = document.fetchedAt
        notModified = document.notModified
    }

    /// A document read in pieces (`DocumentSource.stream`), described without its bytes.
    public init(url: String, status: Int, headers: [String: String], charset: String?, sha256: String, size: Int,
                fetchedAt: Date, notModified: Bool = false) {
        self.url = url
        self.status = status
        self.headers = headers.filter { Self.keptHeaders.contains($0.key.lowercased()) }
        self.charset = charset
        self.sha256 = sha256
        self.size = size
        self.fetchedAt = fetchedAt
        self.notModified = notModified
    }

    /// The response headers a record keeps: the validators of a conditional GET, what says how
    /// to read the body, and when it was served. Anything else (`Set-Cookie`, tokens, API keys a
    /// server echoes) is never written to disk.
    static let keptHeaders: Set<String> = [
        "etag", "last-modified", "content-type", "content-encoding", "content-language", "content-length",
        "date", "expires", "cache-control", "age",
    ]

    /// Records are JSON lines: sorted keys for stable diffs, ISO 8601 dates with milliseconds so
    /// that two fetches in the same second still order. One decoder reads every record: its
    /// options never change after this, and each call decodes with its own state.

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ISOTimestamp.date(fromMillisecondString: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 timestamp: \(text)")
            }
            return date
        }
        return decoder
    }()

    /// The record's JSON line, written directly: `JSONEncoder` with a date strategy cost more
    /// than the rest of storing a document together. The line is the one `JSONEncoder` writes
    /// with sorted keys and unescaped slashes (`FetchRecordLineTests` compares them), and the
    /// decoder reads it back.
    static func line(of record: FetchRecord) -> String {
        var line = JSONLine()
        line.member("charset", record.charset.map(jsonStringLiteral))
        line.member("fetchedAt", jsonStringLiteral(ISOTimestamp.millisecondString(from: record.fetchedAt)))
        var headers = JSONLine()
        for (name, value) in record.headers.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            headers.member(name, jsonStringLiteral(value))
        }
        line.member("headers", headers.object)
        line.member("notModified", record.notModified ? "true" : "false")
        line.member("sha256", jsonStringLiteral(record.sha256))
        line.member("size", String(record.size))
        line.member("status", String(record.status))
        line.member("url", jsonStringLiteral(record.url))
        return line.object
    }

    static func decode(_ line: Data) throws -> FetchRecord {
        try decoder.decode(FetchRecord.self, from: line)
    }
}
