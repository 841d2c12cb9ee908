import Basics
import Foundation
import GRDB
import Snapshot

/// Where a pipeline publishes into PostgreSQL (`publish: postgres:` in the pipeline file): the
/// environment variable that holds the server's address (credentials never pass through a file
/// Commissary writes), the schema readers query, and who may read it. Access is configuration
/// because each night's schema is new: whatever was granted on the night before goes with it.
public struct PostgresTarget: Hashable, Sendable {
    public var addressVariable: String
    public var schema: String
    /// The roles granted USAGE on the schema and SELECT on every table and view.
    public var readers: [String]
    /// Row-level security on every table, with a read-only policy for the readers.
    public var rowLevelSecurity: Bool
    /// The schema of views across every pipeline that names it (`PostgresAcross`); nil for none.
    public var across: String?
    /// A night whose changes from the night served are rows only is applied to the served schema
    /// in one transaction (`PostgresApply`); false swaps every night in whole, keeping the night
    /// before for rollback.
    public var applyChanges: Bool
    /// How long a publish waits for a lock before it gives up and leaves PostgreSQL as it was:
    /// another publish's hold on the schema, or readers of the tables a night changes or swaps.
    public var lockWaitSeconds: Int

    public static let defaultLockWaitSeconds = 60

    public init(addressVariable: String, schema: String, readers: [String] = [], rowLevelSecurity: Bool = false,
                across: String? = nil, applyChanges: Bool = true, lockWaitSeconds: Int = defaultLockWaitSeconds) {
        self.addressVariable = addressVariable
        self.schema = schema
        self.readers = readers
        self.rowLevelSecurity = rowLevelSecurity
        self.across = across
        self.applyChanges = applyChanges
        self.lockWaitSeconds = lockWaitSeconds
    }

    /// The statement that bounds the lock waits of the transaction it opens.
    var boundedLockWait: String { "SET LOCAL lock_timeout = '\(lockWaitSeconds)s';" }

    /// A schema name PostgreSQL takes without quoting, short enough to carry a run id. Its own
    /// nights are named `<schema>__<run>`: a name with a double underscore, or ending in one,
    /// would make one pipeline's nights look like another's (`dining_`'s `dining___<run>` starts
    /// as `dining`'s do).
    public static func isValidSchema(_ name: String) -> Bool {
        isPlainIdentifier(name, atMost: 40) && !name.contains("__") && !name.hasSuffix("_")
    }

    /// A schema every database has, which applications share and a publish would rename aside
    /// each night: never a target, whatever its contents.
    public static func isSharedSchema(_ name: String) -> Bool {
        name == "public" || name == "information_schema" || name.hasPrefix("pg_")
    }

    /// A role name PostgreSQL takes without quoting (at most 63 bytes, its identifier limit).
    public static func isValidRole(_ name: String) -> Bool {
        isPlainIdentifier(name, atMost: 63)
    }

    /// Lower-case ASCII letters, digits and underscores, not starting with a digit, one to
    /// `atMost` of them, and nothing else. Read byte by byte: a pattern's `$` also matches
    /// before a final newline, and `"public\n"` passed as a name the SQL then read as `public`.
    private static func isPlainIdentifier(_ name: String, atMost limit: Int) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= limit, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_")
        }
    }
}

/// What one publication into PostgreSQL did.
public struct PostgresPublication: Sendable, Hashable {
    /// The schema readers query, now holding the snapshot.
    public var schema: String
    /// Where the night before went (kept for rollback), if there was one.
    public var previous: String?
    /// Older schemas removed by retention.
    public var dropped: [String]
    /// Why retention kept an old night it would have dropped, one line each (something outside
    /// depends on it, or dropping it failed): the night is published either way.
    public var kept: [String]
    public var rowCounts: [String: Int]
    /// How the night went in.
    public var method: Method

    public enum Method: Sendable, Hashable {
        /// Its row changes applied to the served schema in one transaction: this many.
        case applied(rows: Int)
        /// Built whole and swapped in; `instead` says why an apply that was tried was given up.
        case swapped(instead: String?)
    }
}

