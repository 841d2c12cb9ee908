import Foundation
import GRDB

/// The stable key of each table of a snapshot: the columns that name a row from one snapshot to
/// the next, which is what a change set (docs/changes.md) matches rows by. A table's primary
/// key where it has one; otherwise the whole row (a table of facts with no name of their own,
/// such as `food_flag`), matched as a multiset.
///
/// Tables come parents first (a table after every table its foreign keys point at), the order a
/// change set's inserts are applied in. Search indexes and their shadow tables are left out:
/// they are derived from `food` and `recipe`, and a client rebuilds them.
public struct TableKey: Hashable, Sendable {
    public var table: String
    /// Empty when the whole row is the key.
    public var columns: [String]

    public init(table: String, columns: [String]) {
        self.table = table
        self.columns = columns
    }
}

enum TableKeys {
    /// Writes the snapshot's keys into `_table_keys`, replacing what was there.
    static func record(_ db: Database) throws {
        let keys = try derive(db, schema: "main")
        try db.execute(sql: "DELETE FROM _table_keys")
        let insert = try db.makeStatement(sql: "INSERT INTO _table_keys (table_name, key_columns, position) VALUES (?, ?, ?)")
        for (position, key) in keys.enumerated() {
            let columns = String(decoding: try JSONEncoder().encode(key.columns), as: UTF8.self)
            try insert.execute(arguments: [key.table, columns, position + 1])
        }
    }

    /// The keys a snapshot records, or, for a snapshot from before they were recorded (schema
    /// 12 and older), the same keys derived from its schema.
    static func read(_ db: Database, schema: String) throws -> [TableKey] {
        let recorded = try Bool.fetchOne(db, sql: """
            SELECT count(*) > 0 FROM "\(schema)".sqlite_master WHERE type = 'table' AND name = '_table_keys'
            """) ?? false
        guard recorded else { return try derive(db, schema: schema) }
        return try Row.fetchAll(db, sql: "SELECT table_name, key_columns FROM \"\(schema)\"._table_keys ORDER BY position")
            .map { row in
                let text: String = try row.decode(atIndex: 1)
                return try TableKey(table: row.decode(atIndex: 0),
                                    columns: JSONDecoder().decode([String].self, from: Data(text.utf8)))
            }
    }

    /// Keys from the schema itself, parents first.
    static func derive(_ db: Database, schema: String) throws -> [TableKey] {
        let tables = try String.fetchAll(db, sql: """
            SELECT name FROM pragma_table_list WHERE schema = ? AND type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY name
            """, arguments: [schema])
        var keys: [String: [String]] = [:]
        var parents: [String: Set<String>] = [:]
        for table in tables {
            keys[table] = try String.fetchAll(db, sql: """
                SELECT name FROM pragma_table_info(?, ?) WHERE pk > 0 ORDER BY pk
                """, arguments: [table, schema])
            parents[table] = Set(try String.fetchAll(db, sql: "SELECT \"table\" FROM pragma_foreign_key_list(?, ?)",
                                                     arguments: [table, schema]))
                .intersection(tables).subtracting([table])
        }
        // Data tables in the order they are written, then housekeeping, then the rest by name;
        // a table waits for its parents.
        let preferred = SnapshotSchema.dataTables + SnapshotSchema.housekeepingTables
        let rank = { (table: String) in preferred.firstIndex(of: table) ?? preferred.count }
        var pending = tables.sorted { (rank($0), $0) < (rank($1), $1) }
        var ordered: [String] = []
        while !pending.isEmpty {
            let placed = Set(ordered)
            let next = pending.firstIndex { parents[$0, default: []].isSubset(of: placed) } ?? 0
            ordered.append(pending.remove(at: next))
        }
        return ordered.map { TableKey(table: $0, columns: keys[$0] ?? []) }
    }
}

extension SnapshotReader {
    /// The stable key of each table of the open snapshot, parents first (`TableKeys`).
    public static func tableKeys(_ db: Database) throws -> [TableKey] {
        try TableKeys.read(db, schema: "main")
    }
}
