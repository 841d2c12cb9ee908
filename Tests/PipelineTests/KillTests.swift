
#if canImport(Glibc)
import Basics
import Fetching
import Foundation
import Glibc
import Snapshot
import SnapshotTestSupport
import Testing
import TestSupport
#endif

/// SIGKILL real runs of the `commissary` binary at moments spread over a whole run (fetch,
/// parse, normalize, publish): the last published snapshot and `latest` must survive intact, no
/// partial file may carry a final name, and the next run must succeed.
@Suite(.serialized) struct KillTests {
    /// Sample menus (the bundled site, or `site`) plus the 442 real meals, so a run lasts long
    /// enough to be hit mid-stage.
    private func pipelineFile(in folder: URL, site: URL = Paths.sampleSite) throws -> URL {
        let file = folder.appendingPathComponent("kill.yml")
        let yaml = """
            pipeline: kill
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: \(site.path)
                dates: {from: 2026-10-10, to: 2026-10-12}
              - name: mealdb
                adapter: mealdb-dump
                location: \(Paths.sharedData.appendingPathComponent("themealdb/meals-dump-442.json").path)
            checks:
              min_menu_items: 100
              min_recipes: 400
              # The continued runs take one day's items off its page one by one until the dinners
              # of the last halls on it are gone, a degraded day that would be kept stale; the
              # kills are what these runs test, so the day is published as read.
              degraded_day: {missing_meals: warn}
            """
        try Data(yaml.utf8).write(to: file)
        return file
    }

    private func start(_ pipeline: URL, workspace: URL) throws -> Process {
        try CommissaryProcess.start(["run", pipeline.path, "--workspace", workspace.path, "--log-format", "json"])
    }

    private func binaryIsBuilt() -> Bool {
        guard FileManager.default.isExecutableFile(atPath: CommissaryProcess.binary.path) else {
            Issue.record("the commissary binary is not built at \(CommissaryProcess.binary.path)")
            return false
        }
        return true
    }

    /// Runs the pipeline to its end: its exit status and how long it took, for kills spread over
    /// a run like it.
    private func timed(_ pipeline: URL, workspace: URL) async throws -> (status: Int32, seconds: Double) {
        let clock = ContinuousClock()
        let started = clock.now
        let status = try await CommissaryProcess.exit(of: try start(pipeline, workspace: workspace))
        let took = clock.now - started
        return (status, Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18)
    }

