import Foundation
import GRDB

/// Every row inserted, updated or deleted between two snapshots, table by table, matched by each
/// table's stable key (`TableKeys`): what an offline client applies to its copy of the old
/// snapshot to hold exactly the new one (the format and how to apply it: docs/changes.md).
///
/// Computed in SQL with the old snapshot attached, so neither is read into memory whole.
public struct ChangeSet: Sendable {
    public struct Side: Sendable, Hashable {
        public var snapshot: String
        public var schemaVersion: Int
        public var builtAt: String?
    }

    public struct Update: Sendable, Hashable {
        /// The row's key values, in the order of its table's key.
        public var key: [SQLValue]
        /// Only the columns whose value changed, with their new values.
        public var changed: [Change]
    }

    public struct Change: Sendable, Hashable {
        public var column: String
        public var value: SQLValue
    }

    /// What changed in one table.
    public struct Table: Sendable, Hashable {
        public var name: String
        /// The stable key; empty when the whole row is the key.
        public var key: [String]
        /// The new snapshot's columns, the order of every inserted row.
        public var columns: [String]
        /// The table is new, or its columns differ: drop it and create it with `create`; every
        /// row is in `inserted`.
        public var replaced: Bool
        /// The table is gone from the new snapshot.
        public var dropped: Bool
        public var create: String?
        public var inserted: [[SQLValue]]
        public var updated: [Update]
        /// The deleted rows' keys (the whole row where the key is the whole row, once per copy).
        public var deleted: [[SQLValue]]

        public var isEmpty: Bool { !replaced && !dropped && inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
    }

    /// A view, index or trigger that is new or different in the new snapshot (`sql` its
    /// definition there) or gone from it (`sql` nil).
    public struct SchemaObject: Sendable, Hashable {
        public var type: String
        public var name: String
        public var sql: String?
    }

    public var old: Side
    public var new: Side
    /// Tables with changes, parents first (the order inserts are applied in).
    public var tables: [Table]
    public var schemaObjects: [SchemaObject]
    /// Why no rows are given: the changes were more than a change file holds (`between`'s
    /// `rowLimit`), and a client downloads the new snapshot whole. nil for a change set.
    public var resync: String?

    public var isEmpty: Bool { tables.isEmpty && schemaObjects.isEmpty && resync == nil }

    /// `unchanged`: the days whose menu rows `newURL` kept from `oldURL` as they were (the
    /// write stage knows them), whose rows are then not compared; ignored when it names
    /// another snapshot than `oldURL`. `rowLimit`: past that many rows (inserted, updated or
    /// deleted, in every table together) the comparison stops and the set is a resync mark,
    /// so memory stays bounded whatever the two snapshots hold.
    public static func between(_ oldURL: URL, _ newURL: URL, unchanged: UnchangedDays? = nil, rowLimit: Int? = nil) throws
        -> ChangeSet {
        try SnapshotReader.read(newURL, attaching: oldURL) { db in
            let old = try side(oldURL, schema: "prev", db)
            let new = try side(newURL, schema: "main", db)
            let budget = RowBudget(limit: rowLimit)
            do {
                let (tables, objects) = try compare(db, unchanged: unchanged, oldName: oldURL.lastPathComponent, budget)
                return ChangeSet(old: old, new: new, tables: tables, schemaObjects: objects)
            } catch is RowBudget.Exceeded {
                return ChangeSet(old: old, new: new, tables: [], schemaObjects: [],
                                 resync: "more than \(rowLimit ?? 0) rows changed, more than a change file holds")
            }
        }
    }

