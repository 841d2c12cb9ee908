import Foundation
import GRDB

/// A value as SQLite stores it, so output formats can tell NULL from "" and 1 from "1".
public enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .string(let text): self = .text(text)
        case .blob(let data): self = .blob(data)
        }
    }
}

/// The rows of a read-only query against a published snapshot.
public struct QueryResult: Hashable, Sendable {
    public var columns: [String]
    public var rows: [[SQLValue]]

    public init(columns: [String], rows: [[SQLValue]]) {
        self.columns = columns
        self.rows = rows
    }

    /// Runs `sql` on the snapshot opened read-only and immutable. Statements that would write
    /// are refused before they run, with a message saying so, rather than failing deep in SQLite.
    public static func run(_ sql: String, on url: URL) throws -> QueryResult {
        let queue = try SnapshotReader.open(url)
        do {
            return try queue.read { db in
                let statements = try db.allStatements(sql: sql)
                guard let statement = try statements.next() else {
                    throw SnapshotError("query refused: no SQL statement was given", path: url.path)
                }
                guard try statements.next() == nil else {
                    throw SnapshotError("query refused: give one statement; found more than one (separated by `;`)",
                                        path: url.path)
                }
                guard statement.isReadonly else {
                    throw SnapshotError("query refused: snapshots are read-only, and this statement writes",
                                        path: url.path)
                }
                let columns = statement.columnNames
                var rows: [[SQLValue]] = []
                let cursor = try Row.fetchCursor(statement)
                while let row = try cursor.next() {
                    rows.append((0..<columns.count).map { SQLValue(row[$0] as DatabaseValue) })
                }
                return QueryResult(columns: columns, rows: rows)
            }
        } catch let error as SnapshotError {
            throw error
        } catch let error as DatabaseError {
            throw SnapshotError("query failed: \(error.message ?? "\(error)")", path: url.path)
        }
    }
}
