import GRDB

/// SQLite's `PRAGMA foreign_key_check`, table by table, with its verdict reached faster where
/// indexes allow.
///
/// The pragma looks up the parent of every row: on three years of menus, 303,000 items with
/// four references each, most of the check's cost, though those items hold 5,300 distinct
/// references in all. A table whose every reference is one column that leads an index of its
/// own, to a parent key that is unique, is checked by walking each column's distinct values in
/// its index (one seek from a value to the next) and looking each up in its parent: every row
/// holds one of those values, so every row's reference is found sound, or the walk finds a
/// value without a parent. Only then, or where a table cannot be walked, does the pragma read
/// the table, and its lines are the problems reported: the same lines the pragma gives for the
/// whole file.
enum ForeignKeyCheck {
    /// One line per row whose reference has no parent.
    static func problems(_ db: Database) throws -> [String] {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        var problems: [String] = []
        for table in tables {
            let references = try references(of: table, db)
            guard !references.isEmpty else { continue }
            if let walks = try walks(references, of: table, existing: Set(tables), db),
               try walks.allSatisfy({ try $0.everyValueHasAParent(db) }) {
                continue
            }
            problems += try pragmaProblems(of: table, db)
        }
        return problems
    }

    /// A reference as `PRAGMA foreign_key_list` gives it: one row per column, `id` numbering the
    /// reference; `to` is nil when the reference names the parent's primary key implicitly.
    private struct Reference {
        var id: Int
        var parent: String
        var from: String
        var to: String?
    }

    private static func references(of table: String, _ db: Database) throws -> [Reference] {
        try Row.fetchAll(db, sql: "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?)",
                         arguments: [table]).map { row in
            try Reference(id: row.decode(atIndex: 0), parent: row.decode(atIndex: 1), from: row.decode(atIndex: 2),
                          to: row.decode(atIndex: 3))
        }
    }

    /// The walks that check `references`, or nil when one of them cannot be walked: a reference
    /// of several columns, an implicit parent key, a parent that is not a table here or whose key
    /// is not unique (the pragma then says what is wrong), or a column whose values SQLite would
    /// not seek through an index.
    private static func walks(_ references: [Reference], of table: String, existing tables: Set<String>,
                              _ db: Database) throws -> [Walk]? {
        var walks: [Walk] = []
        for reference in references {
            guard references.filter({ $0.id == reference.id }).count == 1, let key = reference.to,
                  tables.contains(reference.parent), try isUniqueKey(key, of: reference.parent, db)
            else { return nil }
            let walk = Walk(table: table, column: reference.from, parent: reference.parent, key: key)
            guard try walk.seeksThroughAnIndex(db) else { return nil }
            walks.append(walk)
        }
        return walks
    }

    /// Whether `column` alone is `table`'s primary key or the whole of a unique index of it:
    /// what SQLite requires of a parent key.
    private static func isUniqueKey(_ column: String, of table: String, _ db: Database) throws -> Bool {
        let keyColumns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) WHERE pk > 0",
                                             arguments: [table])
        if keyColumns.count == 1, keyColumns[0].caseInsensitiveCompare(column) == .orderedSame { return true }
        let uniqueIndexes = try String.fetchAll(db, sql: """
            SELECT name FROM pragma_index_list(?) WHERE "unique" = 1 AND partial = 0
            """, arguments: [table])
        for index in uniqueIndexes {
            let columns = try String?.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?)", arguments: [index])
            if columns.count == 1, let only = columns[0], only.caseInsensitiveCompare(column) == .orderedSame {
                return true
            }
        }
        return false
    }

    /// One column's references, walked value by value in the index it leads.
    private struct Walk {
        var table: String
        var column: String
        var parent: String
        var key: String

        private var first: String {
            "SELECT min(\(column.quotedDatabaseIdentifier)) FROM \(table.quotedDatabaseIdentifier) "
                + "WHERE \(column.quotedDatabaseIdentifier) IS NOT NULL"
        }

        /// The value after `previous` (an expression) in the column's order.
        private func next(after previous: String) -> String {
            "SELECT min(\(column.quotedDatabaseIdentifier)) FROM \(table.quotedDatabaseIdentifier) "
                + "WHERE \(column.quotedDatabaseIdentifier) > \(previous)"
        }

        /// Whether SQLite plans both steps of the walk as a search of an index, so that each
        /// step is a seek rather than a scan of the table. The step from a value to the next
        /// must search by the column itself (`(column>?)` in the plan): a column second in a
        /// table's key is planned as a "SEARCH … USING PRIMARY KEY" too, but that search has no
        /// bound and reads the whole key at each step (`food_nutrient_agreement.nutrient_key`,
        /// six values, cost a quarter of the walks on a year of menus).
        func seeksThroughAnIndex(_ db: Database) throws -> Bool {
            let bound = "(\(column.lowercased())>?)"
            return try [(first, StatementArguments(), false), (next(after: "?"), StatementArguments([0]), true)]
                .allSatisfy { sql, arguments, byTheColumn in
                    let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(sql)", arguments: arguments)
                        .map { row in try row.decode(String.self, forColumn: "detail") }.joined(separator: " ")
                    return plan.contains("SEARCH") && plan.contains(" USING ")
                        && (!byTheColumn || plan.lowercased().contains(bound))
                }
        }

        /// Whether the parent holds every value the column does, NULL apart (a NULL refers to
        /// nothing). The walk is one statement, a recursive query whose each step is `next`, so
        /// that SQLite steps from value to value without a call back into Swift for each.
        func everyValueHasAParent(_ db: Database) throws -> Bool {
            let orphan = try Bool.fetchOne(db, sql: """
                WITH RECURSIVE value(v) AS (
                    \(first)
                    UNION ALL
                    SELECT (\(next(after: "value.v"))) FROM value WHERE value.v IS NOT NULL
                )
                SELECT EXISTS (
                    SELECT 1 FROM value WHERE v IS NOT NULL AND NOT EXISTS (
                        SELECT 1 FROM \(parent.quotedDatabaseIdentifier) WHERE \(key.quotedDatabaseIdentifier) = value.v))
                """)
            return orphan == false
        }
    }

    /// `PRAGMA foreign_key_check` of `table`, one line per broken reference.
    private static func pragmaProblems(of table: String, _ db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: "PRAGMA foreign_key_check(\(table.quotedDatabaseIdentifier))").map { row in
            let child: String = try row.decode(atIndex: 0)
            let rowid: Int64? = try row.decode(atIndex: 1)
            let parent: String = try row.decode(atIndex: 2)
            return "foreign key from \(child) row \(rowid.map(String.init) ?? "?") to \(parent) is broken"
        }
    }
}
