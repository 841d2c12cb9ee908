import Basics
import FoodModel
import Foundation
import GRDB
import Synchronization
import Logging
import Pipeline
import PostgresTarget
import Snapshot
import SnapshotTestSupport
import Testing
import TestSupport

/// `publish: postgres:` against a real PostgreSQL server of the test's own on 127.0.0.1: the
/// same tables, keys and views as the SQLite snapshot, built aside and swapped in whole, or a
/// night's changes applied in place (`PostgresPublishTests+Apply.swift`).
@Suite(.serialized, .enabled(if: PrivatePostgres.available, "no PostgreSQL server installed (scripts/test installs it)"))
struct PostgresPublishTests {
    static let variable = "COMMISSARY_TEST_PG_URL"

    /// The bundled sample over a copy of SampleData, publishing into schema `dining` too, with
    /// `access` (more `publish: postgres:` lines, indented four spaces) if given.
    /// A private server the pipelines' `url_env` names, and a workspace: what most tests here
    /// start from; `close` stops the one and removes the other.
    struct ServerScene {
        let server: PrivatePostgres
        let workspace: URL
        let variable: String

        init(variable: String) throws {
            server = try PrivatePostgres()
            self.variable = variable
            setenv(variable, server.url, 1)
            do {
                workspace = try Paths.temporaryFolder()
            } catch {
                unsetenv(variable)
                server.stop()
                throw error
            }
        }

        func close() {
            unsetenv(variable)
            server.stop()
            try? FileManager.default.removeItem(at: workspace)
        }
    }

    func samplePipeline(in workspace: URL, access: String = "") throws -> (spec: URL, site: URL) {
        try SampleCopy.make(in: workspace,
                            adding: "\npublish:\n  postgres:\n    url_env: \(Self.variable)\n    schema: dining\n" + access)
    }

