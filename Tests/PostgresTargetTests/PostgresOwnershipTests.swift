import Foundation
import PostgresTarget
import Testing
import TestSupport

/// A publish renames the served schema aside every night and retention drops old nights: done to
/// a schema an application made, that destroys the application's data. The real binary, nights in
/// a row, against a private server holding an application's own tables. Each test has a server
/// of its own and gives its address to its runs alone, so the tests run side by side.
@Suite(.enabled(if: PrivatePostgres.available, "no PostgreSQL server installed (scripts/test installs it)"))
struct PostgresOwnershipTests {
    static let variable = "COMMISSARY_OWNERSHIP_PG_URL"

    /// A private server, a workspace and a connection to the server: what each test starts from;
    /// `close` stops the one and removes the other.
    private struct Scene {
        let server: PrivatePostgres
        let workspace: URL
        let connection: PostgresConnection

        init() throws {
            server = try PrivatePostgres()
            do {
                workspace = try Paths.temporaryFolder()
                connection = try PostgresConnection(url: server.url, place: "test")
            } catch {
                server.stop()
                throw error
            }
        }

        func close() {
            server.stop()
            try? FileManager.default.removeItem(at: workspace)
        }
    }

    /// The bundled sample, publishing into `schema` too.
    /// `swapped`: every night built whole and swapped in (`apply_changes: false`), the night
    /// before kept for rollback.
    private func pipeline(schema: String, retention: String = "", swapped: Bool = false, in workspace: URL) throws -> URL {
        try SampleCopy.make(in: workspace, adding: """

            publish:
              postgres:
                url_env: \(Self.variable)
                schema: \(schema)
                apply_changes: \(!swapped)
            \(retention)
            """).spec
    }

    /// `count` forced runs of `spec`, one after the other; `quiet`: without the progress and
    /// warnings a run shows.
    private func nights(_ count: Int, of spec: URL, server: PrivatePostgres, workspace: URL, quiet: Bool = true) async throws
        -> [CommissaryProcess.Outcome] {
        var outcomes: [CommissaryProcess.Outcome] = []
        for _ in 0..<count {
            outcomes.append(try await CommissaryProcess.run(
                ["run", spec.path, "--workspace", workspace.path, "--force"] + (quiet ? ["--quiet"] : []),
                environment: [Self.variable: server.url]))
        }
        return outcomes
    }

    /// An application's table, with one row that says whose it is.
    private func applicationTable(in schema: String, _ connection: PostgresConnection) throws {
        try connection.execute("""
            CREATE SCHEMA IF NOT EXISTS \(schema);
            CREATE TABLE \(schema).app_user (id integer PRIMARY KEY, email text);
            INSERT INTO \(schema).app_user VALUES (1, 'owner@example.edu')
            """)
    }

    private func applicationRows(in schema: String, _ connection: PostgresConnection) throws -> [[String?]] {
        try connection.query("SELECT id, email FROM \(schema).app_user")
    }

    @Test func thePublicSchemaIsRefusedWhenThePipelineIsRead() async throws {
        let scene = try Scene()
        defer { scene.close() }
        let (server, workspace, connection) = (scene.server, scene.workspace, scene.connection)
        try applicationTable(in: "public", connection)

        let spec = try pipeline(schema: "public", in: workspace)
        let outcomes = try await nights(3, of: spec, server: server, workspace: workspace)
        for outcome in outcomes {
            #expect(outcome.status == 1)
            let lines = outcome.error.split(separator: "\n")
            #expect(lines.count == 1, "\(outcome.error)")
            #expect(outcome.error.contains("publish.postgres.schema") && outcome.error.contains("\"public\""), "\(outcome.error)")
        }
        #expect(try applicationRows(in: "public", connection) == [["1", "owner@example.edu"]])
        #expect(try connection.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'public\\_\\_%'").isEmpty)
    }

