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
        var tables: [Table] = []
        for key in newKeys {
            let table = try changes(in: key, oldHas: oldKeys.contains { $0.table == key.table },
                                    scope: RowScope(key, changedDays: changedDays, budget: budget), db)
            if !table.isEmpty { tables.append(table) }
        }
        let kept = Set(newKeys.map(\.table))
        for gone in oldKeys.reversed() where !kept.contains(gone.table) {
            tables.append(Table(name: gone.table, key: gone.columns, columns: [], replaced: false, dropped: true,
                                create: nil, inserted: [], updated: [], deleted: []))
        }
        return (tables, try schemaObjects(db))
    }

    private static func side(_ url: URL, schema: String, _ db: Database) throws -> Side {
        let version = try Int.fetchOne(db, sql: "PRAGMA \"\(schema)\".user_version") ?? 0
        let builtAt = try String.fetchOne(db, sql: "SELECT value FROM \"\(schema)\"._meta WHERE key = 'built_at'")
        return Side(snapshot: url.lastPathComponent, schemaVersion: version, builtAt: builtAt)
    }

    private static func columns(of table: String, schema: String, _ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?, ?) ORDER BY cid", arguments: [table, schema])
    }

    private static func changes(in key: TableKey, oldHas: Bool, scope: RowScope, _ db: Database) throws -> Table {
        let name = quoted(key.table)
        let columns = try columns(of: key.table, schema: "main", db)
        var table = Table(name: key.table, key: key.columns, columns: columns, replaced: false, dropped: false,
                          create: nil, inserted: [], updated: [], deleted: [])
        guard oldHas, try Self.columns(of: key.table, schema: "prev", db) == columns else {
            table.replaced = true
            table.create = try String.fetchOne(db, sql: "SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name = ?",
                                               arguments: [key.table])
            table.inserted = try rows("SELECT * FROM main.\(name)", db, scope.budget)
            return table
        }
        guard !key.columns.isEmpty else {
            // The whole row is the key: rows compared as a multiset, one entry per copy.
            let all = columns.map(quoted).joined(separator: ", ")
            let matched = columns.map { "o.\(quoted($0)) IS n.\(quoted($0))" }.joined(separator: " AND ")
            func surplus(_ from: String, over other: String) -> String {
                """
                WITH n AS (SELECT \(all), count(*) AS copies FROM \(from).\(name) GROUP BY \(all)),
                     o AS (SELECT \(all), count(*) AS copies FROM \(other).\(name) GROUP BY \(all))
                SELECT \(columns.map { "n.\(quoted($0))" }.joined(separator: ", ")), n.copies - coalesce(o.copies, 0)
                FROM n LEFT JOIN o ON \(matched) WHERE n.copies > coalesce(o.copies, 0)
                """
            }
            table.inserted = try copies(surplus("main", over: "prev"), db, scope.budget)
            table.deleted = try copies(surplus("prev", over: "main"), db, scope.budget)
            return table
        }
        let matched = key.columns.map { "o.\(quoted($0)) IS n.\(quoted($0))" }.joined(separator: " AND ")
        // A table keyed by its rowid lists its rows in key order, however the query planner
        // would scan it (a covering index, another order), so that the rows of a few days
        // compared range by range come in the order of the whole table compared at once.
        let order = { (alias: String) in key.columns == ["id"] ? " ORDER BY \(alias).id" : "" }
        table.inserted = try scope.rows(db) { within in """
            SELECT n.* FROM main.\(name) n WHERE \(within("n")) AND NOT EXISTS (SELECT 1 FROM prev.\(name) o WHERE \(matched))\(order("n"))
            """ }
        table.deleted = try scope.rows(db) { within in """
            SELECT \(key.columns.map { "o.\(quoted($0))" }.joined(separator: ", ")) FROM prev.\(name) o
            WHERE \(within("o")) AND NOT EXISTS (SELECT 1 FROM main.\(name) n WHERE \(matched))\(order("o"))
            """ }
        let others = columns.filter { !key.columns.contains($0) }
        if !others.isEmpty {
            let differs = others.map { "o.\(quoted($0)) IS NOT n.\(quoted($0))" }
            let found = try scope.rows(db) { within in """
                SELECT \(key.columns.map { "n.\(quoted($0))" }.joined(separator: ", ")),
                       \(others.map { "n.\(quoted($0))" }.joined(separator: ", ")), \(differs.joined(separator: ", "))
                FROM main.\(name) n JOIN prev.\(name) o ON \(matched)
                WHERE \(within("n")) AND (\(differs.joined(separator: " OR ")))\(order("n"))
                """ }
            table.updated = found.map { row in
                let values = row[key.columns.count..<(key.columns.count + others.count)]
                let flags = row[(key.columns.count + others.count)...]
                return Update(key: Array(row[..<key.columns.count]),
                              changed: zip(others, zip(values, flags)).compactMap { column, pair in
                                  pair.1 == .integer(1) ? Change(column: column, value: pair.0) : nil
                              })
            }
        }
        return table
    }

    /// Views, indexes and triggers whose definition is new, changed or gone. SQLite's own
    /// indexes (of keys and unique columns) come with their tables.
    private static func schemaObjects(_ db: Database) throws -> [SchemaObject] {
        func definitions(_ schema: String) throws -> [String: (type: String, sql: String)] {
            var found: [String: (type: String, sql: String)] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT type, name, sql FROM "\(schema)".sqlite_master
                WHERE type IN ('view', 'index', 'trigger') AND sql IS NOT NULL
                """) {
                found[row[1]] = (row[0], row[2])
            }
            return found
        }
        let before = try definitions("prev")
        let after = try definitions("main")
        var objects: [SchemaObject] = []
        for name in Set(before.keys).union(after.keys).sorted() {
            let old = before[name]
            let new = after[name]
            guard old?.sql != new?.sql else { continue }
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
    private static func copies(_ sql: String, _ db: Database, _ budget: RowBudget) throws -> [[SQLValue]] {
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
