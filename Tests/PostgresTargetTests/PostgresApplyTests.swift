import Basics
import Foundation
import PostgresTarget
import Snapshot
import Synchronization
import Testing
import TestSupport

/// A night applied to the served schema in place (`PostgresApply`), held to what a full swap of
/// the same snapshot leaves, table by table and row by row. A suite of its own, beside
/// `PostgresPublishTests`, with a server per test as there.
@Suite(.serialized, .enabled(if: PrivatePostgres.available, "no PostgreSQL server installed (scripts/test installs it)"))
struct PostgresApplyTests: PostgresSampleScenes {
    static let variable = "COMMISSARY_TEST_PG_APPLY_URL"

    /// Every row of every table of `schema` (search tables included), each table's rows in one
    /// order: what two schemas are compared by.
    private func everyRow(of schema: String, _ connection: PostgresConnection) throws -> [String: [[String?]]] {
        let tables = try connection.query("""
            SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY 1
            """, [schema]).compactMap { $0.first ?? nil }
        var rows: [String: [[String?]]] = [:]
        for table in tables {
            rows[table] = try connection.query("SELECT * FROM \(schema).\"\(table)\"").sorted { "\($0)" < "\($1)" }
        }
        return rows
    }

    /// The same snapshot swapped in whole into a schema of its own, `whole`.
    private func swappedWhole(_ snapshot: URL, readers: [String], rowLevelSecurity: Bool) throws {
        _ = try PostgresPublisher.publish(snapshot, to: PostgresTarget(addressVariable: Self.variable, schema: "whole",
                                                                      readers: readers, rowLevelSecurity: rowLevelSecurity,
                                                                      applyChanges: false),
                                          keepPrevious: 1)
    }

