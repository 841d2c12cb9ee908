import Foundation
import GRDB
import PostgresTarget
@testable import Snapshot

/// A client of PostgreSQL's change feed, as docs/postgres.md tells one to sync: everything since
/// its run in one query, then each row change applied in order to its copy of that run's snapshot.
enum PostgresFeedReplay {
    /// The query of docs/postgres.md: the client's own run first (proving it is still in the
    /// feed), then every later night with its changes in order.
    static let sinceQuery = """
        SELECT r.run_id, r.resync, c.table_name, c.operation, c.key::text, c."values"::text
        FROM dining_changes.run r
        LEFT JOIN dining_changes.change c ON c.run_number = r.number AND r.run_id <> $1
        WHERE r.number >= (SELECT number FROM dining_changes.run WHERE run_id = $1)
        ORDER BY r.number, c.position
        """

    /// Applies the changes since `runId` to `copy`; false, leaving it alone, when the feed says to
    /// download the snapshot whole (the run is no longer in the feed, or a later night is `resync`).
    static func apply(since runId: String, onto copy: URL, _ connection: PostgresConnection) throws -> Bool {
        let rows = try connection.query(sinceQuery, [runId])
        guard rows.first?[0] == runId, !rows.dropFirst().contains(where: { $0[1] == "t" }) else { return false }
        let queue = try DatabaseQueue(path: copy.path)
        try queue.inTransaction { db in
            // menu_item.served_with_id points into its own table: checked at the commit.
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            for row in rows.dropFirst() {
                guard let table = row[2], let operation = row[3], let key = row[4] else { continue }
                try apply(operation, to: table, key: try object(key), values: try row[5].map(object), db)
            }
            for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%USING fts5%'") {
                try db.execute(sql: "INSERT INTO \"\(name)\"(\"\(name)\") VALUES('rebuild')")
            }
            return .commit
        }
        return true
    }

    private static func apply(_ operation: String, to table: String, key: [(String, DatabaseValue)],
                              values: [(String, DatabaseValue)]?, _ db: Database) throws {
        let name = "\"\(table)\""
        let matches = key.map { "\"\($0.0)\" IS ?" }.joined(separator: " AND ")
        switch operation {
        case "delete":
            // One row per entry: a table whose whole row is its key may hold two alike.
            try db.execute(sql: "DELETE FROM \(name) WHERE rowid = (SELECT rowid FROM \(name) WHERE \(matches) LIMIT 1)",
                           arguments: StatementArguments(key.map(\.1)))
        case "update":
            let changed = values ?? []
            try db.execute(sql: "UPDATE \(name) SET \(changed.map { "\"\($0.0)\" = ?" }.joined(separator: ", ")) WHERE \(matches)",
                           arguments: StatementArguments(changed.map(\.1) + key.map(\.1)))
        default:
            let row = values ?? []
            try db.execute(sql: "INSERT INTO \(name) (\(row.map { "\"\($0.0)\"" }.joined(separator: ", "))) "
                           + "VALUES (\(row.map { _ in "?" }.joined(separator: ", ")))",
                           arguments: StatementArguments(row.map(\.1)))
        }
    }

    /// A JSON object of column values, SQLite's types kept: a number PostgreSQL wrote with a
    /// fraction or an exponent is a real. Read as the change files are (`JSONValue`), since
    /// Foundation's reader rounds some 17-digit reals off by one unit in the last place.
    private static func object(_ text: String) throws -> [(String, DatabaseValue)] {
        guard case .object(let members, let order) = try JSONValue.parse(Data(text.utf8), place: "a change row") else { return [] }
        return order.map { column in
            switch members[column] {
            case .integer(let number): (column, number.databaseValue)
            case .real(let number): (column, number.databaseValue)
            case .string(let text): (column, text.databaseValue)
            default: (column, .null)
            }
        }
    }
}