/// Publishes a published SQLite snapshot into PostgreSQL the way `SnapshotStore` publishes
/// files: the whole snapshot is built in a schema of its own (`<schema>__building`), checked
/// (every table's row count against the snapshot's; keys and foreign keys are constraints, so a
/// row that breaks one fails the build), and only then swapped in with two renames in one
/// transaction, so a reader sees the night before or the new night, never a mix. The night
/// before stays, as `<schema>__<its run id>`, for rollback; retention removes older ones.
/// A night whose changes from the night served are rows only is applied instead (`PostgresApply`):
/// what a night costs then follows what changed, not the history kept.
public enum PostgresPublisher {
    /// `changes`: the change set from the snapshot before, if the caller has it, for the change
    /// feed (used when it starts from the night PostgreSQL serves); `changeRowLimit` bounds the
    /// one compared here otherwise. `swapWhole`: build and swap the night in even when its changes
    /// could be applied (a forced run rebuilds everything).
    public static func publish(_ snapshot: URL, to target: PostgresTarget, keepPrevious: Int, changes: ChangeSet? = nil,
                               changeRowLimit: Int? = nil, swapWhole: Bool = false,
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> PostgresPublication {
        let variable = "$" + target.addressVariable
        guard let address = environment[target.addressVariable], !address.isEmpty else {
            throw Failure(.badInput, "the environment variable \(target.addressVariable) is not set; it gives the PostgreSQL "
                          + "server to publish to (a libpq connection string or postgresql:// URL)",
                          at: "publish.postgres.url_env")
        }
        guard !PostgresTarget.isSharedSchema(target.schema) else {
            throw Failure(.badInput, "schema \(target.schema) is shared by the database's applications and is never a target; "
                          + "choose a schema of Commissary's own", at: "publish.postgres.schema")
        }
        let connection = try session(to: address, place: variable)
        let live = target.schema
        let building = "\(live)__building"
        try PostgresAccess.checkReaders(of: target, connection)
        try PostgresOwnership.holdPublishing(live, waitingAtMost: target.lockWaitSeconds, connection)
        // Nothing is renamed or dropped that Commissary did not make, nor another pipeline's
        // night replaced: checked before anything is built.
        try PostgresOwnership.claim(live, connection)
        try PostgresOwnership.claim(live, for: try SnapshotReader.meta(of: snapshot)["pipeline"] ?? "", connection)
        try PostgresOwnership.claim(building, connection)
        try PostgresOwnership.claim(live + "_changes", feed: true, connection)
        let feed = try PostgresChangeFeed(target: target, snapshot: snapshot, servedRunId: try runId(in: live, connection),
                                          handedOver: changes, rowLimit: changeRowLimit)
        var instead: String?
        if !swapWhole, let apply = try PostgresApply(target: target, feed: feed, snapshot: snapshot, connection) {
            do {
                let counts = try apply.run(keepRuns: keepPrevious + 1)
                let retention = applyRetention(connection, live: live, keep: keepPrevious)
                return PostgresPublication(schema: live, previous: nil, dropped: retention.dropped, kept: retention.kept,
                                           rowCounts: counts, method: .applied(rows: apply.rowCount))
            } catch {
                // The swap below builds the night whole: whatever made the apply fail (a row edited
                // by hand in the served schema, a lock not granted) cannot make it wrong.
                instead = "applying its \(apply.rowCount) row change(s) failed (\(error))"
            }
        }
        // Checked before a night is built that a swap would refuse, and again inside the swap.
        try refuseSwapOver(PostgresOwnership.dependents(on: live, connection), live: live)
        try PostgresOwnership.drop(building, connection)
        try connection.execute("CREATE SCHEMA \(building); " + PostgresOwnership.comment(on: building)
                               + "; SET search_path TO \(building)", at: building)
        var counts: [String: Int] = [:]
        do {
            counts = try SnapshotReader.read(snapshot) { db in try build(from: db, into: connection, schema: building) }
            try check(counts, in: connection, schema: building)
        } catch {
            try? PostgresOwnership.drop(building, connection)
            throw error
        }

        try connection.execute("SET search_path TO public")
        let previous: String?
        do {
            previous = try swap(building, into: live, access: target, feed: feed, keepRuns: keepPrevious + 1, connection)
        } catch {
            try? PostgresOwnership.drop(building, connection)
            throw error
        }
        let retention = applyRetention(connection, live: live, keep: keepPrevious)
        return PostgresPublication(schema: live, previous: previous, dropped: retention.dropped, kept: retention.kept,
                                   rowCounts: counts, method: .swapped(instead: instead))
    }

    /// A connection set up for publishing. Notices below warnings (a `DROP … IF EXISTS` of
    /// nothing) are not sent. JIT compilation is off for the session: PostgreSQL compiles any
    /// statement whose estimated cost passes `jit_above_cost` (on by default since version 12),
    /// and the estimate of the catalogue walk that finds what depends on a schema
    /// (`PostgresOwnership.dependents`) passes it, though the walk reads a few hundred rows:
    /// compiling it took a hundred times longer than running it (docs/postgres.md). Nothing a
    /// publish sends runs long enough to gain from it: rows go in through `COPY`, and the rest
    /// are catalogue reads, row counts and one night's changes.
    static func session(to address: String, place: String) throws -> PostgresConnection {
        let connection = try PostgresConnection(url: address, place: place)
        try connection.execute("SET client_min_messages TO warning; SET jit TO off")
        return connection
    }

    /// The run id of the snapshot the live schema holds; nil when there is none yet or the server
    /// cannot be asked (the caller then publishes, and any failure is reported there).
    public static func servedRunId(of target: PostgresTarget,
                                   environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let address = environment[target.addressVariable], !address.isEmpty,
              let connection = try? PostgresConnection(url: address, place: "$" + target.addressVariable)
        else { return nil }
        return (try? runId(in: target.schema, connection)) ?? nil
    }

    /// The run id recorded in a schema's `_meta`; nil when the schema or its `_meta` is absent.
    static func runId(in schema: String, _ connection: PostgresConnection) throws -> String? {
        try meta("run_id", in: schema, connection)
    }

    /// The value of `key` in a schema's `_meta`; nil when the schema, its `_meta` or the key is absent.
    static func meta(_ key: String, in schema: String, _ connection: PostgresConnection) throws -> String? {
        guard try !connection.query("""
            SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = '_meta'
            """, [schema]).isEmpty else { return nil }
        return try connection.query("SELECT value FROM \(quoted(schema))._meta WHERE key = $1", [key]).first?.first ?? nil
    }

    /// Swaps `building` in as `live` in one transaction, with the access `target` configures
    /// and the night's changes recorded in the feed (`keepRuns` nights kept there); the live
    /// schema, if any, takes its run id as its new name, which is returned.
    private static func swap(_ building: String, into live: String, access target: PostgresTarget,
                             feed: PostgresChangeFeed, keepRuns: Int, _ connection: PostgresConnection) throws -> String? {
        let exists = try !connection.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [live]).isEmpty
        let previous = exists ? "\(live)__\(safe(try runId(in: live, connection) ?? "unknown"))" : nil
        if let previous {
            try PostgresOwnership.claim(previous, connection)
            try PostgresOwnership.refuseDrop(previous, connection)
        }
        // Renaming a schema locks none of its tables, and a statement looks its tables up one at
        // a time: without locks, one statement could read one table of each night. Holding every
        // live table and view exclusively makes a reader wait for the commit and then look the
        // names up again, so a statement sees one night whole; the wait for readers already
        // running is bounded.
        let relations = exists ? try connection.query("""
            SELECT quote_ident(c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relkind IN ('r', 'v') ORDER BY 1
            """, [live]).compactMap { $0.first ?? nil } : []
        // Access is given and the changes recorded before the live tables are locked, so the
        // locks are held no longer. The new night's tables took the server's default privileges
        // when they were made: what goes beyond the configuration is taken back.
        // A lock, the feed's tables' included, is waited on for a bounded time.
        let prepare = "BEGIN; \(target.boundedLockWait) "
            + (try PostgresAccess.restatement(for: target, schema: building, connection)) + " " + feed.creation
        var swap = ""
        if !relations.isEmpty {
            swap += " LOCK TABLE \(relations.map { "\(live).\($0)" }.joined(separator: ", ")) IN ACCESS EXCLUSIVE MODE;"
        }
        if let previous { swap += " DROP SCHEMA IF EXISTS \(previous) CASCADE; ALTER SCHEMA \(live) RENAME TO \(previous);" }
        swap += " ALTER SCHEMA \(building) RENAME TO \(live);"
        do {
            try connection.execute(prepare, at: live)
            try feed.restateAccess(target, connection)
            try feed.record(keep: keepRuns, connection)
            // The views across pipelines read the new night, so they are made after its rename,
            // in the same transaction.
            swap += " " + (try PostgresAcross.statements(for: target, live: live, building: building, connection))
            try connection.execute(swap, at: live)
            // The views across pipelines read the new night now: whatever else still reads the
            // night renamed aside was made while this one was built.
            if let previous { try refuseSwapOver(PostgresOwnership.dependents(on: previous, connection), live: live) }
            try connection.execute("COMMIT", at: live)
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        return previous
    }

    /// Refuses a swap while `outside` (what an application made on the served schema) depends on
    /// it: PostgreSQL binds a view, a foreign key or a policy to the tables it reads, not to their
    /// names, so after the rename each would go on reading the night renamed aside, silently,
    /// until retention dropped that night with them.
    private static func refuseSwapOver(_ outside: [String], live: String) throws {
        guard !outside.isEmpty else { return }
        let (them, depend) = outside.count == 1 ? ("it", "depends") : ("them", "depend")
        throw Failure(.postgres, "\(PostgresOwnership.listed(outside)) \(depend) on schema \(live), and a swap renames the "
                      + "night served aside: \(them) would go on reading that night, so this one was not swapped in. Drop "
                      + "\(them) before a night built whole (a forced run, a new schema version, apply_changes: false) and "
                      + "make \(them) again after it; a night of row changes alone is applied in place and keeps \(them)",
                      at: live)
    }

    /// Tables with their keys, rows through COPY, then foreign keys, indexes, search, views and
    /// comments.
    private static func build(from db: Database, into connection: PostgresConnection, schema: String) throws -> [String: Int] {
        let keys = try SnapshotReader.tableKeys(db)
        let counts = try copyTables(keys, from: db, into: connection, schema: schema)
        try addForeignKeysAndIndexes(keys, from: db, into: connection, schema: schema)
        try addViewsAndSearch(tables: Set(keys.map(\.table)), from: db, into: connection, schema: schema)
        try PostgresComments.add(in: schema, connection)
        return counts
    }

    /// Each table with its primary key, its rows through COPY; the rows copied per table.
    private static func copyTables(_ keys: [TableKey], from db: Database, into connection: PostgresConnection,
                                   schema: String) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for key in keys {
            let place = "\(schema).\(key.table)"
            let columns = try TableColumns(key.table, in: db)
            var definitions = zip(columns.names, columns.types).enumerated().map { index, column in
                "\(quoted(column.0)) \(column.1)" + (columns.notNull[index] ? " NOT NULL" : "")
            }
            if !key.columns.isEmpty { definitions.append("PRIMARY KEY (\(key.columns.map(quoted).joined(separator: ", ")))") }
            try connection.execute("CREATE TABLE \(quoted(key.table)) (\(definitions.joined(separator: ", ")))", at: place)
            counts[key.table] = try copyRows(columns, from: db, into: quoted(key.table), connection, place: place)
        }
        return counts
    }

