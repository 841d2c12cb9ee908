import Basics
import Foundation
import Pipeline
import PostgresTarget
import Snapshot
import SnapshotTestSupport
import Testing
import TestSupport

/// Ten nights of the sample swapped into PostgreSQL in turn while a reader reads, and clients
/// that catch up from the feed or are told to resync: a suite of its own, beside
/// `PostgresPublishTests`, with its own server and variable, so that the two run side by side.
@Suite(.serialized, .enabled(if: PrivatePostgres.available, "no PostgreSQL server installed (scripts/test installs it)"))
struct PostgresNightsTests: PostgresSampleScenes {
    static let variable = "COMMISSARY_TEST_PG_NIGHTS_URL"

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
}