    /// The configured schema already exists and is the application's: every night publishes its
    /// SQLite snapshot, says PostgreSQL was not updated and why, and touches nothing there; a
    /// schema that merely looks like a night kept for rollback (`dining__archive`) is not
    /// retention's either.
    @Test func anApplicationsSchemaOfTheSameNameSurvivesEveryNight() async throws {
        let scene = try Scene()
        defer { scene.close() }
        let (server, workspace, connection) = (scene.server, scene.workspace, scene.connection)
        try applicationTable(in: "dining", connection)
        try applicationTable(in: "dining__archive", connection)

        let spec = try pipeline(schema: "dining", retention: "retention:\n  keep_last: 1\n", in: workspace)
        let outcomes = try await nights(3, of: spec, server: server, workspace: workspace)
        for outcome in outcomes {
            // Published as SQLite; what follows it (PostgreSQL) failed: docs/postgres.md's status 5.
            #expect(outcome.status == 5, "\(outcome.error)")
            #expect(outcome.error.contains("schema dining exists and was not made by Commissary (it holds app_user)"),
                    "\(outcome.error)")
        }
        #expect(try applicationRows(in: "dining", connection) == [["1", "owner@example.edu"]])
        #expect(try applicationRows(in: "dining__archive", connection) == [["1", "owner@example.edu"]])
        let schemas = try connection.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'dining%' ORDER BY 1")
        #expect(schemas == [["dining"], ["dining__archive"]])
    }

    /// The configured schema exists holding an application's composite type alone: it is no
    /// relation, so the schema looked empty, made ahead of the first night, and was renamed aside.
    @Test func aSchemaHoldingAnApplicationsTypeAloneIsNotTaken() async throws {
        let scene = try Scene()
        defer { scene.close() }
        let (server, workspace, connection) = (scene.server, scene.workspace, scene.connection)
        try connection.execute("CREATE SCHEMA dining; CREATE TYPE dining.opening AS (opens time, closes time)")

        let spec = try pipeline(schema: "dining", in: workspace)
        let outcomes = try await nights(1, of: spec, server: server, workspace: workspace)
        #expect(outcomes.map(\.status) == [5], "\(outcomes.map(\.error))")
        #expect(outcomes.first?.error.contains("schema dining exists and was not made by Commissary (it holds type dining.opening)")
                == true, "\(outcomes.map(\.error))")
        #expect(try connection.query("SELECT ('09:00', '17:00')::dining.opening::text") == [["(09:00:00,17:00:00)"]])
        #expect(try connection.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'dining%' ORDER BY 1") == [["dining"]])
    }

    /// Our own schema is served and retention keeps what it is told to, while an application's
    /// schema named like a night kept for rollback stays; a schema published before schemas were
    /// marked (its comment removed here) is recognised by its tables and published over.
    @Test func retentionDropsOnlyTheNightsItMade() async throws {
        let scene = try Scene()
        defer { scene.close() }
        let (server, workspace, connection) = (scene.server, scene.workspace, scene.connection)
        try applicationTable(in: "shop__reports", connection)
        // Schemas of an application's functions alone, a collation alone, a text-search
        // configuration alone, an operator alone, named like nights kept for rollback: holding
        // no relation, the last three looked empty, ours to drop.
        try connection.execute("""
            CREATE SCHEMA shop__api;
            CREATE FUNCTION shop__api.greeting() RETURNS text LANGUAGE sql AS $$ SELECT 'hello' $$;
            CREATE SCHEMA shop__collation; CREATE COLLATION shop__collation.bytes FROM "C";
            CREATE SCHEMA shop__search; CREATE TEXT SEARCH CONFIGURATION shop__search.plain (COPY = simple);
            CREATE SCHEMA shop__operator;
            CREATE OPERATOR shop__operator.=== (LEFTARG = integer, RIGHTARG = integer, FUNCTION = int4eq)
            """)

        let spec = try pipeline(schema: "shop", retention: "retention:\n  keep_last: 2\n", swapped: true, in: workspace)
        let first = try await nights(1, of: spec, server: server, workspace: workspace)
        #expect(first.map(\.status) == [0], "\(first.map(\.error))")
        try connection.execute("COMMENT ON SCHEMA shop IS NULL")
        let later = try await nights(3, of: spec, server: server, workspace: workspace)
        #expect(later.map(\.status) == [0, 0, 0], "\(later.map(\.error))")

        #expect(try applicationRows(in: "shop__reports", connection) == [["1", "owner@example.edu"]])
        #expect(try connection.query("SELECT shop__api.greeting()") == [["hello"]])
        #expect(try connection.query("SELECT 'a' < 'b' COLLATE shop__collation.bytes") == [["t"]])
        #expect(try connection.query("SELECT to_tsvector('shop__search.plain', 'Dining')::text") == [["'dining':1"]])
        #expect(try connection.query("SELECT 2 OPERATOR(shop__operator.===) 2") == [["t"]])
        // keep_last 2: the served night and one kept for rollback, besides the application's.
        let kept = try connection.query("""
            SELECT nspname FROM pg_namespace WHERE nspname LIKE 'shop\\_\\_%'
            AND nspname NOT IN ('shop__reports', 'shop__api', 'shop__collation', 'shop__search', 'shop__operator')
            """)
        #expect(kept.count == 1, "\(kept)")
        let marks = try connection.query("""
            SELECT nspname FROM pg_namespace WHERE nspname LIKE 'shop%'
            AND obj_description(oid, 'pg_namespace') LIKE 'Commissary%' ORDER BY 1
            """).compactMap { $0.first ?? nil }
        #expect(marks.count == 3 && marks.contains("shop") && marks.contains("shop_changes") && !marks.contains("shop__reports"),
                "\(marks)")
    }

    /// The run id of the night `schema` holds.
    private func runId(in schema: String, _ connection: PostgresConnection) throws -> String? {
        try connection.query("SELECT value FROM \(schema)._meta WHERE key = 'run_id'").first?.first ?? nil
    }

    /// An application's view over the served night and a foreign key into it stop a night that
    /// would be swapped in (after the rename they would read the night renamed aside, and
    /// retention's CASCADE would drop them with it): the SQLite snapshot is published, PostgreSQL
    /// keeps serving the night they read, and both survive every night.
    @Test func anApplicationsViewAndKeyOnTheServedNightStopTheSwapAndSurvive() async throws {
        let scene = try Scene()
        defer { scene.close() }
        let (server, workspace, connection) = (scene.server, scene.workspace, scene.connection)
        let spec = try pipeline(schema: "dining", retention: "retention:\n  keep_last: 2\n", swapped: true, in: workspace)
        let first = try await nights(1, of: spec, server: server, workspace: workspace)
        #expect(first.map(\.status) == [0], "\(first.map(\.error))")
        let served = try runId(in: "dining", connection)
        let restaurants = try connection.query("SELECT count(*) FROM dining.restaurant").first?.first ?? nil
        try connection.execute("""
            CREATE SCHEMA app;
            CREATE VIEW app.places AS SELECT id, name FROM dining.restaurant;
            CREATE TABLE app.favourite (id integer PRIMARY KEY, food_id text REFERENCES dining.food (id))
            """)

        let later = try await nights(2, of: spec, server: server, workspace: workspace)
        for outcome in later {
            #expect(outcome.status == 5, "\(outcome.error)")
            #expect(outcome.error.contains("view app.places") && outcome.error.contains("constraint favourite_food_id_fkey"),
                    "\(outcome.error)")
            #expect(outcome.error.contains("was not swapped in"), "\(outcome.error)")
        }
        #expect(try runId(in: "dining", connection) == served)
        #expect(try connection.query("SELECT count(*) FROM app.places").first?.first == restaurants)
        #expect(try connection.query("""
            SELECT 1 FROM pg_constraint WHERE conname = 'favourite_food_id_fkey' AND confrelid = 'dining.food'::regclass
            """).count == 1)
        // Nothing was left half made, and no night was renamed aside.
        #expect(try connection.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'dining\\_\\_%'").isEmpty)
    }

    /// Retention keeps, with a warning, an old night an application's view reads, and drops the
    /// rest; the nights go on being published.
    @Test func retentionKeepsAnOldNightAnApplicationsViewReads() async throws {
        let scene = try Scene()
        defer { scene.close() }
        let (server, workspace, connection) = (scene.server, scene.workspace, scene.connection)
        let spec = try pipeline(schema: "dining", retention: "retention:\n  keep_last: 2\n", swapped: true, in: workspace)
        let first = try await nights(2, of: spec, server: server, workspace: workspace)
        #expect(first.map(\.status) == [0, 0], "\(first.map(\.error))")
        let aside = try connection.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'dining\\_\\_%'")
            .compactMap { $0.first ?? nil }
        try #require(aside.count == 1, "\(aside)")
        try connection.execute("CREATE SCHEMA archive; CREATE VIEW archive.old_places AS SELECT id, name FROM \(aside[0]).restaurant")

        let later = try await nights(2, of: spec, server: server, workspace: workspace, quiet: false)
        #expect(later.map(\.status) == [0, 0], "\(later.map(\.error))")
        for outcome in later {
            let said = outcome.output + outcome.error
            #expect(said.contains("view archive.old_places depends on this schema") && said.contains(aside[0]), "\(said)")
        }
        #expect(try connection.query("SELECT count(*) FROM archive.old_places").first?.first != "0")
        // The kept night, and the night before the served one: the night between them was dropped.
        let kept = try connection.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'dining\\_\\_%' ORDER BY 1")
            .compactMap { $0.first ?? nil }
        #expect(kept.count == 2 && kept.contains(aside[0]), "\(kept)")
    }

    /// A second pipeline naming a schema that serves another's nights is refused every night,
    /// and the first goes on publishing there; a publish while another holds the schema is
    /// refused, leaving the night served, and the next run sends the night.
    @Test func oneSchemaServesOnePipelineAndOnePublishAtATime() async throws {
        let server = try PrivatePostgres()
        defer { server.stop() }
        let first = try Paths.temporaryFolder()
        let second = try Paths.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        let connection = try PostgresConnection(url: server.url, place: "test")
        let spec = try pipeline(schema: "dining", in: first)
        let other = try pipeline(schema: "dining", in: second)
        let text = try String(contentsOf: other, encoding: .utf8)
        try #require(text.contains("\npipeline: sample\n"))
        try Data(text.replacingOccurrences(of: "\npipeline: sample\n", with: "\npipeline: sample-east\n").utf8).write(to: other)

        let opening = try await nights(1, of: spec, server: server, workspace: first)
        #expect(opening.map(\.status) == [0], "\(opening.map(\.error))")
        let served = try runId(in: "dining", connection)
        let intruding = try await nights(2, of: other, server: server, workspace: second)
        for outcome in intruding {
            #expect(outcome.status == 5, "\(outcome.error)")
            #expect(outcome.error.contains("schema dining serves the pipeline sample, and this is sample-east"), "\(outcome.error)")
        }
        #expect(try runId(in: "dining", connection) == served)
        #expect(try connection.query("SELECT count(*) FROM dining_changes.run") == [["1"]])

        // Another publish holds the schema: this one waits for it, and is refused after its
        // `lock_wait_seconds`, touching nothing.
        let holder = try PostgresConnection(url: server.url, place: "holder")
        try holder.execute("SELECT pg_advisory_lock(hashtext('commissary publish dining'))")
        let patient = try String(contentsOf: spec, encoding: .utf8)
        try Data(patient.replacingOccurrences(of: "    schema: dining\n", with: "    schema: dining\n    lock_wait_seconds: 1\n").utf8)
            .write(to: spec)
        let waiting = try await nights(1, of: spec, server: server, workspace: first)
        #expect(waiting.map(\.status) == [5], "\(waiting.map(\.error))")
        #expect(waiting.first?.error.contains("another publish into this schema is running") == true, "\(waiting.map(\.error))")
        #expect(waiting.first?.error.contains("held it for 1 s") == true, "\(waiting.map(\.error))")
        #expect(try runId(in: "dining", connection) == served)

        // With the default wait (60 s), a run asked to stop while it waits stops at once.
        try Data(patient.utf8).write(to: spec)
        let holderSession = try holder.query("SELECT pg_backend_pid()").first?.first ?? nil
        /// Until the publish has connected (it takes the lock first thing), then a second more.
        func untilThePublishWaits() async throws {
            var waited = 0
            while try connection.query("""
                SELECT 1 FROM pg_stat_activity
                WHERE application_name = 'commissary' AND pid <> pg_backend_pid() AND pid::text <> $1
                """, [holderSession]).isEmpty, waited < 600 {
                try await Task.sleep(for: .milliseconds(100))
                waited += 1
            }
            #expect(waited < 600, "the publish never connected")
            try await Task.sleep(for: .seconds(1))
        }
        let stopped = try CommissaryProcess.start(["run", spec.path, "--workspace", first.path, "--force", "--quiet"],
                                                  environment: [Self.variable: server.url])
        try await untilThePublishWaits()
        let asked = ContinuousClock.now
        kill(stopped.processIdentifier, SIGTERM)
        #expect(try await CommissaryProcess.exit(of: stopped) != 0)
        #expect(ContinuousClock.now - asked < .seconds(30), "the run waited out the lock instead of stopping")
        #expect(try runId(in: "dining", connection) == served)

        // A publish started while the other holds the schema goes in once the other lets go: a
        // run killed a moment before holds it until its session ends.
        async let afterWaiting = nights(1, of: spec, server: server, workspace: first)
        try await untilThePublishWaits()
        #expect(try runId(in: "dining", connection) == served)
        try holder.execute("SELECT pg_advisory_unlock(hashtext('commissary publish dining'))")
        let after = try await afterWaiting
        #expect(after.map(\.status) == [0], "\(after.map(\.error))")
        #expect(try runId(in: "dining", connection) != served)
    }
}