    /// Six nights of the sample with readers and row-level security, a reader querying as
    /// `anon` in a loop: the first is swapped in (there is no night before); the next ones are
    /// applied in place (no night renamed aside), an item renamed, one taken off and put back,
    /// and after each the served schema holds what the same snapshot swapped in whole holds, row
    /// for row, search tables included, with the readers' access all there; the reader saw only
    /// whole nights. The fourth night's configuration drops a reader and row-level security: an
    /// applied night takes back what the configuration no longer gives, as a new schema would not
    /// have it (a policy and a grant made by hand go too). On the fifth, a row deleted by hand
    /// from the served schema makes the apply's count check fail: nothing of it stays, and the
    /// night is swapped in whole, right. The sixth is forced: swapped in whole too.
    @Test func nightsAppliedInPlaceLeaveWhatASwapOfTheSameSnapshotLeaves() async throws {
        let scene = try ServerScene(variable: Self.variable)
        defer { scene.close() }
        let (server, workspace) = (scene.server, scene.workspace)
        // Dishes' pages are asked every night, so that night 3's edit of one is read unforced.
        let (spec, site) = try samplePipeline(in: workspace, access: """
                readers: [anon, authenticated]
                row_level_security: true
            fetch:
              revalidate: {food_documents: always}

            """)
        let connection = try PostgresConnection(url: server.url, place: "test")
        try connection.execute("CREATE ROLE anon NOLOGIN; CREATE ROLE authenticated NOLOGIN; CREATE ROLE outsider NOLOGIN")
        let pages = try NightPages(site: site)
        // Night 3 also changes a dish's own page (its food row and search row) and a recipe of
        // the catalogue (its recipe row and search row).
        let recipePage = site.appendingPathComponent("Recipes/041172/1.html")
        let meals = site.deletingLastPathComponent().appendingPathComponent("themealdb/meals.json")
        func edit(_ file: URL, _ old: String, _ new: String) throws {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains(old), "\(file.lastPathComponent) has \(old)")
            try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: file)
        }

        // The item 2026-10-11, first meal, first place: Covel's Greek Yogurt Parfait.
        var expected: [[String?]] = []
        func publish(night: Int, renamed: Bool, withoutItem: Bool) async throws -> URL {
            try pages.write(renamed: renamed, withoutFirstItem: withoutItem)
            let report = try await run(spec, workspace: workspace, force: night == 6)
            expected.append([report.manifest.runId, NightPages.name(renamed: renamed)])
            return URL(fileURLWithPath: try #require(report.snapshotPath))
        }
        func nightsAside() throws -> [String] {
            try connection.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'dining\\_\\_%' ORDER BY 1")
                .compactMap { $0.first ?? nil }
        }
        func operations(of snapshot: URL) throws -> [[String?]] {
            try connection.query("""
                SELECT c.table_name, c.operation, count(*) FROM dining_changes.change c
                JOIN dining_changes.run r ON r.number = c.run_number
                WHERE r.run_id = $1 GROUP BY 1, 2 ORDER BY 1, 2
                """, [try SnapshotReader.meta(of: snapshot)["run_id"]])
        }

        _ = try await publish(night: 1, renamed: false, withoutItem: false)
        let reader = NightReader(server: server.url)
        for (night, renamed, withoutItem) in [(2, true, true), (3, false, false)] {
            if night == 3 {
                try edit(recipePage, "INGREDIENTS:</strong> Lacinato Kale,", "INGREDIENTS:</strong> Tuscan Kale,")
                try edit(meals, "\"strMeal\": \"Bruin Harvest Minestrone\"", "\"strMeal\": \"Bruin Harvest Soup\"")
            }
            let snapshot = try await publish(night: night, renamed: renamed, withoutItem: withoutItem)
            #expect(try nightsAside().isEmpty, "night \(night) was swapped in, not applied")
            try swappedWhole(snapshot, readers: ["anon", "authenticated"], rowLevelSecurity: true)
            #expect(try everyRow(of: "dining", connection) == everyRow(of: "whole", connection), "night \(night)")
            try expectReadersOnly(night: night, snapshot: snapshot, connection)
            // The item renamed is an update, the one taken off a delete, put back an insert.
            let changed = try operations(of: snapshot)
            #expect(changed.contains { $0[0] == "menu_item" && $0[1] == "update" }, "night \(night): \(changed)")
            #expect(changed.contains(["menu_item", night == 2 ? "delete" : "insert", "1"]), "night \(night): \(changed)")
            #expect(changed.contains(["food", "update", "1"]) == (night == 3), "night \(night): \(changed)")
            #expect(changed.contains(["recipe", "update", "1"]) == (night == 3), "night \(night): \(changed)")
            if night == 3 {
                #expect(try connection.query("""
                    SELECT count(*) FROM dining.food_search s JOIN dining.food f ON f.id = s.food_id
                    WHERE f.name = 'Kale Caesar Salad' AND s.document @@ to_tsquery('simple', 'tuscan')
                    """) == [["1"]])
                #expect(try connection.query("""
                    SELECT count(*) FROM dining.recipe_search WHERE document @@ to_tsquery('simple', 'soup & bruin')
                    """) == [["1"]])
            }
        }
        let (seen, failures) = await reader.stop()
        #expect(failures.isEmpty, "\(failures)")
        #expect(seen.isSubset(of: Set(expected)), "\(seen)")
        #expect(seen.count >= 2, "the reader saw \(seen.count) night(s)")

        // Night 4: authenticated is no longer a reader and row-level security is off; a policy
        // and a grant made by hand on the served schema go with them (the policy's name as a hand
        // may write it, with a space and a colon).
        try connection.execute("""
            CREATE POLICY "by hand: outsider" ON dining.menu_item FOR SELECT TO outsider USING (true);
            GRANT USAGE ON SCHEMA dining TO outsider; GRANT SELECT ON dining.restaurant TO outsider
            """)
        try Data(try String(contentsOf: spec, encoding: .utf8)
            .replacingOccurrences(of: "readers: [anon, authenticated]", with: "readers: [anon]")
            .replacingOccurrences(of: "row_level_security: true", with: "row_level_security: false").utf8).write(to: spec)
        let fourth = try await publish(night: 4, renamed: true, withoutItem: false)
        #expect(try nightsAside().isEmpty)
        try swappedWhole(fourth, readers: ["anon"], rowLevelSecurity: false)
        #expect(try everyRow(of: "dining", connection) == everyRow(of: "whole", connection))
        #expect(try connection.query("SELECT count(*) FROM pg_policies WHERE schemaname = 'dining'") == [["0"]])
        #expect(try connection.query("""
            SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'dining' AND c.relkind = 'r' AND c.relrowsecurity
            """) == [["0"]])
        for role in ["authenticated", "outsider"] {
            #expect(try connection.query("""
                SELECT has_schema_privilege($1, 'dining', 'USAGE'), has_table_privilege($1, 'dining.restaurant', 'SELECT'),
                       has_table_privilege($1, 'dining.menu_item', 'SELECT')
                """, [role]) == [["f", "f", "f"]], "\(role)")
        }
        #expect(try connection.query("""
            SELECT has_schema_privilege('anon', 'dining', 'USAGE'), has_table_privilege('anon', 'dining.menu_item', 'SELECT'),
                   has_table_privilege('anon', 'dining.v_menu', 'SELECT')
            """) == [["t", "t", "t"]])

        // Night 5: a row deleted by hand from the served schema; the apply's check finds the
        // count short, and the night is swapped in whole instead (night 4 renamed aside).
        try connection.execute("DELETE FROM dining.menu_item WHERE id = (SELECT max(id) FROM dining.menu_item)")
        let fifth = try await publish(night: 5, renamed: false, withoutItem: false)
        #expect(try nightsAside() == ["dining__" + (try #require(expected[3][0])).lowercased()])
        try swappedWhole(fifth, readers: ["anon"], rowLevelSecurity: false)
        #expect(try everyRow(of: "dining", connection) == everyRow(of: "whole", connection))
        #expect(try connection.query("SELECT value FROM dining._meta WHERE key = 'run_id'") == [[expected[4][0]]])
        // The feed keeps the two nights retention keeps by default, each recorded once whichever
        // way it went in: the fifth's changes from the fourth.
        let feedRuns: [[String?]] = (3..<5).map { [expected[$0][0], expected[$0 - 1][0], "f"] }
        #expect(try connection.query("SELECT run_id, previous_run_id, resync FROM dining_changes.run ORDER BY number") == feedRuns)

        // Night 6, forced (`--force`): rows only changed, but everything is built again, PostgreSQL's
        // night too: swapped in whole, the fifth renamed aside (the fourth gone with retention).
        let sixth = try await publish(night: 6, renamed: true, withoutItem: false)
        #expect(try nightsAside() == ["dining__" + (try #require(expected[4][0])).lowercased()])
        try swappedWhole(sixth, readers: ["anon"], rowLevelSecurity: false)
        #expect(try everyRow(of: "dining", connection) == everyRow(of: "whole", connection))
    }

    /// Without readers or row-level security (nothing of access to state again), a night with
    /// one item fewer is applied too, and leaves what a swap leaves.
    @Test func aNightWithoutReadersIsAppliedToo() async throws {
        let scene = try ServerScene(variable: Self.variable)
        defer { scene.close() }
        let (spec, site) = try samplePipeline(in: scene.workspace)
        let connection = try PostgresConnection(url: scene.server.url, place: "test")
        _ = try await run(spec, workspace: scene.workspace, force: false)
        try SampleCopy.removeFirstMenuItem(on: "2026-10-12", of: site)
        let second = URL(fileURLWithPath: try #require(try await run(spec, workspace: scene.workspace, force: false).snapshotPath))
        #expect(try connection.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'dining\\_\\_%'").isEmpty)
        try swappedWhole(second, readers: [], rowLevelSecurity: false)
        #expect(try everyRow(of: "dining", connection) == everyRow(of: "whole", connection))
        // 124 items in the sample (SampleData/README.md), one taken off.
        #expect(try connection.query("SELECT count(*) FROM dining.menu_item") == [["123"]])
    }

    /// Privileges on the served schema, the feed and their tables beyond the configured readers'
    /// reading, each as role, object and privilege (a grant option as `SELECT*`).
    private func privilegesBeyondReading(readers: [String], _ connection: PostgresConnection) throws -> [[String?]] {
        try connection.query("""
            SELECT coalesce(r.rolname, 'PUBLIC'), g.object, g.privilege_type || CASE WHEN g.is_grantable THEN '*' ELSE '' END
            FROM (
                SELECT a.grantee, n.nspname AS object, a.privilege_type, a.is_grantable, 'USAGE' AS reading
                FROM pg_namespace n, aclexplode(n.nspacl) a WHERE n.nspname IN ('dining', 'dining_changes') AND a.grantee <> n.nspowner
                UNION ALL
                SELECT a.grantee, n.nspname || '.' || c.relname, a.privilege_type, a.is_grantable, 'SELECT'
                FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace, aclexplode(c.relacl) a
                WHERE n.nspname IN ('dining', 'dining_changes') AND a.grantee <> c.relowner
            ) g LEFT JOIN pg_roles r ON r.oid = g.grantee
            WHERE r.rolname IS NULL OR NOT r.rolname = ANY (string_to_array($1, ',')) OR g.privilege_type <> g.reading
               OR g.is_grantable
            ORDER BY 1, 2, 3
            """, [readers.joined(separator: ",")])
    }

    /// The server gives every new table and schema ALL to `anon` and to `stranger` by default
    /// (Supabase's `ALTER DEFAULT PRIVILEGES` does so for `anon`): the swapped first night and its
    /// new feed, and a night applied in place after a hand granted more, leave `anon`, the one
    /// reader, reading alone and `stranger` nothing.
    @Test func aReaderReadsAloneWhateverTheServersDefaultPrivilegesGive() async throws {
        let scene = try ServerScene(variable: Self.variable)
        defer { scene.close() }
        let (spec, site) = try samplePipeline(in: scene.workspace, access: "    readers: [anon]\n")
        let connection = try PostgresConnection(url: scene.server.url, place: "test")
        try connection.execute("""
            CREATE ROLE anon NOLOGIN; CREATE ROLE stranger NOLOGIN;
            ALTER DEFAULT PRIVILEGES GRANT ALL ON TABLES TO anon, stranger;
            ALTER DEFAULT PRIVILEGES GRANT ALL ON SCHEMAS TO anon, stranger
            """)
        // The defaults are in force: a table made now gives both roles everything.
        try connection.execute("CREATE SCHEMA probe; CREATE TABLE probe.t (id integer)")
        #expect(try connection.query("SELECT has_table_privilege('stranger', 'probe.t', 'DELETE')") == [["t"]])

        _ = try await run(spec, workspace: scene.workspace, force: false)
        #expect(try privilegesBeyondReading(readers: ["anon"], connection) == [])
        #expect(try connection.query("""
            SELECT has_schema_privilege('anon', 'dining', 'USAGE'), has_table_privilege('anon', 'dining.menu_item', 'SELECT'),
                   has_table_privilege('anon', 'dining_changes.change', 'SELECT')
            """) == [["t", "t", "t"]])

        try connection.execute("""
            GRANT INSERT ON dining.menu_item TO anon; GRANT SELECT ON dining.food TO anon WITH GRANT OPTION;
            GRANT CREATE ON SCHEMA dining_changes TO anon; GRANT SELECT ON dining.food TO stranger
            """)
        try SampleCopy.removeFirstMenuItem(on: "2026-10-12", of: site)
        _ = try await run(spec, workspace: scene.workspace, force: false)
        // Applied in place: no night was renamed aside.
        #expect(try connection.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'dining\\_\\_%'").isEmpty)
        #expect(try connection.query("SELECT count(*) FROM dining.menu_item") == [["123"]])
        #expect(try privilegesBeyondReading(readers: ["anon"], connection) == [])
        #expect(try connection.query("""
            SELECT has_table_privilege('anon', 'dining.food', 'SELECT'), has_table_privilege('anon', 'dining.menu_item', 'INSERT')
            """) == [["t", "f"]])
    }

    /// A client reading the change feed in a long transaction does not hold up the night, nor is
    /// made to wait: the feed's access is already as configured, so the night takes no lock on
    /// its tables that a reader's blocks. It used to restate the feed's row-level security and
    /// policy every night, each under the table's `ACCESS EXCLUSIVE` lock: the apply gave up
    /// after 60 s, and the swap it fell back to waited without a bound.
    @Test func aClientReadingTheFeedDoesNotHoldUpTheNight() async throws {
        let scene = try ServerScene(variable: Self.variable)
        defer { scene.close() }
        let (spec, site) = try samplePipeline(in: scene.workspace, access: "    readers: [anon]\n    row_level_security: true\n")
        let connection = try PostgresConnection(url: scene.server.url, place: "test")
        try connection.execute("CREATE ROLE anon NOLOGIN")
        _ = try await run(spec, workspace: scene.workspace, force: false)
        let client = try PostgresConnection(url: scene.server.url, place: "client")
        try client.execute("BEGIN; SELECT count(*) FROM dining_changes.run; SELECT count(*) FROM dining_changes.change")

        try SampleCopy.removeFirstMenuItem(on: "2026-10-12", of: site)
        let finished = Finished()
        let night = Task {
            defer { finished.mark() }
            return try await run(spec, workspace: scene.workspace, force: false)
        }
        var waited = false
        for _ in 0..<150 where !finished.isMarked {
            // A lock not granted is the night waiting on the client.
            let pending = try connection.query("SELECT count(*) FROM pg_locks WHERE NOT granted").first?.first ?? nil
            waited = waited || pending != "0"
            try await Task.sleep(for: .milliseconds(200))
        }
        let beforeTheClientEnded = finished.isMarked
        try client.execute("COMMIT")
        _ = try await night.value
        #expect(beforeTheClientEnded && !waited)
        // Applied in place, the item gone.
        #expect(try connection.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'dining\\_\\_%'").isEmpty)
        #expect(try connection.query("SELECT count(*) FROM dining.menu_item") == [["123"]])
        #expect(try connection.query("SELECT count(*) FROM dining_changes.run") == [["2"]])
    }

    /// Whether a task has ended, asked from another.
    private final class Finished: Sendable {
        private let ended = Mutex(false)
        func mark() { ended.withLock { $0 = true } }
        var isMarked: Bool { ended.withLock { $0 } }
    }
}