    /// Every table's changes and the schema objects', rows counted against `budget`.
    private static func compare(_ db: Database, unchanged: UnchangedDays?, oldName: String, _ budget: RowBudget) throws
        -> (tables: [Table], objects: [SchemaObject]) {
        let newKeys = try TableKeys.read(db, schema: "main")
        let oldKeys = try TableKeys.read(db, schema: "prev")
        let changedDays = try unchanged.flatMap { unchanged in
            unchanged.snapshot == oldName ? try unchanged.changedDays(db) : nil
        }
        let oldTables = Set(oldKeys.map(\.table))
        let newShapes = try shapes(of: newKeys.map(\.table), schema: "main", db)
        let oldShapes = try shapes(of: oldKeys.map(\.table), schema: "prev", db)
        let pairs = newKeys.map { key in
            (key: key, old: oldTables.contains(key.table) ? oldShapes[key.table] : nil, new: newShapes[key.table] ?? TableShape())
        }
        let holdingRows = try tablesHoldingRows(pairs.filter { $0.old?.columns == $0.new.columns }.map(\.key.table), db)
        let keptTables = unchanged.map { $0.snapshot == oldName ? $0.tables : [] } ?? []
        var tables: [Table] = []
        for (key, old, new) in pairs {
            // A table empty on both sides, its columns the same, holds no change; nor does one
            // the new snapshot kept from the old one row for row.
            if old?.columns == new.columns, !holdingRows.contains(key.table) || keptTables.contains(key.table) { continue }
            let table = try changes(in: key, shapes: (old, new), scope: RowScope(key, changedDays: changedDays, budget: budget), db)
            if !table.isEmpty { tables.append(table) }
        }
        let kept = Set(newKeys.map(\.table))
        for gone in oldKeys.reversed() where !kept.contains(gone.table) {
            tables.append(Table(name: gone.table, key: gone.columns, columns: [], replaced: false, dropped: true,
                                create: nil, inserted: [], updated: [], deleted: []))
        }
        return (tables, try schemaObjects(db, replacedTables: Set(tables.filter(\.replaced).map(\.name))))
    }

    private static func side(_ url: URL, schema: String, _ db: Database) throws -> Side {
        let version = try Int.fetchOne(db, sql: "PRAGMA \"\(schema)\".user_version") ?? 0
        let builtAt = try String.fetchOne(db, sql: "SELECT value FROM \"\(schema)\"._meta WHERE key = 'built_at'")
        return Side(snapshot: url.lastPathComponent, schemaVersion: version, builtAt: builtAt)
    }

    /// Views, indexes and triggers whose definition is new, changed or gone, and the indexes
    /// and triggers of every replaced table however they are defined: a client that drops the
    /// table drops them with it, and creates them again only if the set names them. SQLite's
    /// own indexes (of keys and unique columns) come with their tables.
    private static func schemaObjects(_ db: Database, replacedTables: Set<String>) throws -> [SchemaObject] {
        func definitions(_ schema: String) throws -> [String: (type: String, table: String, sql: String)] {
            var found: [String: (type: String, table: String, sql: String)] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT type, name, tbl_name, sql FROM "\(schema)".sqlite_master
                WHERE type IN ('view', 'index', 'trigger') AND sql IS NOT NULL
                """) {
                found[row[1]] = (row[0], row[2], row[3])
            }
            return found
        }
        let before = try definitions("prev")
        let after = try definitions("main")
        var objects: [SchemaObject] = []
        for name in Set(before.keys).union(after.keys).sorted() {
            let old = before[name]
            let new = after[name]
            let droppedWithItsTable = new.map { $0.type != "view" && replacedTables.contains($0.table) } ?? false
            guard old?.sql != new?.sql || droppedWithItsTable else { continue }
            objects.append(SchemaObject(type: (new ?? old)?.type ?? "", name: name, sql: new?.sql))
        }
        return objects
    }

    /// The rows `sql` selects, each counted against `budget` as it is read.
    static func rows(_ sql: String, _ db: Database, _ budget: RowBudget) throws -> [[SQLValue]] {
        let statement = try db.makeStatement(sql: sql)
        let count = statement.columnCount
        var rows: [[SQLValue]] = []
        let cursor = try Row.fetchCursor(statement)
        while let row = try cursor.next() {
            try budget.take(1)
            rows.append((0..<count).map { SQLValue(row[$0] as DatabaseValue) })
        }
        return rows
    }

    /// Rows whose last column says how many copies of the rest there are.
    static func copies(_ sql: String, _ db: Database, _ budget: RowBudget) throws -> [[SQLValue]] {
        try rows(sql, db, budget).flatMap { row -> [[SQLValue]] in
            guard case .integer(let count) = row.last, count > 0 else { return [] }
            try budget.take(Int(count) - 1)
            return Array(repeating: Array(row.dropLast()), count: Int(count))
        }
    }

    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