    /// A snapshot table's columns, with the types PostgreSQL gives them (`postgresType`).
    struct TableColumns {
        let table: String
        let names: [String]
        let types: [String]
        let notNull: [Bool]

        init(_ table: String, in db: Database) throws {
            let rows = try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\" FROM pragma_table_info(?)", arguments: [table])
            self.table = table
            names = rows.map { $0[0] }
            types = rows.map { PostgresPublisher.postgresType(table: table, column: $0[0], declared: $0[1]) }
            notNull = rows.map { ($0[2] as Int) == 1 }
        }
    }

    /// Every row of `columns.table` through COPY into `target` (a quoted name, with its schema
    /// when it is not the search path's); how many.
    static func copyRows(_ columns: TableColumns, from db: Database, into target: String, _ connection: PostgresConnection,
                         place: String) throws -> Int {
        var count = 0
        try connection.copy(into: target, columns: columns.names.map(quoted), at: place) { row in
            let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM \(quoted(columns.table))")
            while let values = try cursor.next() {
                count += 1
                try row(try (0..<columns.names.count).map { index in
                    let value = values[index] as DatabaseValue
                    guard columns.types[index] == "boolean" else { return copyText(value) }
                    return try truthText(value, place: "\(place).\(columns.names[index]), row \(count)")
                })
            }
        }
        return count
    }

    /// The snapshot's foreign keys, once every row is in, and its indexes.
    private static func addForeignKeysAndIndexes(_ keys: [TableKey], from db: Database, into connection: PostgresConnection,
                                                 schema: String) throws {
        let tables = Set(keys.map(\.table))
        for key in keys {
            let references = try Row.fetchAll(db, sql: """
                SELECT id, "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq
                """, arguments: [key.table])
            for (_, parts) in Dictionary(grouping: references, by: { $0[0] as Int }).sorted(by: { $0.key < $1.key }) {
                let parent: String = parts[0][1]
                guard tables.contains(parent) else { continue }
                let from = parts.map { quoted($0[2] as String) }.joined(separator: ", ")
                let to = parts.compactMap { ($0[3] as String?).map(quoted) }
                try connection.execute("""
                    ALTER TABLE \(quoted(key.table)) ADD FOREIGN KEY (\(from)) REFERENCES \(quoted(parent))\
                    \(to.count == parts.count ? " (\(to.joined(separator: ", ")))" : "")
                    """, at: "\(schema).\(key.table)")
            }
        }
        for index in try String.fetchAll(db, sql: """
            SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name
            """) {
            try connection.execute(index, at: schema)
        }
    }

    /// The views in PostgreSQL's dialect, then the search tables with their GIN indexes.
    private static func addViewsAndSearch(tables: Set<String>, from db: Database, into connection: PostgresConnection,
                                          schema: String) throws {
        try connection.execute(SQLDialect.realTextDefinition, at: schema)
        let views = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'view'"))
        let known = Set(SnapshotSchema.views.map(\.name))
        if let missing = views.subtracting(known).sorted().first {
            throw Failure(.badInput, "the snapshot's view \(missing) has no PostgreSQL statement in this version of Commissary",
                          at: "\(schema).\(missing)")
        }
        for view in SnapshotSchema.views where views.contains(view.name) {
            try connection.execute(view.statement(in: .postgresql), at: "\(schema).\(view.name)")
        }
        if tables.contains("food") {
            try connection.execute("""
                CREATE TABLE food_search AS SELECT id AS food_id, \(SearchTable.food.document) AS document FROM food;
                ALTER TABLE food_search ADD PRIMARY KEY (food_id);
                ALTER TABLE food_search ADD FOREIGN KEY (food_id) REFERENCES food (id);
                CREATE INDEX food_search_document ON food_search USING gin (document)
                """, at: "\(schema).food_search")
        }
        if views.contains("v_recipe_search") {
            try connection.execute("""
                CREATE TABLE recipe_search AS SELECT recipe_id, \(SearchTable.recipe.document) AS document FROM v_recipe_search;
                ALTER TABLE recipe_search ADD PRIMARY KEY (recipe_id);
                ALTER TABLE recipe_search ADD FOREIGN KEY (recipe_id) REFERENCES recipe (id);
                CREATE INDEX recipe_search_document ON recipe_search USING gin (document)
                """, at: "\(schema).recipe_search")
        }
    }

    /// PostgreSQL's full-text tables, derived from a table of the snapshot: a row per row of it.
    struct SearchTable {
        let name: String
        /// Its own key column, the source's key.
        let key: String
        /// The table it is derived from, and that table's key column.
        let source: String
        let sourceKey: String
        /// What is searched, as an expression over the source's row (`v_recipe_search` reads
        /// `recipe` alone, so the recipe's own columns are the view's).
        let document: String

        static let food = SearchTable(name: "food_search", key: "food_id", source: "food", sourceKey: "id",
                                      document: "to_tsvector('simple', concat_ws(' ', name, description, ingredients))")
        static let recipe = SearchTable(name: "recipe_search", key: "recipe_id", source: "recipe", sourceKey: "id",
                                        document: "to_tsvector('simple', concat_ws(' ', name, ingredients, tags, instructions))")
        static let all = [food, recipe]
    }

    /// Every table holds as many rows as the snapshot's.
    private static func check(_ counts: [String: Int], in connection: PostgresConnection, schema: String) throws {
        for (table, expected) in counts.sorted(by: { $0.key < $1.key }) {
            let found = try connection.query("SELECT count(*) FROM \(schema).\(quoted(table))").first?.first ?? nil
            guard found == String(expected) else {
                throw Failure(.postgres, "holds \(found ?? "no") rows where the snapshot has \(expected); not swapped in",
                              at: "\(schema).\(table)")
            }
        }
    }

    /// Keeps the `keep` newest previous schemas (by the time their snapshot was built); a schema
    /// whose name only looks like a night kept (`<live>__…`) but is not ours is left alone, and
    /// so is an older night something outside depends on (`PostgresOwnership.drop`). Never
    /// throws: the night is published by now, and what retention could not do is said in `kept`.
    private static func applyRetention(_ connection: PostgresConnection, live: String, keep: Int)
        -> (dropped: [String], kept: [String]) {
        let previous: [String]
        do {
            previous = try connection.query("""
                SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1) AND nspname <> $2
                """, [live + "__", live + "__building"]).compactMap { $0.first ?? nil }
                .filter { schema in
                    switch try? PostgresOwnership.standing(of: schema, connection) {
                    case .ours?, .oursUnmarked?: return true
                    default: return false
                    }
                }
        } catch {
            return ([], ["retention could not list the nights kept: \(error)"])
        }
        // A schema whose `_meta` cannot be read sorts as the oldest.
        let built = previous.map { schema in
            let at = try? connection.query("SELECT value FROM \(quoted(schema))._meta WHERE key = 'built_at'").first?.first ?? nil
            return (schema: schema, at: (at ?? nil) ?? "")
        }
        var dropped: [String] = []
        var kept: [String] = []
        for schema in built.sorted(by: { ($0.at, $0.schema) > ($1.at, $1.schema) }).dropFirst(max(0, keep)).map(\.schema) {
            do {
                try PostgresOwnership.drop(schema, connection)
                dropped.append(schema)
            } catch {
                kept.append("\(error)")
            }
        }
        return (dropped, kept)
    }

    /// SQLite's declared type as PostgreSQL's: the truth values the schema description marks as
    /// flags as `boolean`, dates as `date`, the run's timestamps as `timestamptz`, integers as
    /// `bigint`, reals as `double precision`, the rest as `text`.
    static func postgresType(table: String, column: String, declared: String) -> String {
        switch declared.uppercased() {
        case "INTEGER":
            let described = SchemaDescription.current.table(named: table)?.columns.first { $0.name == column }
            return described?.isFlag == true ? "boolean" : "bigint"
        case "REAL": return "double precision"
        default:
            if column == "date" || column.hasSuffix("_date") { return "date" }
            if table.hasPrefix("_") && column.hasSuffix("_at") { return "timestamptz" }
            return "text"
        }
    }

    /// A value in COPY's text form; nil for NULL.
    private static func copyText(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: return nil
        case .int64(let number): return String(number)
        case .double(let number):
            if number.isNaN { return "NaN" }
            if number.isInfinite { return number > 0 ? "Infinity" : "-Infinity" }
            return "\(number)"
        case .string(let text): return text
        case .blob(let data): return "\\x" + data.map { String(format: "%02x", $0) }.joined()
        }
    }

    /// A flag's 0 or 1 as COPY's `f` or `t`; any other value is refused, naming its row, since
    /// a truth value that is neither would be read as one by some client.
    private static func truthText(_ value: DatabaseValue, place: String) throws -> String? {
        switch value.storage {
        case .null: return nil
        case .int64(0): return "f"
        case .int64(1): return "t"
        default:
            throw Failure(.badInput, "holds \(value) in a flag, which is 0 or 1; not swapped in", at: place)
        }
    }

    private static func safe(_ runId: String) -> String {
        String(runId.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "_" }.prefix(20))
    }

    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
