import Basics
import GRDB

/// SQLite's own words for what failed ("database or disk is full"), without GRDB's wrapping
/// (the statement, the Swift type); anything else in the operating system's words.
public func plainMessage(_ error: any Error) -> String {
    if let error = error as? DatabaseError { return error.message ?? "SQLite error \(error.resultCode.rawValue)" }
    return SystemMessage.describe(error)
}