    /// Every file with a final name must be a sound, complete snapshot (with `expectedMenuItems`
    /// items, when given).
    private func assertNothingPartial(_ snapshots: URL, expectedMenuItems: Int?) throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: snapshots.path)) ?? []
        for name in names where name.hasSuffix(".sqlite") && !name.hasPrefix(".") {
            let file = snapshots.appendingPathComponent(name)
            let problems = try SnapshotReader.open(file).read { db in try SnapshotReader.verify(db) }
            #expect(problems.isEmpty, "\(name): \(problems)")
            if let expectedMenuItems {
                #expect(try SnapshotReader.rowCounts(of: file)["menu_item"] == expectedMenuItems, "\(name)")
            }
        }
    }

    @Test func killedRunsNeverDamageTheLastGoodSnapshot() async throws {
        guard binaryIsBuilt() else { return }
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let pipeline = try pipelineFile(in: workspace)
        let snapshots = workspace.appendingPathComponent("snapshots")
        let store = SnapshotStore(directory: snapshots)

        let (firstStatus, seconds) = try await timed(pipeline, workspace: workspace)
        #expect(firstStatus == 0)
        let good = try #require(store.latest(pipeline: "kill"))
        let goodBytes = sha256Hex(try Data(contentsOf: good))
        let goodCounts = try SnapshotReader.rowCounts(of: good)
        #expect(goodCounts["recipe"] == 442)

        let fractions = [0.02, 0.1, 0.25, 0.4, 0.55, 0.7, 0.8, 0.88, 0.94, 0.98]
        for fraction in fractions {
            let process = try start(pipeline, workspace: workspace)
            try await Task.sleep(for: .seconds(seconds * fraction))
            kill(process.processIdentifier, SIGKILL)
            _ = try await CommissaryProcess.exit(of: process)

            let latest = try #require(store.latest(pipeline: "kill"), "latest lost after a kill at \(fraction)")
            if latest == good {
                #expect(sha256Hex(try Data(contentsOf: good)) == goodBytes)
            }
            #expect(try SnapshotReader.rowCounts(of: latest) == goodCounts)
            try assertNothingPartial(snapshots, expectedMenuItems: goodCounts["menu_item"] ?? -1)
            #expect(sha256Hex(try Data(contentsOf: good)) == goodBytes)
        }

        #expect(try await CommissaryProcess.exit(of: try start(pipeline, workspace: workspace)) == 0)
        let final = try #require(store.latest(pipeline: "kill"))
        #expect(try SnapshotReader.rowCounts(of: final) == goodCounts)
        try assertNothingPartial(snapshots, expectedMenuItems: goodCounts["menu_item"] ?? -1)
        let hidden = try FileManager.default.contentsOfDirectory(atPath: snapshots.path).filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty, "leftovers after the recovery run: \(hidden)")
    }

    /// The same kills over runs that continue the latest snapshot: before each, one more item
    /// leaves a day's page, so every run copies the latest snapshot into staging, keeps two days
    /// and writes one. Whatever a kill interrupts (the copy, the day, the publication), `latest`
    /// stays a sound snapshot, nothing partial takes a final name, the recovery run leaves
    /// `staging/` empty, and the night after it publishes the rows of a full write of the same
    /// pages.
    @Test func killedContinuedRunsNeverDamageTheLastGoodSnapshot() async throws {
        guard binaryIsBuilt() else { return }
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let site = workspace.appendingPathComponent("site")
        try FileManager.default.copyItem(at: Paths.sampleSite, to: site)
        let pipeline = try pipelineFile(in: workspace, site: site)
        let snapshots = workspace.appendingPathComponent("snapshots")
        let store = SnapshotStore(directory: snapshots)
        let page = site.appendingPathComponent("Menus/2026-10-11.html")

        #expect(try await CommissaryProcess.exit(of: try start(pipeline, workspace: workspace)) == 0)
        try MenuPageEdits.removeLastItem(of: page)
        let (status, seconds) = try await timed(pipeline, workspace: workspace)
        #expect(status == 0)
        // That run kept the two days that did not change (its manifest's write stage says so).
        let manifest = try #require(store.latest(pipeline: "kill")).path + ".manifest.json"
        let stages = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest)))
            as? [String: Any])["stages"] as? [[String: Any]]
        let write = try #require(stages?.first { $0["name"] as? String == "write" })
        #expect((write["counts"] as? [String: Int])?["days_kept"] == 2)

        for fraction in [0.02, 0.1, 0.25, 0.4, 0.55, 0.7, 0.8, 0.88, 0.94, 0.98] {
            let before = try #require(store.latest(pipeline: "kill"))
            let beforeBytes = sha256Hex(try Data(contentsOf: before))
            try MenuPageEdits.removeLastItem(of: page)
            let process = try start(pipeline, workspace: workspace)
            try await Task.sleep(for: .seconds(seconds * fraction))
            kill(process.processIdentifier, SIGKILL)
            _ = try await CommissaryProcess.exit(of: process)

            let latest = try #require(store.latest(pipeline: "kill"), "latest lost after a kill at \(fraction)")
            #expect(sha256Hex(try Data(contentsOf: before)) == beforeBytes, "the snapshot it started from changed")
            try assertNothingPartial(snapshots, expectedMenuItems: nil)
            #expect(try SnapshotReader.rowCounts(of: latest)["recipe"] == 442)
        }

        #expect(try await CommissaryProcess.exit(of: try start(pipeline, workspace: workspace)) == 0)
        try assertNothingPartial(snapshots, expectedMenuItems: nil)
        let staging = try FileManager.default.contentsOfDirectory(atPath: workspace.appendingPathComponent("staging").path)
        #expect(staging.isEmpty, "left in staging/: \(staging)")
        let hidden = try FileManager.default.contentsOfDirectory(atPath: snapshots.path).filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty, "leftovers after the recovery run: \(hidden)")

        // The recovery run resumes the killed one and publishes the pages it had fetched, which
        // may be a page older than the folder's; the next night compares every page again.
        #expect(try await CommissaryProcess.exit(of: try start(pipeline, workspace: workspace)) == 0)
        let final = try #require(store.latest(pipeline: "kill"))
        let fresh = workspace.appendingPathComponent("fresh")
        #expect(try await CommissaryProcess.exit(of: try start(pipeline, workspace: fresh)) == 0)
        let written = try #require(SnapshotStore(directory: fresh.appendingPathComponent("snapshots")).latest(pipeline: "kill"))
        #expect(try SnapshotReader.rowCounts(of: final) == SnapshotReader.rowCounts(of: written))
        for table in ["menu_item", "meal", "service_day", "section", "restaurant", "_day_rows"] {
            let query = "SELECT * FROM \(table) ORDER BY 1"
            #expect(try QueryResult.run(query, on: final) == QueryResult.run(query, on: written), "\(table)")
        }
    }
}
