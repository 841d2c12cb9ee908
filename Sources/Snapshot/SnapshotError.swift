import Basics
import GRDB

/// A snapshot could not be built, verified, published or read; one line naming the file.
public struct SnapshotError: CommissaryFailure, Hashable, Sendable {
    public var path: String
    public var message: String

    /// `.environment` where the machine is at fault (a full disk, a folder that cannot be
    /// written); a snapshot that cannot be found or read is a bad input.
    public var code: FailureCode

    public init(_ message: String, path: String, code: FailureCode = .badInput) {
        self.message = message
        self.path = path
        self.code = code
    }

    public var place: String? { path }

}

/// SQLite's own words for what failed ("database or disk is full"), without GRDB's wrapping
/// (the statement, the Swift type); anything else in the operating system's words.
public func plainMessage(_ error: any Error) -> String {
    if let error = error as? DatabaseError { return error.message ?? "SQLite error \(error.resultCode.rawValue)" }
    return SystemMessage.describe(error)
}
