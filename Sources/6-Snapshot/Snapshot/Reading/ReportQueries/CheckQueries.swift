import GRDB

/// One check the run that built the snapshot recorded, as written: the severity is text, since
/// anyone may have written the file, and the message is nil where the check left none.
public struct RecordedCheck: Hashable, Sendable {
    public var name: String
    public var severity: String
    public var passed: Bool
    public var message: String?
}

extension ReportQueries {
    /// The checks' outcomes without their messages (all the headline counts), in no particular
    /// order; nil for a snapshot that records no checks.
    public func checkOutcomes() throws -> [RecordedCheck]? {
        guard try db.tableExists("_checks") else { return nil }
        return try Row.fetchAll(db, sql: "SELECT name, severity, passed FROM _checks").map {
            try RecordedCheck(name: $0.decode(forColumn: "name"), severity: $0.decode(forColumn: "severity"),
                              passed: $0.decode(forColumn: "passed"))
        }
    }

    /// The checks with their messages, in the order the run recorded them; nil for a snapshot
    /// that records no checks.
    public func recordedChecks() throws -> [RecordedCheck]? {
        guard try db.tableExists("_checks") else { return nil }
        return try Row.fetchAll(db, sql: "SELECT name, severity, passed, message FROM _checks ORDER BY rowid").map {
            try RecordedCheck(name: $0.decode(forColumn: "name"), severity: $0.decode(forColumn: "severity"),
                              passed: $0.decode(forColumn: "passed"), message: $0.decode(String?.self, forColumn: "message"))
        }
    }
}
