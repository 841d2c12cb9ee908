import GRDB

/// How one table is compared: its columns and which tables hold rows read for every table at
/// once, then the rows of those that do. A night's change set compares some forty tables, of which
/// a few changed and many are empty on both sides, so what each costs before its rows are read
/// adds up to a large share of a small change set (docs/performance.md, "The change file of a
/// continued night").
extension ChangeSet {
    /// What a change set reads of a table's definition on one side.
    struct TableShape {
        var columns: [String] = []
        /// The primary key's columns, in key order, when none can hold NULL, so that no two rows
        /// share a key; nil otherwise.
        var uniqueKey: [String]?
    }

    /// The shape of each of `tables` in `schema`, in one statement; a table that is not there has
    /// no columns.
    static func shapes(of tables: [String], schema: String, _ db: Database) throws -> [String: TableShape] {
        guard !tables.isEmpty else { return [:] }
        var shapes: [String: TableShape] = [:]
        var keys: [String: [(position: Int, column: String, notNull: Bool)]] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT m.name, c.name, c.pk, c."notnull" FROM "\(schema)".sqlite_master m, pragma_table_info(m.name, ?) c
            WHERE m.type = 'table' AND m.name IN (\(tables.map { _ in "?" }.joined(separator: ", "))) ORDER BY m.name, c.cid
            """, arguments: StatementArguments([schema] + tables))
        while let row = try rows.next() {
            let table: String = row[0]
            let column: String = row[1]
            shapes[table, default: TableShape()].columns.append(column)
            let position: Int = row[2]
            if position > 0 { keys[table, default: []].append((position, column, row[3])) }
        }
        for (table, key) in keys where key.allSatisfy(\.notNull) {
            shapes[table]?.uniqueKey = key.sorted { $0.position < $1.position }.map(\.column)
        }
        return shapes
    }

    /// Which of `tables`, present on both sides, hold a row on either, in one statement per
    /// hundred tables (SQLite joins at most 500 selects in one).
    static func tablesHoldingRows(_ tables: [String], _ db: Database) throws -> Set<String> {
        var holding: Set<String> = []
        for start in stride(from: 0, to: tables.count, by: 100) {
            let chunk = tables[start..<min(start + 100, tables.count)]
            let sql = chunk.enumerated().map { index, table in
                "SELECT \(index) WHERE EXISTS (SELECT 1 FROM main.\(quoted(table))) OR EXISTS (SELECT 1 FROM prev.\(quoted(table)))"
            }.joined(separator: " UNION ALL ")
            for index in try Int.fetchAll(db, sql: sql) {
                holding.insert(chunk[chunk.startIndex + index])
            }
        }
        return holding
    }

    /// One table's changes. `shapes.old`: the table in the old snapshot, if there; where its
    /// columns differ, the table is replaced, every row inserted.
    static func changes(in key: TableKey, shapes: (old: TableShape?, new: TableShape), scope: RowScope, _ db: Database) throws
        -> Table {
        var table = Table(name: key.table, key: key.columns, columns: shapes.new.columns, replaced: false, dropped: false,
                          create: nil, inserted: [], updated: [], deleted: [])
        guard let old = shapes.old, old.columns == shapes.new.columns else {
            table.replaced = true
            table.create = try String.fetchOne(db, sql: "SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name = ?",
                                               arguments: [key.table])
            table.inserted = try rows("SELECT * FROM main.\(quoted(key.table))", db, scope.budget)
            return table
        }
        if key.columns.isEmpty {
            try compareCopies(&table, db, scope.budget)
        } else {
            try compareKeyed(&table, uniqueKeys: old.uniqueKey == key.columns && shapes.new.uniqueKey == key.columns,
                             scope: scope, db)
        }
        return table
    }

    /// The whole row is the key: rows compared as a multiset, one entry per copy.
    private static func compareCopies(_ table: inout Table, _ db: Database, _ budget: RowBudget) throws {
        let name = quoted(table.name)
        let columns = table.columns
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
        table.inserted = try copies(surplus("main", over: "prev"), db, budget)
        table.deleted = try copies(surplus("prev", over: "main"), db, budget)
    }

    /// A keyed table: its new rows in one pass, each looked up once in the old snapshot (inserted
    /// where none matches, updated where a column differs), then the old rows no new row matches.
    /// `uniqueKeys`: the key is the primary key on both sides, and none of its columns can be NULL.
    private static func compareKeyed(_ table: inout Table, uniqueKeys: Bool, scope: RowScope, _ db: Database) throws {
        let name = quoted(table.name)
        let key = table.key
        let matched = key.map { "o.\(quoted($0)) IS n.\(quoted($0))" }.joined(separator: " AND ")
        // A table keyed by its rowid lists its rows in key order, however the query planner
        // would scan it (a covering index, another order), so that the rows of a few days
        // compared range by range come in the order of the whole table compared at once.
        let order = { (alias: String) in key == ["id"] ? " ORDER BY \(alias).id" : "" }
        let others = table.columns.enumerated().filter { !key.contains($0.element) }
        // The old row's constant tells a row that matched none from one whose key is all NULL.
        let unmatched = "o.\"matched row\" IS NULL"
        let flags = [unmatched] + others.map { "o.\(quoted($0.element)) IS NOT n.\(quoted($0.element))" }
        let found = try scope.rows(db) { within in """
            SELECT n.*, \(flags.joined(separator: ", "))
            FROM main.\(name) n LEFT JOIN (SELECT 1 AS "matched row", * FROM prev.\(name)) o ON \(matched)
            WHERE \(within("n")) AND (\(flags.joined(separator: " OR ")))\(order("n"))
            """ }
        let width = table.columns.count
        let keyIndexes = key.compactMap { table.columns.firstIndex(of: $0) }
        for row in found {
            guard row[width] != .integer(1) else {
                table.inserted.append(Array(row[..<width]))
                continue
            }
            table.updated.append(Update(key: keyIndexes.map { row[$0] },
                                        changed: others.enumerated().compactMap { flag, column in
                                            row[width + 1 + flag] == .integer(1)
                                                ? Change(column: column.element, value: row[column.offset]) : nil
                                        }))
        }
        // Where the key is unique on both sides, a new row matches at most one old row: when
        // every old row is matched (as many as the new rows less those inserted), none is
        // deleted, and the old side need not be scanned for them.
        if uniqueKeys,
           try scope.count(of: table.name, in: "prev", db) == scope.count(of: table.name, in: "main", db) - table.inserted.count {
            return
        }
        table.deleted = try scope.rows(db) { within in """
            SELECT \(key.map { "o.\(quoted($0))" }.joined(separator: ", ")) FROM prev.\(name) o
            WHERE \(within("o")) AND NOT EXISTS (SELECT 1 FROM main.\(name) n WHERE \(matched))\(order("o"))
            """ }
    }
}
