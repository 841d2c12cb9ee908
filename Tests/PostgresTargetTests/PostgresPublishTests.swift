import Basics
import FoodModel
import Foundation
import GRDB
import Logging
import Pipeline
@testable import PostgresTarget
import Snapshot
import SnapshotTestSupport
import Testing
import TestSupport

/// `publish: postgres:` against a real PostgreSQL server of the test's own on 127.0.0.1: the
/// same tables, keys and views as the SQLite snapshot, built aside and swapped in whole (a
/// night's changes applied in place: `PostgresApplyTests`).
@Suite(.serialized, .enabled(if: PrivatePostgres.available, "no PostgreSQL server installed (scripts/test installs it)"))
struct PostgresPublishTests: PostgresSampleScenes {
    static let variable = "COMMISSARY_TEST_PG_URL"

    @Test func theSampleIsInPostgresAsInSQLiteTableByTableAndViewByView() async throws {
        let scene = try ServerScene(variable: Self.variable)
        defer { scene.close() }
        let (server, workspace) = (scene.server, scene.workspace)
        // The sample names the nutrition reference, so the estimates' tables and view are compared with rows.
        let (spec, _) = try SampleCopy.make(in: workspace, adding: "\npublish:\n  postgres:\n"
                                            + "    url_env: \(Self.variable)\n    schema: dining\n")
        let report = try await run(spec, workspace: workspace)
        let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))
        let connection = try PostgresConnection(url: server.url, place: "test")
        try connection.execute("SET search_path TO dining")

        // Every table with its rows (the run's timestamps, typed differently, are counted).
        let tables = try QueryResult.run("SELECT table_name FROM _table_keys", on: snapshot).rows.compactMap { Self.normalized($0[0]) }
        #expect(tables.contains("menu_item") && tables.contains("recipe"))
        #expect(try sqliteRows("SELECT count(*) > 0 FROM v_food_estimate", snapshot) == [["1"]])
        for table in tables {
            let count = try sqliteRows("SELECT count(*) FROM \"\(table)\"", snapshot)
            #expect(try postgresRows("SELECT count(*) FROM \"\(table)\"", connection) == count, "\(table)")
            guard !table.hasPrefix("_") else { continue }
            let same = try postgresRows(postgresSelect(table, connection), connection)
                == sqliteRows("SELECT * FROM \"\(table)\"", snapshot)
            #expect(same, "table \(table) differs")
        }
        // Every view answers with the same rows (v_recipe_search without SQLite's rowid).
        let views = try QueryResult.run("SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name", on: snapshot).rows
            .compactMap { Self.normalized($0[0]) }
        #expect(views.count == 16)
        for view in views {
            let columns = view == "v_recipe_search" ? ["recipe_id", "name", "ingredients", "tags", "instructions"] : nil
            let same = try postgresRows(postgresSelect(view, columns: columns, connection), connection)
                == sqliteRows("SELECT \(columns?.joined(separator: ", ") ?? "*") FROM \(view)", snapshot)
            #expect(same, "view \(view) differs")
        }
        // A dish's history counted by hand from the sample's pages (WatchTests): its dates, servings
        // and weekdays, and its next day counted from the run's own day, in PostgreSQL's dialect.
        #expect(try postgresRows("""
            SELECT first_date, last_date, times_served, weekdays, next_date, as_of, typical_gap_days
            FROM v_food_history WHERE food_id = 'ucla-menu:041180'
            """, connection) == [["2026-10-10", "2026-10-12", "7", "1, 6, 7", "2026-10-12", "2026-10-12", "1"]])
        // Its restaurants, meals and weekdays are listed in one pass over the servings: a subquery
        // per food (a SubPlan) read every serving once for each food, a minute on a year of menus.
        let plan = try connection.query("EXPLAIN SELECT * FROM v_food_history").compactMap { $0.first ?? nil }
        #expect(!plan.contains { $0.contains("SubPlan") }, "\(plan.joined(separator: "\n"))")
        // Types a PostgreSQL user expects, keys and foreign keys as constraints.
        let types = try connection.query("""
            SELECT table_name || '.' || column_name, data_type FROM information_schema.columns
            WHERE table_schema = 'dining' AND (table_name, column_name) IN
                (('service_day', 'date'), ('menu_item', 'id'), ('food_nutrient', 'amount'), ('food', 'name'), ('_runs', 'started_at'),
                 ('food', 'has_page'), ('hours', 'is_closed'), ('_checks', 'passed'), ('v_menu_macros', 'is_vegan'),
                 ('v_menu_macros', 'is_entree'), ('v_food_nutrition', 'dv_agrees'))
            ORDER BY 1
            """)
        #expect(types == [["_checks.passed", "boolean"], ["_runs.started_at", "timestamp with time zone"],
                          ["food.has_page", "boolean"], ["food.name", "text"],
                          ["food_nutrient.amount", "double precision"], ["hours.is_closed", "boolean"],
                          ["menu_item.id", "bigint"], ["service_day.date", "date"],
                          ["v_food_nutrition.dv_agrees", "boolean"], ["v_menu_macros.is_entree", "boolean"],
                          ["v_menu_macros.is_vegan", "boolean"]])
        // Every column the schema description marks as a flag, and only those, is boolean.
        let flags = SchemaDescription.current.tables.flatMap { table in
            table.columns.filter(\.isFlag).map { "\(table.name).\($0.name)" }
        }
        let booleans = try connection.query("""
            SELECT table_name || '.' || column_name FROM information_schema.columns
            WHERE table_schema = 'dining' AND data_type = 'boolean' ORDER BY 1
            """).compactMap { $0.first ?? nil }
        #expect(booleans == flags.sorted())
        // A flag reads as a truth value, the same query as on SQLite.
        let vegan = "SELECT count(*) FROM v_menu_macros WHERE is_vegan"
        #expect(try postgresRows(vegan, connection) == sqliteRows(vegan, snapshot))
        #expect(try sqliteRows(vegan, snapshot) != [["0"]])
        let sqliteForeignKeys = try sqliteRows("""
            SELECT count(DISTINCT t.name || '/' || f.id) FROM sqlite_master t, pragma_foreign_key_list(t.name) f WHERE t.type = 'table'
            """, snapshot)
        let postgresForeignKeys = try postgresRows("""
            SELECT count(*) FROM information_schema.table_constraints
            WHERE constraint_schema = 'dining' AND constraint_type = 'FOREIGN KEY' AND table_name NOT LIKE '%\\_search'
            """, connection)
        #expect(postgresForeignKeys == sqliteForeignKeys)
        #expect(try connection.query("""
            SELECT count(*) FROM information_schema.table_constraints
            WHERE constraint_schema = 'dining' AND constraint_type = 'PRIMARY KEY' AND table_name = 'menu_item'
            """) == [["1"]])
        // Search through tsvector with a GIN index finds what the snapshot's FTS finds.
        let found = try postgresRows("""
            SELECT food_id FROM food_search WHERE document @@ to_tsquery('simple', 'quinoa')
            """, connection)
        #expect(found == (try sqliteRows("""
            SELECT f.id FROM food_fts JOIN food f ON f.rowid = food_fts.rowid WHERE food_fts MATCH 'quinoa'
            """, snapshot)))
        #expect(!found.isEmpty)
        #expect(try connection.query("SELECT indexdef FROM pg_indexes WHERE schemaname = 'dining' AND indexname = 'food_search_document'")
            .first?.first??.contains("USING gin") == true)

        // A flag holding neither 0 nor 1 is refused before the swap, naming its table, column and row.
        let damaged = try ChangeSetReplay.writableCopy(of: snapshot)
        defer { try? FileManager.default.removeItem(at: damaged.deletingLastPathComponent()) }
        try await DatabaseQueue(path: damaged.path).write { db in
            try db.execute(sql: "UPDATE food SET has_page = 2 WHERE rowid = (SELECT min(rowid) FROM food)")
        }
        #expect { try PostgresPublisher.publish(damaged, to: PostgresTarget(addressVariable: Self.variable, schema: "dining"),
                                                keepPrevious: 1) } throws: { error in
            "\(error)".contains("food.has_page, row 1: holds 2 in a flag, which is 0 or 1")
        }
        #expect(try connection.query("SELECT value FROM dining._meta WHERE key = 'run_id'") == [[report.manifest.runId]])
    }

    /// Two publishes in a row with `readers` and `row_level_security`: after each, the readers'
    /// access is all there (`expectReadersOnly`); the descriptions are the schema description's,
    /// a flag's said as a truth value; a role granted SELECT but named in no policy sees no row;
    /// the night before, kept for rollback, keeps its grants; a reader the server has no role
    /// for stops the publish before anything is built.
    @Test func readersAndRowLevelSecurityAreGivenAgainByEveryPublish() async throws {
        let scene = try ServerScene(variable: Self.variable)
        defer { scene.close() }
        let (server, workspace) = (scene.server, scene.workspace)
        let (spec, _) = try samplePipeline(in: workspace, access: """
                readers: [anon, authenticated]
                row_level_security: true
                apply_changes: false

            """)
        let connection = try PostgresConnection(url: server.url, place: "test")
        try connection.execute("CREATE ROLE anon NOLOGIN; CREATE ROLE authenticated NOLOGIN; CREATE ROLE outsider NOLOGIN")
        var runIds: [String] = []
        for night in 1...2 {
            let report = try await run(spec, workspace: workspace)
            runIds.append(report.manifest.runId)
            try expectReadersOnly(night: night, snapshot: URL(fileURLWithPath: try #require(report.snapshotPath)), connection)
        }
        #expect(try connection.query("SELECT obj_description('dining.menu_item'::regclass, 'pg_class')")
                == [[SnapshotMetadata.plain(try #require(SchemaDescription.current.table(named: "menu_item")).description)]])
        let viewComment = try #require(try connection.query("SELECT obj_description('dining.v_menu'::regclass, 'pg_class')").first?.first ?? nil)
        #expect(!viewComment.isEmpty && !viewComment.contains("`"))
        let dateColumn = try #require(SchemaDescription.current.table(named: "service_day")?.columns.first { $0.name == "date" })
        #expect(try connection.query("""
            SELECT col_description('dining.service_day'::regclass, attnum) FROM pg_attribute
            WHERE attrelid = 'dining.service_day'::regclass AND attname = 'date'
            """) == [[SnapshotMetadata.plain(dateColumn.description)]])
        // A flag's description is said as a truth value, as its type is.
        #expect(try connection.query("""
            SELECT col_description('dining.food'::regclass, attnum) FROM pg_attribute
            WHERE attrelid = 'dining.food'::regclass AND attname = 'has_page'
            """) == [["True when the dish's own page was read (not only mentioned by a menu)."]])
        // Row-level security is enforced: a role granted SELECT but named in no policy sees no row.
        try connection.execute("GRANT USAGE ON SCHEMA dining TO outsider; GRANT SELECT ON dining.menu_item TO outsider")
        try connection.execute("SET ROLE outsider")
        #expect(try connection.query("SELECT count(*) FROM dining.menu_item") == [["0"]])
        try connection.execute("RESET ROLE")
        // The night before, kept for rollback, is readable as it was served.
        try connection.execute("SET ROLE anon")
        #expect(try connection.query("SELECT value FROM dining__\(runIds[0])._meta WHERE key = 'run_id'") == [[runIds[0]]])
        try connection.execute("RESET ROLE")

        // A reader the server has no role for stops the publish before anything is built.
        let latest = try #require(SnapshotStore(directory: workspace.appendingPathComponent("snapshots")).latest(pipeline: "sample"))
        let ghost = PostgresTarget(addressVariable: Self.variable, schema: "dining", readers: ["anon", "ghost"])
        #expect { try PostgresPublisher.publish(latest, to: ghost, keepPrevious: 1) } throws: { error in
            "\(error)".contains("no role ghost") && "\(error)".contains("publish.postgres.readers")
        }
        #expect(try connection.query("SELECT value FROM dining._meta WHERE key = 'run_id'") == [[runIds[1]]])
        #expect(try connection.query("SELECT 1 FROM pg_namespace WHERE nspname = 'dining__building'").isEmpty)
    }

    /// Two pipelines publish into one database with `across: campuses`: its views hold both,
    /// each row with its pipeline's schema, as the two snapshots hold them; a second night of one
    /// is read through the views at once (made again in its swap, not left on the night renamed
    /// aside); a reader sees through them what the members' grants let it see, no more.
    @Test func twoPipelinesAreReadTogetherThroughViewsAcrossThem() async throws {
        let scene = try ServerScene(variable: Self.variable)
        defer { scene.close() }
        let (server, workspace) = (scene.server, scene.workspace)
        let access = "    readers: [anon]\n    row_level_security: true\n    across: campuses\n"
        let (spec, site) = try samplePipeline(in: workspace, access: access)
        // A second campus: the sample again under its own name and schema, one item fewer.
        let east = workspace.appendingPathComponent("east")
        let (eastCopy, eastSite) = try samplePipeline(in: east, access: access)
        let eastSpec = east.appendingPathComponent("Pipelines/east.yml")
        try Data(try String(contentsOf: eastCopy, encoding: .utf8)
            .replacingOccurrences(of: "pipeline: sample\n", with: "pipeline: east\n")
            .replacingOccurrences(of: "schema: dining\n", with: "schema: dining_east\n").utf8).write(to: eastSpec)
        try SampleCopy.removeFirstMenuItem(on: "2026-10-11", of: eastSite)
        let connection = try PostgresConnection(url: server.url, place: "test")
        try connection.execute("CREATE ROLE anon NOLOGIN; CREATE ROLE outsider NOLOGIN")

        let sample = URL(fileURLWithPath: try #require(try await run(spec, workspace: workspace).snapshotPath))
        let eastSnapshot = URL(fileURLWithPath: try #require(try await run(eastSpec, workspace: east).snapshotPath))
        #expect(try connection.query("SELECT schema FROM campuses._pipelines ORDER BY 1") == [["dining"], ["dining_east"]])
        // 124 items in the sample (SampleData/README.md), one fewer in the east's copy.
        #expect(try connection.query("SELECT pipeline, count(*) FROM campuses.menu_item GROUP BY 1 ORDER BY 1")
                == [["dining", "124"], ["dining_east", "123"]])
        for (schema, snapshot) in [("dining", sample), ("dining_east", eastSnapshot)] {
            #expect(try postgresRows("SELECT id, meal_id, food_id, name FROM campuses.menu_item WHERE pipeline = '\(schema)'",
                                     connection)
                    == sqliteRows("SELECT id, meal_id, food_id, name FROM menu_item", snapshot))
            #expect(try postgresRows("SELECT date, restaurant, item FROM campuses.v_menu WHERE pipeline = '\(schema)'",
                                     connection)
                    == sqliteRows("SELECT date, restaurant, item FROM v_menu", snapshot))
        }

        // The sample's second night, one item fewer: the views read it as soon as it is served.
        try SampleCopy.removeFirstMenuItem(on: "2026-10-12", of: site)
        _ = try await run(spec, workspace: workspace)
        #expect(try connection.query("SELECT pipeline, count(*) FROM campuses.menu_item GROUP BY 1 ORDER BY 1")
                == [["dining", "123"], ["dining_east", "123"]])

        // A reader of both pipelines reads both; a role given the views alone reads neither.
        try connection.execute("SET ROLE anon")
        #expect(try connection.query("SELECT count(*) FROM campuses.menu_item") == [["246"]])
        try connection.execute("RESET ROLE")
        try connection.execute("GRANT USAGE ON SCHEMA campuses TO outsider; GRANT SELECT ON campuses.menu_item TO outsider")
        try connection.execute("SET ROLE outsider")
        #expect(throws: (any Error).self) { try connection.query("SELECT count(*) FROM campuses.menu_item") }
        try connection.execute("RESET ROLE")

        // The east stops naming `across`: its next night takes it out of the views, which go on
        // serving the sample alone, and no longer read the east's night renamed aside (retention
        // would have dropped them with it); the grants the views had are given again.
        try Data(try String(contentsOf: eastSpec, encoding: .utf8)
            .replacingOccurrences(of: "    across: campuses\n", with: "").utf8).write(to: eastSpec)
        _ = try await run(eastSpec, workspace: east)
        #expect(try connection.query("SELECT schema FROM campuses._pipelines") == [["dining"]])
        #expect(try connection.query("SELECT pipeline, count(*) FROM campuses.menu_item GROUP BY 1") == [["dining", "123"]])
        #expect(try connection.query("""
            SELECT count(*) FROM pg_views WHERE schemaname = 'campuses' AND definition LIKE '%dining_east%'
            """) == [["0"]])
        #expect(try connection.query("SELECT has_table_privilege('outsider', 'campuses.menu_item', 'SELECT')") == [["t"]])
        try connection.execute("SET ROLE anon")
        #expect(try connection.query("SELECT count(*) FROM campuses.v_menu") != [["0"]])
        try connection.execute("RESET ROLE")
    }

    /// The binary killed with SIGKILL at points spread over its run, PostgreSQL part included:
    /// after each kill `dining` still serves one whole night that was published; the next run
    /// clears what a killed one left and swaps its night in.
    @Test func aKilledPublishLeavesThePreviousNightServed() async throws {
        let scene = try ServerScene(variable: Self.variable)
        defer { scene.close() }
        let (server, workspace) = (scene.server, scene.workspace)
        let (spec, _) = try samplePipeline(in: workspace)
        let arguments = ["run", spec.path, "--workspace", workspace.path, "--force", "--quiet"]
        #expect(try await CommissaryProcess.run(arguments).status == 0)
        let connection = try PostgresConnection(url: server.url, place: "test")
        func served() throws -> (run: String?, items: String?) {
            let row = try connection.query("""
                SELECT (SELECT value FROM dining._meta WHERE key = 'run_id'), (SELECT count(*) FROM dining.menu_item)
                """).first
            return ((row?[0]) ?? nil, (row?[1]) ?? nil)
        }
        let store = SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))
        for delay in [250, 500, 750, 1000, 1250, 1500, 1750, 2000] {
            let process = try CommissaryProcess.start(arguments)
            try await Task.sleep(for: .milliseconds(delay))
            kill(process.processIdentifier, SIGKILL)
            _ = try await CommissaryProcess.exit(of: process)
            let night = try served()
            // The sample's 124 menu items (SampleData/README.md), of a night some snapshot holds.
            #expect(night.items == "124", "after a kill at \(delay) ms")
            let published = try store.list().map(\.runId)
            #expect(night.run.map(published.contains) == true, "after a kill at \(delay) ms: \(night.run ?? "none")")
        }
        let last = try await CommissaryProcess.run(arguments)
        #expect(last.status == 0, "\(last.error)")
        #expect(try served().run == store.list().last?.runId)
        #expect(try connection.query("SELECT 1 FROM pg_namespace WHERE nspname = 'dining__building'").isEmpty)
    }

    /// A night whose changes are more than `publish: changes: max_rows` (3 here) is a resync in
    /// PostgreSQL's feed as in its change file: its `run` row says `resync`, with no `change`
    /// rows.
    @Test func aNightOverTheChangeLimitIsAResyncInTheFeed() async throws {
        let scene = try ServerScene(variable: Self.variable)
        defer { scene.close() }
        let (server, workspace) = (scene.server, scene.workspace)
        let (spec, site) = try samplePipeline(in: workspace, access: "  changes:\n    max_rows: 3\n")
        let connection = try PostgresConnection(url: server.url, place: "test")
        let first = try await run(spec, workspace: workspace)
        try SampleCopy.removeFirstMenuItem(on: "2026-10-11", of: site)
        let second = try await run(spec, workspace: workspace)
        let snapshot = URL(fileURLWithPath: try #require(second.snapshotPath))
        #expect(try SnapshotStore.changes(beside: snapshot)?.resync == "more than 3 rows changed, more than a change file holds")
        let runs = try connection.query("SELECT run_id, previous_run_id, resync FROM dining_changes.run ORDER BY number")
        #expect(runs == [[first.manifest.runId, nil, "t"], [second.manifest.runId, first.manifest.runId, "t"]])
        #expect(try connection.query("SELECT count(*) FROM dining_changes.change") == [["0"]])
    }

    /// The 2016 history (134 days of real menus): the same row counts in every table, and the
    /// same answers to the README's example queries, in PostgreSQL as in the SQLite snapshot.
    @Test func the2016HistoryAnswersTheExampleQueriesAsSQLiteDoes() async throws {
        let scene = try ServerScene(variable: Self.variable)
        defer { scene.close() }
        let (server, workspace) = (scene.server, scene.workspace)
        var spec = try SpecReader.read(Paths.pipelines.appendingPathComponent("ucla-history-2016.yml"))
        spec.postgres = PostgresTarget(addressVariable: Self.variable, schema: "history")
        let report = try await PipelineRunner(
            spec: spec, options: RunOptions(workspace: Workspace(root: workspace), today: ServiceDate("2026-10-12")!),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))
        let connection = try PostgresConnection(url: server.url, place: "test")
        try connection.execute("SET search_path TO history")
        for row in try QueryResult.run("SELECT table_name FROM _table_keys", on: snapshot).rows {
            guard let table = Self.normalized(row[0]) else { continue }
            #expect(try postgresRows("SELECT count(*) FROM \"\(table)\"", connection)
                    == sqliteRows("SELECT count(*) FROM \"\(table)\"", snapshot), "\(table)")
        }
        #expect(try sqliteRows("SELECT count(*) FROM menu_item", snapshot) == [["37037"]])
        let examples = [
            "SELECT restaurant, count(*) FROM v_menu WHERE date = '2016-10-03' GROUP BY 1",
            """
            SELECT food FROM v_food_term WHERE term = 'vegan'
            EXCEPT SELECT food FROM v_food_term WHERE term = 'tree_nuts' ORDER BY food
            """,
            """
            SELECT food, serving_size, amount AS sodium_mg, computed_dv_percent FROM v_food_nutrition
            WHERE nutrient_key = 'sodium' AND amount IS NOT NULL ORDER BY amount, food LIMIT 20
            """,
            """
            SELECT nutrient_key, amount, unit, printed_dv_percent FROM v_menu_nutrition
            WHERE food_id = 'ucla-dataset:bruin burger' AND date = '2016-10-01' ORDER BY nutrient_key
            """,
            "SELECT DISTINCT calories FROM v_menu_macros WHERE food_id = 'ucla-dataset:bruin burger' AND date = '2016-10-01'",
            "SELECT date, meal, restaurant, items, vegan_items, avg_calories FROM v_nutrition_summary WHERE date = '2016-10-03'",
            "SELECT date, meal, restaurant, item, sodium_mg FROM v_lowest_sodium_entree WHERE date = '2016-10-03'",
            "SELECT item, calories FROM v_menu_macros WHERE is_vegan AND is_entree AND date = '2016-10-03'",
        ]
        for sql in examples {
            let answer = try sqliteRows(sql, snapshot)
            #expect(!answer.isEmpty, "\(sql)")
            #expect(try postgresRows(sql, connection) == answer, "\(sql)")
        }
    }

    /// No address, or a server that is not there: the SQLite snapshot is published, the run
    /// says in one line that PostgreSQL was not updated, and the password is printed nowhere;
    /// once the server is there, the next run sends the night it missed.
    @Test func aServerThatCannotBeReachedIsOneLineWithoutThePassword() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, _) = try samplePipeline(in: workspace)
        unsetenv(Self.variable)
        await #expect { try await run(spec, workspace: workspace) } throws: { error in
            "\(error)".contains("\(Self.variable) is not set") && "\(error)".contains("PostgreSQL was not updated")
        }
        setenv(Self.variable, "postgresql://reader:s3cret-word@127.0.0.1:1/dining?connect_timeout=2", 1)
        defer { unsetenv(Self.variable) }
        let outcome = try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path, "--force", "--quiet"])
        #expect(outcome.status == 5, "\(outcome.error)")
        #expect(outcome.error.split(separator: "\n").count == 1, "\(outcome.error)")
        #expect(outcome.error.contains("cannot connect to PostgreSQL") && outcome.error.contains("$\(Self.variable)"), "\(outcome.error)")
        #expect(!outcome.error.contains("s3cret") && !outcome.output.contains("s3cret"))
        let store = SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))
        let latest = try #require(store.latest(pipeline: "sample"))
        for file in try FileManager.default.contentsOfDirectory(atPath: store.directory.path) where !file.hasPrefix("latest") {
            let bytes = try Data(contentsOf: store.directory.appendingPathComponent(file))
            #expect(bytes.range(of: Data("s3cret".utf8)) == nil, "\(file)")
        }
        // The sample's 124 menu items (SampleData/README.md).
        #expect(try SnapshotReader.rowCounts(of: latest)["menu_item"] == 124)

        // Still down on a night when nothing changed: the line says so, not "published".
        let stillDown = try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path, "--quiet"])
        #expect(stillDown.status == 5, "\(stillDown.error)")
        #expect(stillDown.error.contains(": nothing changed tonight and latest still points at it, but PostgreSQL was not updated")
                && !stillDown.error.contains("published, and"), "\(stillDown.error)")

        // The server is back: the next run finds every input unchanged and still sends the
        // night PostgreSQL missed.
        let server = try PrivatePostgres()
        defer { server.stop() }
        setenv(Self.variable, server.url, 1)
        let caughtUp = try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path, "--log-format", "json"])
        #expect(caughtUp.status == 0, "\(caughtUp.error)")
        #expect(caughtUp.error.contains("\"unchanged\"") && caughtUp.error.contains("\"published_postgres\""), "\(caughtUp.error)")
        let connection = try PostgresConnection(url: server.url, place: "test")
        let latestRun = try SnapshotReader.meta(of: latest)["run_id"]
        #expect(try connection.query("SELECT value FROM dining._meta WHERE key = 'run_id'") == [[latestRun]])
    }

    /// A publish's session compiles nothing: PostgreSQL (12 and later, as this server) compiles
    /// a statement whose estimated cost passes `jit_above_cost`, and the catalogue walk that finds
    /// what depends on a schema passes it (1.6 s to compile, 11 ms to run, twice a publish).
    @Test func aPublishingSessionCompilesNothing() throws {
        let server = try PrivatePostgres()
        defer { server.stop() }
        let plain = try PostgresConnection(url: server.url, place: "test")
        #expect(try plain.query("SHOW jit") == [["on"]])
        let session = try PostgresPublisher.session(to: server.url, place: "test")
        #expect(try session.query("SHOW jit") == [["off"]])
        #expect(try session.query("SHOW client_min_messages") == [["warning"]])
    }

    /// The pipeline key: a variable's name and a plain schema name; an address pasted where the
    /// variable's name goes is refused without being repeated, since it may hold a password.
    @Test func thePublishKeyTakesAVariableNameNeverAnAddress() throws {
        let file = URL(fileURLWithPath: "/tmp/publish.yml")
        let head = "pipeline: p\nsources:\n  - {name: s, adapter: ucla-menu-site, location: /tmp, dates: {from: 2026-10-10, to: 2026-10-12}}\n"
        let spec = try SpecReader.parse(head + "publish:\n  postgres: {url_env: TEAM_PG, schema: dining}\n", file: file)
        #expect(spec.postgres == PostgresTarget(addressVariable: "TEAM_PG", schema: "dining"))
        #expect(try SpecReader.parse(head + "publish:\n  postgres: {url_env: TEAM_PG}\n", file: file).postgres?.schema
                == "commissary")
        #expect(try SpecReader.parse(head, file: file).postgres == nil)
        let access = try SpecReader.parse(head + """
            publish:
              postgres: {url_env: TEAM_PG, readers: [anon, authenticated], row_level_security: true}

            """, file: file).postgres
        #expect(access == PostgresTarget(addressVariable: "TEAM_PG", schema: "commissary", readers: ["anon", "authenticated"],
                                         rowLevelSecurity: true))
        let across = try SpecReader.parse(head + "publish:\n  postgres: {url_env: TEAM_PG, schema: dining, across: campuses}\n",
                                          file: file).postgres
        #expect(across == PostgresTarget(addressVariable: "TEAM_PG", schema: "dining", across: "campuses"))
        #expect(across?.applyChanges == true)
        let swapped = try SpecReader.parse(head + "publish:\n  postgres: {url_env: TEAM_PG, apply_changes: false}\n", file: file)
        #expect(swapped.postgres?.applyChanges == false)
        #expect(swapped.postgres?.lockWaitSeconds == 60)
        let patient = try SpecReader.parse(head + "publish:\n  postgres: {url_env: TEAM_PG, lock_wait_seconds: 600}\n", file: file)
        #expect(patient.postgres?.lockWaitSeconds == 600)
        for wrong in ["readers: anon", "readers: [Anon]", "readers: ['anon; DROP SCHEMA x']", "row_level_security: maybe",
                      "apply_changes: sometimes", "lock_wait_seconds: 0", "lock_wait_seconds: 1.5", "lock_wait_seconds: 3601",
                      "across: commissary", "across: commissary_changes", "across: public", "across: 'a; DROP SCHEMA x'"] {
            #expect(throws: (any Error).self, "\(wrong)") {
                try SpecReader.parse(head + "publish:\n  postgres: {url_env: TEAM_PG, \(wrong)}\n", file: file)
            }
        }
        do {
            _ = try SpecReader.parse(head + "publish:\n  postgres: {url_env: 'postgresql://u:s3cret@db/x'}\n", file: file)
            Issue.record("an address was taken as a variable name")
        } catch {
            #expect("\(error)".contains("must name an environment variable") && !"\(error)".contains("s3cret"), "\(error)")
        }
        for schema in ["Dining", "din ing", "a__b", String(repeating: "x", count: 41)] {
            #expect(throws: (any Error).self, "\(schema)") {
                try SpecReader.parse(head + "publish:\n  postgres: {url_env: TEAM_PG, schema: '\(schema)'}\n", file: file)
            }
        }
    }
}
