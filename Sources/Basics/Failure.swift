/// What kind of failure stopped a command; the executable turns it into an exit status, in one
/// table (`ExitStatus` in `commissary`).
public enum FailureCode: String, Hashable, Sendable, Codable {
    /// A page, response, file, pipeline value or argument that cannot be used: fix the input.
    case badInput = "bad_input"
    /// Another run of the same pipeline holds its lock: wait for it.
    case locked
    /// A blocking check stopped the publication; the last good snapshot stays `latest`.
    case blocked
    /// The machine, not the input: a full disk, a read-only folder, a file that cannot be
    /// written or synced, a network that cannot be reached.
    case environment
    /// Stopped on request (SIGINT, SIGTERM, SIGHUP) before it finished.
    case interrupted
    /// Published, but what follows the publication (its manifest, the ledger's last word)
    /// could not be written: the snapshot is good and `latest`.
    case publishedIncompletely = "published_incompletely"
    /// Published and `latest`, but some partitions in it are their last good version because
    /// the newest fetch was refused or failed: the data is served, not fresh.
    case publishedStale = "published_stale"
}

/// The one shape of Commissary's errors (after swift-nio's `FileSystemError`): a code, a message
/// that says what went wrong and what to do, the place (file:line:col, URL, or row), and the
/// underlying cause when there is one. Its description is the one line a user reads.
public protocol CommissaryFailure: Error, CustomStringConvertible {
    var code: FailureCode { get }
    var message: String { get }
    /// Where: a file (with line and column when known), a URL, or a row.
    var place: String? { get }
    var cause: (any Error)? { get }
}

extension CommissaryFailure {
    public var cause: (any Error)? { nil }
    public var description: String { place.map { "\($0): \(message)" } ?? message }
}

/// A file or folder that could not be written, synced, renamed or linked.
public struct FileSystemFailure: CommissaryFailure, Sendable {
    public var message: String
    public var path: String
    public var code: FailureCode { .environment }
    public var place: String? { path }

    public init(_ message: String, path: String) {
        self.message = message
        self.path = path
    }
}