    /// `force`: every partition fetched again, and PostgreSQL's night built and swapped in whole.
    func run(_ spec: URL, workspace: URL, force: Bool = true) async throws -> RunReport {
        try await PipelineRunner(
            spec: try SpecReader.read(spec),
            options: RunOptions(workspace: Workspace(root: workspace), today: ServiceDate("2026-10-12")!, force: force),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
    }

    /// A value as text both databases agree on: integral numbers without a fraction.
    static func normalized(_ value: SQLValue) -> String? {
        switch value {
        case .null: return nil
        case .integer(let number): return String(number)
        case .real(let number): return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
        case .text(let text): return text
        case .blob: return "blob"
        }
    }

    static func normalized(postgres value: String?) -> String? {
        guard let value, let number = Double(value), value.contains(".") || value.contains("e") else { return value }
        return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
    }

    func sqliteRows(_ sql: String, _ file: URL) throws -> [[String?]] {
        try QueryResult.run(sql, on: file).rows.map { $0.map(Self.normalized) }.sorted { "\($0)" < "\($1)" }
    }

    func postgresRows(_ sql: String, _ connection: PostgresConnection) throws -> [[String?]] {
        try connection.query(sql).map { $0.map(Self.normalized(postgres:)) }.sorted { "\($0)" < "\($1)" }
    }

    /// Every column of a table or view (`columns` if given), PostgreSQL's booleans turned into
    /// SQLite's 0/1 so that rows compare: the flags are the one type the two databases spell
    /// differently.
    func postgresSelect(_ relation: String, columns wanted: [String]? = nil,
                                _ connection: PostgresConnection) throws -> String {
        let columns = try connection.query("""
            SELECT column_name, data_type FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position
            """, [relation]).filter { row in wanted.map { $0.contains(row[0] ?? "") } ?? true }
        let list = columns.map { row in
            let name = "\"\(row[0] ?? "")\""
            return row[1] == "boolean" ? "\(name)::int" : name
        }
        return "SELECT \(list.joined(separator: ", ")) FROM \"\(relation)\""
    }

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

    /// What a reader may do with a night's schema and the change feed, checked after a publish
    /// with `readers: [anon, authenticated]` and `row_level_security: true`: both readers (NOLOGIN
    /// roles, as Supabase makes them, taken on with SET ROLE) read every table and view of the
    /// snapshot and the feed, a role not among them is refused, a reader's writes are refused,
    /// row-level security is on with one read policy on every table, and tables and views carry
    /// their descriptions.
    func expectReadersOnly(night: Int, snapshot: URL, _ connection: PostgresConnection) throws {
        func refused(as role: String, _ sql: String) -> Bool {
            defer { try? connection.execute("RESET ROLE") }
            do {
                try connection.execute("SET ROLE \(role); \(sql)")
                return false
            } catch {
                return "\(error)".contains("permission denied")
            }
        }
        let views = try QueryResult.run("SELECT name FROM sqlite_master WHERE type = 'view'", on: snapshot).rows
            .compactMap { Self.normalized($0[0]) }
        // The snapshot's tables and the two search tables PostgreSQL has instead of FTS5.
        let tables = try QueryResult.run("SELECT table_name FROM _table_keys", on: snapshot).rows
            .compactMap { Self.normalized($0[0]) } + ["food_search", "recipe_search"]
        #expect(views.count == 16 && tables.contains("menu_item"), "night \(night)")
        let items = try sqliteRows("SELECT count(*) FROM menu_item", snapshot)
        #expect(items != [["0"]])
        for reader in ["anon", "authenticated"] {
            try connection.execute("SET ROLE \(reader)")
            for relation in views.map({ "dining.\($0)" }) + tables.map({ "dining.\"\($0)\"" })
                + ["dining_changes.run", "dining_changes.change"] {
                #expect(throws: Never.self, "night \(night): \(reader) reads \(relation)") {
                    try connection.query("SELECT count(*) FROM \(relation)")
                }
            }
            // The policy lets every row through: a reader sees the night's every menu item.
            #expect(try postgresRows("SELECT count(*) FROM dining.menu_item", connection) == items, "night \(night)")
            try connection.execute("RESET ROLE")
        }
        #expect(refused(as: "outsider", "SELECT count(*) FROM dining.v_menu"), "night \(night)")
        #expect(refused(as: "outsider", "SELECT count(*) FROM dining.menu_item"), "night \(night)")
        #expect(refused(as: "outsider", "SELECT count(*) FROM dining_changes.change"), "night \(night)")
        #expect(refused(as: "anon", "DELETE FROM dining.menu_item"), "night \(night)")
        #expect(refused(as: "authenticated", "INSERT INTO dining._meta (key, value) VALUES ('x', 'y')"), "night \(night)")
        #expect(refused(as: "anon", "DELETE FROM dining_changes.change"), "night \(night)")
        let security = try connection.query("""
            SELECT n.nspname || '.' || c.relname, c.relrowsecurity, (SELECT string_agg(p.policyname || ':' || p.cmd || ':'
                || array_to_string(p.roles, ','), ' ') FROM pg_policies p WHERE p.schemaname = n.nspname AND p.tablename = c.relname)
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname IN ('dining', 'dining_changes') AND c.relkind = 'r'
            """)
        #expect(Set(security.compactMap { $0[0] })
                == Set(tables.map { "dining.\($0)" } + ["dining_changes.run", "dining_changes.change"]), "night \(night)")
        for row in security {
            #expect(row[1] == "t" && row[2] == "commissary_read:SELECT:anon,authenticated", "night \(night): \(row)")
        }
        // Every table and view the schema description describes carries its description.
        let undescribed = try connection.query("""
            SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'dining' AND c.relkind IN ('r', 'v') AND obj_description(c.oid, 'pg_class') IS NULL ORDER BY 1
            """)
        #expect(undescribed == [["food_search"], ["recipe_search"]], "night \(night)")
    }

    /// Ten nights in a row with readers, row-level security and `retention: keep_last: 5`, while
    /// a reader, as `anon`, queries in a loop: each swap is one transaction (the reader asks for
    /// the night's run id and an item renamed every other night in one statement, and sees one
    /// night or another whole, never a mix, and never a schema it may not read); after each night
    /// the readers' access is all there (`expectReadersOnly`). A dish is taken off a page on
    /// night 8 and put back on night 9. Then a client three nights behind (night 7) catches up to
    /// night 10 both ways an app may: the change files composed by `commissary changes --since`
    /// and applied by `scripts/apply-changes`, and the one query over PostgreSQL's feed applied
    /// row by row; each gives night 10's snapshot table by table. A client at night 1, behind
    /// the retention window, is told to download the snapshot whole by both.
    @Test func tenNightsAreEachSwappedInWholeWithTheirAccessAndTheirChanges() async throws {
        let scene = try ServerScene(variable: Self.variable)
        defer { scene.close() }
        let (server, workspace) = (scene.server, scene.workspace)
        let (spec, site) = try samplePipeline(in: workspace, access: """
                readers: [anon, authenticated]
                row_level_security: true
                apply_changes: false
            retention:
              keep_last: 5

            """)
        let connection = try PostgresConnection(url: server.url, place: "test")
        try connection.execute("CREATE ROLE anon NOLOGIN; CREATE ROLE authenticated NOLOGIN; CREATE ROLE outsider NOLOGIN")
        // docs/postgres.md's login role for an application: a member of a reader role, with
        // nothing granted to it itself.
        try connection.execute("CREATE ROLE menu_app LOGIN IN ROLE anon")
        let app = try PostgresConnection(url: server.url.replacingOccurrences(of: "user=postgres", with: "user=menu_app"),
                                         place: "menu_app")
        let pages = try NightPages(site: site)
        let store = SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))

        // The item 2026-10-11, first meal, first place: Covel's Greek Yogurt Parfait.
        var expected: [[String?]] = []
        var snapshots: [URL] = []
        func publish(night: Int) async throws {
            let report = try await run(spec, workspace: workspace)
            let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))
            let name = NightPages.name(renamed: night % 2 == 0)
            expected.append([report.manifest.runId, name])
            snapshots.append(snapshot)
            try expectReadersOnly(night: night, snapshot: snapshot, connection)
            // Logged in as the application's role, the night's menus and the change feed read.
            #expect(try postgresRows("SELECT count(*) FROM dining.v_menu", app)
                    == (try sqliteRows("SELECT count(*) FROM v_menu", snapshot)), "night \(night)")
            #expect(throws: Never.self) { try app.query("SELECT count(*) FROM dining_changes.run") }
            // The first night has no night before to change from, and its feed says so.
            let changeFile = URL(fileURLWithPath: snapshot.path + SnapshotStore.changesSuffix)
            #expect(FileManager.default.fileExists(atPath: changeFile.path) == (night > 1), "night \(night)")
            #expect(try connection.query("SELECT resync FROM dining_changes.run WHERE run_id = $1", [report.manifest.runId])
                    == [[night == 1 ? "t" : "f"]], "night \(night)")
        }
        try await publish(night: 1)

        let reader = NightReader(server: server.url)
        for night in 2...10 {
            try pages.write(renamed: night % 2 == 0, withoutFirstItem: night == 8)
            try await publish(night: night)
        }
        let (seen, failures) = await reader.stop()
        #expect(failures.isEmpty, "\(failures)")
        #expect(seen.isSubset(of: Set(expected)), "\(seen)")
        #expect(seen.count >= 2, "the reader saw \(seen.count) night(s)")

        // Four nights before kept for rollback (keep_last 5), the feed beside them; the feed
        // holds the five nights served.
        let runIds = expected.compactMap { $0[0] }
        let schemas = try connection.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'dining%'").compactMap { $0.first ?? nil }
        #expect(Set(schemas) == Set(["dining", "dining_changes"] + runIds[5...8].map { "dining__\($0)" }))
        #expect(try connection.query("SELECT name FROM dining__\(runIds[8]).menu_item WHERE meal_id = 2026101101 AND position = 1")
                == [[expected[8][1]]])
        #expect(try connection.query("SELECT value FROM dining._meta WHERE key = 'run_id'") == [[runIds[9]]])
        #expect(try connection.query("SELECT run_id, previous_run_id FROM dining_changes.run ORDER BY number")
                == (5...9).map { [runIds[$0], runIds[$0 - 1]] })

        // Night 10's change file is the change set from night 9, gzipped, read-only.
        let changeFile = URL(fileURLWithPath: snapshots[9].path + SnapshotStore.changesSuffix)
        #expect(try Gzip.decompress(Data(contentsOf: changeFile), place: changeFile.path)
                == Data(try ChangeSet.between(snapshots[8], snapshots[9]).json().utf8))
        #expect(try FileManager.default.attributesOfItem(atPath: changeFile.path)[.posixPermissions] as? Int == 0o444)
        #expect(try store.list().count == 5)
        #expect(!FileManager.default.fileExists(atPath: snapshots[4].path + SnapshotStore.changesSuffix))

        try await expectClientsCatchUpOrResync(snapshots: snapshots, runIds: runIds, workspace: workspace, connection)
    }

    /// The sample's two menu pages a night edits: the item 2026-10-11's first meal lists first
    /// (Covel's Greek Yogurt Parfait) renamed or not, and 2026-10-12's first item taken off or not.
    struct NightPages {
        static func name(renamed: Bool) -> String { renamed ? "Greek Yogurt Parfait Cup" : "Greek Yogurt Parfait" }

        let page: URL, original: String
        let otherPage: URL, otherOriginal: String
        /// The other page without its first <li class="menu-item"> … </li>: its first meal's first item.
        let withoutFirstItem: String

        init(site: URL) throws {
            page = site.appendingPathComponent("Menus/2026-10-11.html")
            original = try String(contentsOf: page, encoding: .utf8)
            otherPage = site.appendingPathComponent("Menus/2026-10-12.html")
            otherOriginal = try String(contentsOf: otherPage, encoding: .utf8)
            let start = try #require(otherOriginal.range(of: "<li class=\"menu-item\">"))
            let end = try #require(otherOriginal.range(of: "</li>", range: start.upperBound..<otherOriginal.endIndex))
            withoutFirstItem = otherOriginal.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "")
        }

        func write(renamed: Bool, withoutFirstItem without: Bool) throws {
            try Data(original.replacingOccurrences(of: ">Greek Yogurt Parfait</a>", with: ">\(Self.name(renamed: renamed))</a>").utf8)
                .write(to: page)
            try Data((without ? withoutFirstItem : otherOriginal).utf8).write(to: otherPage)
        }
    }

    /// A reader that asks, as `anon`, in one statement and in a loop until `stop`, for the served
    /// night's run id and the name of the item 2026-10-11's first meal lists first: the pairs it
    /// saw (each must be one night's), and what failed.
    final class NightReader: Sendable {
        private final class Seen: Sendable {
            let observations = Mutex<Set<[String?]>>([])
            let failures = Mutex<[String]>([])
        }

        private let seen: Seen
        private let reading: Task<Void, Never>

        init(server url: String) {
            let seen = Seen()
            self.seen = seen
            reading = Task.detached {
                guard let reader = try? PostgresConnection(url: url, place: "reader"), (try? reader.execute("SET ROLE anon")) != nil
                else {
                    seen.failures.withLock { $0.append("the reader could not connect") }
                    return
                }
                while !Task.isCancelled {
                    do {
                        let row = try reader.query("""
                            SELECT (SELECT value FROM dining._meta WHERE key = 'run_id'),
                                   (SELECT name FROM dining.menu_item WHERE meal_id = 2026101101 AND position = 1)
                            """)
                        if let row = row.first { seen.observations.withLock { _ = $0.insert(row) } }
                    } catch {
                        seen.failures.withLock { $0.append("\(error)") }
                    }
                    // Lets the runs' own tasks have the thread between reads.
                    await Task.yield()
                }
            }
        }

        func stop() async -> (seen: Set<[String?]>, failures: [String]) {
            reading.cancel()
            await reading.value
            return (seen.observations.withLock { $0 }, seen.failures.withLock { $0 })
        }
    }

    /// After the ten nights: a client three nights behind (night 7) gets night 10's snapshot
    /// both ways, by the change files composed with `commissary changes --since` and applied by
    /// `scripts/apply-changes`, and by the one query over PostgreSQL's feed applied row by row;
    /// a client at night 1, behind the retention window, is told to download it whole by both.
    private func expectClientsCatchUpOrResync(snapshots: [URL], runIds: [String], workspace: URL,
                                              _ connection: PostgresConnection) async throws {
        // A client three nights behind: night 7's snapshot, by the change files, then by PostgreSQL.
        let since = try await CommissaryProcess.run(["changes", "--since", runIds[6], "--workspace", workspace.path, "--format", "json"])
        #expect(since.status == 0, "\(since.error)")
        let composed = try ChangeSet(json: Data(since.output.utf8), place: "changes --since")
        #expect(composed.old.snapshot == snapshots[6].lastPathComponent && composed.new.snapshot == snapshots[9].lastPathComponent)
        // Night 8 took the dish off and night 9 put it back: one delete and one insert of its id.
        let items = try #require(composed.tables.first { $0.name == "menu_item" })
        #expect(items.deleted.count == 1 && items.inserted.count == 1 && items.deleted.first?.first == items.inserted.first?.first)
        let composedFile = workspace.appendingPathComponent("since.json")
        try Data(since.output.utf8).write(to: composedFile)
        try await ChangeSetReplay.expectReplay(of: composedFile, onto: snapshots[6], gives: snapshots[9])
        let copy = try ChangeSetReplay.writableCopy(of: snapshots[6])
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        #expect(try PostgresFeedReplay.apply(since: runIds[6], onto: copy, connection))
        try ChangeSetReplay.expectSame(copy, as: snapshots[9])

        // Behind the retention window: told in one line, exit status 8; the feed has no such run.
        for point in [runIds[0], "2000-01-01"] {
            let behind = try await CommissaryProcess.run(["changes", "--since", point, "--workspace", workspace.path, "--format", "json"])
            #expect(behind.status == 8, "\(behind.error)")
            #expect(behind.error.hasPrefix("resync: ") && behind.error.split(separator: "\n").count == 1 && behind.output.isEmpty,
                    "\(behind.error)")
        }
        let stale = try ChangeSetReplay.writableCopy(of: snapshots[9])
        defer { try? FileManager.default.removeItem(at: stale.deletingLastPathComponent()) }
        #expect(try !PostgresFeedReplay.apply(since: runIds[0], onto: stale, connection))
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
