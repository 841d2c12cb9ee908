
#if canImport(Glibc)
import Basics
import Fetching
import Foundation
import Glibc
import Snapshot
import Testing
import TestSupport
#endif

/// SIGKILL real runs of the `commissary` binary at moments spread over a whole run (fetch,
/// parse, normalize, publish): the last published snapshot and `latest` must survive intact, no
/// partial file may carry a final name, and the next run must succeed.
@Suite(.serialized) struct KillTests {
    /// Sample menus plus the 442 real meals, so a run lasts long enough to be hit mid-stage.
    private func pipelineFile(in folder: URL) throws -> URL {
        let file = folder.appendingPathComponent("kill.yml")
        let yaml = """
            pipeline: kill
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: \(Paths.sampleData.appendingPathComponent("menu.dining.ucla.edu").path)
                dates: {from: 2026-10-10, to: 2026-10-12}
              - name: mealdb
                adapter: mealdb-dump
                location: \(Paths.sharedData.appendingPathComponent("themealdb/meals-dump-442.json").path)
            checks:
              min_menu_items: 100
              min_recipes: 400
            """
        try Data(yaml.utf8).write(to: file)
        return file
    }

    private func start(_ pipeline: URL, workspace: URL) throws -> Process {
        try CommissaryProcess.start(["run", pipeline.path, "--workspace", workspace.path, "--log-format", "json"])
    }

    /// Every file with a final name must be a sound, complete snapshot.
    private func assertNothingPartial(_ snapshots: URL, expectedMenuItems: Int) throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: snapshots.path)) ?? []
        for name in names where name.hasSuffix(".sqlite") && !name.hasPrefix(".") {
            let file = snapshots.appendingPathComponent(name)
            let problems = try SnapshotReader.open(file).read { db in try SnapshotReader.verify(db) }
            #expect(problems.isEmpty, "\(name): \(problems)")
            #expect(try SnapshotReader.rowCounts(of: file)["menu_item"] == expectedMenuItems, "\(name)")
        }
    }

    @Test func killedRunsNeverDamageTheLastGoodSnapshot() async throws {
        guard FileManager.default.isExecutableFile(atPath: CommissaryProcess.binary.path) else {
            Issue.record("the commissary binary is not built at \(CommissaryProcess.binary.path)")
            return
        }
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let pipeline = try pipelineFile(in: workspace)
        let snapshots = workspace.appendingPathComponent("snapshots")
        let store = SnapshotStore(directory: snapshots)

        let clock = ContinuousClock()
        let started = clock.now
        let firstStatus = try await CommissaryProcess.exit(of: try start(pipeline, workspace: workspace))
        let fullRun = clock.now - started
        #expect(firstStatus == 0)
        let good = try #require(store.latest(pipeline: "kill"))
        let goodBytes = sha256Hex(try Data(contentsOf: good))
        let goodCounts = try SnapshotReader.rowCounts(of: good)
        #expect(goodCounts["recipe"] == 442)

        let seconds = Double(fullRun.components.seconds) + Double(fullRun.components.attoseconds) / 1e18
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
}
