import Basics
import Foundation
import GRDB
import Snapshot

/// A night applied to the schema PostgreSQL serves, in one transaction, instead of being built
/// whole and swapped in: what the night costs then follows what changed, not the history kept.
///
/// It applies when the served schema holds the night the change set starts from and the set is
/// rows only (no table or view that changed shape, no resync mark): the first night, a night
/// PostgreSQL missed beyond its change file, a new schema version or `apply_changes: false` are
/// swapped in whole, as before. The rows come from the change feed, which the same transaction
/// records (`PostgresChangeFeed`): each one is read into the table's row type by
/// `jsonb_populate_record`, so a value goes in through the same input functions as in a built
/// night. Inserts and updates go parents first, then deletes children first, so that every
/// foreign key holds at each statement; the tables whose whole row is their key (`food_flag`,
/// `_checks`), whose deleted rows are copies rather than keys, are written again whole; the search
/// rows of every food and recipe that changed are made again. Before its commit, every table
/// must hold as many rows as the snapshot's, or nothing of it stays and the night is swapped in.
/// Readers read the night before until the commit and the new night after it, never a mix
/// (PostgreSQL's MVCC: a statement sees one committed state of every table), and nothing a reader
/// holds is waited on but by the views across pipelines, made again as a swap makes them.
///
/// No copy of the night before is kept: the nights kept for rollback are those swaps renamed
/// aside, and the SQLite snapshots retention keeps are the way back to any other.
struct PostgresApply {
    let target: PostgresTarget
    let feed: PostgresChangeFeed
    let changes: ChangeSet
    let snapshot: URL
    let connection: PostgresConnection
    /// The search tables the served schema has.
    private let searchTables: [PostgresPublisher.SearchTable]

    /// How many rows the night inserts, updates and deletes.
    var rowCount: Int {
        changes.tables.reduce(0) { $0 + $1.inserted.count + $1.updated.count + $1.deleted.count }
    }

    /// Nil when the night is to be swapped in whole.
    init?(target: PostgresTarget, feed: PostgresChangeFeed, snapshot: URL, _ connection: PostgresConnection) throws {
        guard target.applyChanges, let changes = feed.changes, changes.changesRowsOnly,
              changes.old.schemaVersion == changes.new.schemaVersion, feed.servedRunId != nil,
              let served = try Self.servedTables(matching: snapshot, in: target.schema, connection)
        else { return nil }
        searchTables = PostgresPublisher.SearchTable.all.filter { served.contains($0.name) }
        self.target = target
        self.feed = feed
        self.changes = changes
        self.snapshot = snapshot
        self.connection = connection
    }

    /// The served schema's tables when they are those a swap of `snapshot` would build, no more,
    /// no fewer; nil otherwise: a schema that lacks one (dropped by hand) is swapped in whole.
    private static func servedTables(matching snapshot: URL, in live: String, _ connection: PostgresConnection) throws
        -> Set<String>? {
        let expected = try SnapshotReader.read(snapshot) { db in
            let tables = Set(try SnapshotReader.tableKeys(db).map(\.table))
            let views = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'view'"))
            var search: Set<String> = []
            if tables.contains("food") { search.insert(PostgresPublisher.SearchTable.food.name) }
            if views.contains("v_recipe_search") { search.insert(PostgresPublisher.SearchTable.recipe.name) }
            return tables.union(search)
        }
        let served = try connection.query("""
            SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relkind = 'r'
            """, [live], at: live).compactMap { $0.first ?? nil }
        return Set(served) == expected ? expected : nil
    }

    /// Applies the night in one transaction and returns the snapshot's row counts; throws, with
    /// the transaction rolled back and the served night as it was, when any step fails.
    func run(keepRuns: Int) throws -> [String: Int] {
        let live = target.schema
        do {
            try connection.execute("BEGIN; \(target.boundedLockWait) " + feed.creation, at: live)
            try feed.restateAccess(target, connection)
            guard let number = try feed.record(keep: keepRuns, connection), Int(number) != nil else {
                throw Failure(.postgres, "the change feed gave the night no number", at: "\(feed.schema).run")
            }
            let access = try PostgresAccess.restatement(for: target, schema: live, connection)
            if !access.isEmpty { try connection.execute(access, at: live) }
            let counts = try SnapshotReader.read(snapshot) { db in try apply(run: number, snapshot: db) }
            try check(counts)
            try connection.execute(try PostgresAcross.statements(for: target, live: live, building: live, connection) + " COMMIT",
                                   at: live)
            return counts
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The row statements, in the order that keeps every key and foreign key whole; the snapshot's
    /// row count of each table.
    private func apply(run number: String, snapshot db: Database) throws -> [String: Int] {
        let live = target.schema
        let changed = changes.tables.filter { !$0.isEmpty }
        let whole = changed.filter(\.key.isEmpty)
        let keyed = changed.filter { !$0.key.isEmpty }
        let searched = searchTables.filter { search in changed.contains { $0.name == search.source } }
        for search in searched {
            try connection.execute("DELETE FROM \(live).\(search.name) WHERE \(search.key) IN (\(changedKeys(of: search, run: number)))",
                                   at: "\(live).\(search.name)")
        }
        for table in whole.reversed() {
            try connection.execute("DELETE FROM \(live).\(quoted(table.name))", at: "\(live).\(table.name)")
        }
        for table in keyed {
            if !table.inserted.isEmpty { try insert(table, run: number) }
            if !table.updated.isEmpty { try update(table, run: number) }
        }
        for table in keyed.reversed() where !table.deleted.isEmpty {
            try delete(table, run: number)
        }
        for table in whole {
            let columns = try PostgresPublisher.TableColumns(table.name, in: db)
            _ = try PostgresPublisher.copyRows(columns, from: db, into: "\(live).\(quoted(table.name))", connection,
                                               place: "\(live).\(table.name)")
        }
        for search in searched {
            try connection.execute("""
                INSERT INTO \(live).\(search.name) (\(search.key), document)
                SELECT \(search.sourceKey), \(search.document) FROM \(live).\(search.source)
                WHERE \(search.sourceKey) IN (\(changedKeys(of: search, run: number)))
                """, at: "\(live).\(search.name)")
        }
        var counts: [String: Int] = [:]
        for key in try SnapshotReader.tableKeys(db) {
            counts[key.table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(quoted(key.table))") ?? 0
        }
        return counts
    }

    /// The feed's rows of `table` for `operation` in this night, each read into the table's row
    /// type: from its key as `k`, or from its values as `r`.
    private func feedRows(_ table: ChangeSet.Table, _ operation: String, run number: String, values: Bool = false) -> String {
        """
        \(feed.schema).change ch
        CROSS JOIN LATERAL jsonb_populate_record(NULL::\(served(table)), \(values ? "ch.\"values\") r" : "ch.key) k")
        WHERE ch.run_number = \(number) AND ch.table_name = \(literal(table.name)) AND ch.operation = '\(operation)'
        """
    }

    private func insert(_ table: ChangeSet.Table, run number: String) throws {
        try connection.execute("""
            INSERT INTO \(served(table)) SELECT r.* FROM \(feedRows(table, "insert", run: number, values: true))
            """, at: "\(target.schema).\(table.name)")
    }

    /// The columns outside the key set from the row as it is with the changed values laid over
    /// it (`jsonb_populate_record` with the row as its base keeps the columns the update leaves).
    private func update(_ table: ChangeSet.Table, run number: String) throws {
        let columns = table.columns.filter { !table.key.contains($0) }.map(quoted)
        guard !columns.isEmpty else { return }
        try connection.execute("""
            UPDATE \(served(table)) AS t SET (\(columns.joined(separator: ", "))) =
                (SELECT \(columns.map { "r.\($0)" }.joined(separator: ", ")) FROM jsonb_populate_record(t, ch."values") r)
            FROM \(feedRows(table, "update", run: number)) AND \(keyMatch(table))
            """, at: "\(target.schema).\(table.name)")
    }

    private func delete(_ table: ChangeSet.Table, run number: String) throws {
        try connection.execute("""
            DELETE FROM \(served(table)) AS t USING \(feedRows(table, "delete", run: number)) AND \(keyMatch(table))
            """, at: "\(target.schema).\(table.name)")
    }

    /// The served table of `table`'s name.
    private func served(_ table: ChangeSet.Table) -> String { "\(target.schema).\(quoted(table.name))" }

    private func keyMatch(_ table: ChangeSet.Table) -> String {
        table.key.map { "t.\(quoted($0)) = k.\(quoted($0))" }.joined(separator: " AND ")
    }

    /// The keys of the source rows of `search` that the night inserted, updated or deleted.
    private func changedKeys(of search: PostgresPublisher.SearchTable, run number: String) -> String {
        """
        SELECT ch.key ->> \(literal(search.sourceKey)) FROM \(feed.schema).change ch
        WHERE ch.run_number = \(number) AND ch.table_name = \(literal(search.source))
        """
    }

    /// Every table as many rows as the snapshot's, the search tables as many as their sources.
    private func check(_ counts: [String: Int]) throws {
        let live = target.schema
        let tables = counts.keys.sorted()
        let served = try connection.query(tables.map { "SELECT \(literal($0)), count(*) FROM \(live).\(quoted($0))" }
            .joined(separator: " UNION ALL "), at: live)
        for row in served {
            guard let table = row[0] ?? nil, let found = row[1] ?? nil else { continue }
            guard found == String(counts[table] ?? -1) else {
                throw Failure(.postgres, "holds \(found) rows after the night's changes where the snapshot has "
                              + "\(counts[table] ?? 0)", at: "\(live).\(table)")
            }
        }
        for search in searchTables {
            let rows = try connection.query("""
                SELECT (SELECT count(*) FROM \(live).\(search.name)) = (SELECT count(*) FROM \(live).\(search.source))
                """, at: "\(live).\(search.name)")
            guard rows.first?.first == "t" else {
                throw Failure(.postgres, "does not hold a row per row of \(search.source) after the night's changes",
                              at: "\(live).\(search.name)")
            }
        }
    }

    private func quoted(_ name: String) -> String { PostgresPublisher.quoted(name) }

    /// A table name as an SQL string literal; names come from the snapshot's `_table_keys`.
    private func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
}
