
#if canImport(Glibc)
import Basics
import Fetching
import Foundation
import Glibc
import Pipeline
import Snapshot
import SnapshotTestSupport
import Testing
import TestSupport
#endif

/// Kill real runs of the binary at seeded random moments until 62 were hit (52 with SIGKILL, 10
/// with SIGTERM, which asks for a clean stop), spread over fetch, parse, write and publish. The pipeline reads the SampleData site from a server on 127.0.0.1 (so
/// requests can be counted) and the 442 real meals (so parse, write and publish take long enough
/// to be hit). After every kill: `latest` is the last good snapshot or an equal one, every file
/// with a final name is sound and complete, and the good file is byte for byte unchanged. Every
/// few kills a run is let finish: it must publish, and reuse every partition the killed runs had
/// finished instead of asking the server again.
@Suite(.serialized) struct RandomKillTests {
    static let seed: UInt64 = 20_261_012
    static let kills = 62
    /// Every sixth kill is a SIGTERM: 10 of the 62.
    static let termEvery = 6
    static let recoverEvery = 6

    /// `force` for the runs that are killed: their inputs never change, so without it every run
    /// after the first would stop at revalidation and no kill would land in fetching, parsing
    /// or publishing.
    private func start(_ pipeline: URL, workspace: URL, force: Bool = false) throws -> Process {
        try CommissaryProcess.start(["run", pipeline.path, "--workspace", workspace.path, "--log-format", "json"]
                                    + (force ? ["--force"] : []))
    }

    @Test func killedRunsLoseNothingAndTheNextRunResumes() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let server = try SampleSite.server(lifetime: .seconds(600))
        defer { server.stop() }
        let pipeline = workspace.appendingPathComponent("killed.yml")
        try Data("""
            pipeline: killed
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: \(server.url(""))
                dates: {from: 2026-10-10, to: 2026-10-12}
              - name: mealdb
                adapter: mealdb-dump
                location: \(Paths.mealDump.path)
            checks:
              min_menu_items: 100
              min_recipes: 400
            fetch:
              timeout_seconds: 5
              retries: 1
              delay_ms: 0
            """.utf8).write(to: pipeline)
        let snapshots = workspace.appendingPathComponent("snapshots")
        let store = SnapshotStore(directory: snapshots)
        let ledger = workspace.appendingPathComponent("state/killed.ledger.sqlite")

        #expect(try await CommissaryProcess.exit(of: try start(pipeline, workspace: workspace)) == 0)
        // The killed runs are forced (they fetch everything again): time one of those.
        let clock = ContinuousClock()
        let started = clock.now
        #expect(try await CommissaryProcess.exit(of: try start(pipeline, workspace: workspace, force: true)) == 0)
        // The estimate of a run's length follows the machine's load: a run that ends before its
        // kill came shows how long runs take now.
        var fullRun = clock.now - started
        let good = try #require(store.latest(pipeline: "killed"))
        let goodBytes = sha256Hex(try Data(contentsOf: good))
        let goodCounts = try SnapshotReader.rowCounts(of: good)
        #expect(goodCounts["menu_item"] == SampleSite.menuItems)
        #expect(goodCounts["recipe"] == 442)

        var generator = SeededGenerator(seed: Self.seed)
        var killed = 0
        var terminated = 0
        let staging = workspace.appendingPathComponent("staging")
        func stagingFiles() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? [] }
        var resumedPartitions = 0
        var recoveries = 0
        var index = 0
        // Runs that end before their moment do not count; the attempts are bounded all the same.
        while killed < Self.kills, index < Self.kills * 3 {
            index += 1
            // Uniform over the whole run, to its usual end, so publishing is hit too. A SIGTERM
            // is sent only once the run has started (below): before `run` installs its handlers
            // the process is still starting up, and the signal ends it as a SIGKILL would.
            let term = killed % Self.termEvery == Self.termEvery - 1
            let moment = fullRun * Double.random(in: (term ? 0.2 : 0.02)...0.95, using: &generator)
            let runStarted = clock.now
            let leftBefore = Set(stagingFiles())
            let process = try start(pipeline, workspace: workspace, force: true)
            try await Task.sleep(for: moment)
            // Starting can outlast the moment on a loaded machine (other suites run beside this
            // one): a SIGTERM waits until the staging folder changes (the run removes what a
            // killed run left there, then makes its own database, both after it has installed its
            // handlers), or for the run's end.
            while term, process.isRunning, Set(stagingFiles()) == leftBefore, clock.now - runStarted < .seconds(30) {
                try await Task.sleep(for: .milliseconds(5))
            }
            if process.isRunning {
                kill(process.processIdentifier, term ? SIGTERM : SIGKILL)
                killed += 1
                let status = try await CommissaryProcess.exit(of: process)
                if term {
                    terminated += 1
                    // A clean stop (143), a run that was already past publishing (0), or one
                    // stopped while it drew the report page of the snapshot it had published (5:
                    // published, the page left to the next run): either way nothing is left in staging.
                    #expect([143, 0, 5].contains(status), "SIGTERM at kill \(index): exit \(status)")
                    #expect(stagingFiles().isEmpty, "staging after SIGTERM at kill \(index): \(stagingFiles())")
                }
            } else {
                _ = try await CommissaryProcess.exit(of: process)
                fullRun = clock.now - runStarted
            }

            let latest = try #require(store.latest(pipeline: "killed"), "latest lost after kill \(index) (seed \(Self.seed))")
            #expect(try SnapshotReader.rowCounts(of: latest) == goodCounts, "kill \(index)")
            #expect(sha256Hex(try Data(contentsOf: good)) == goodBytes, "kill \(index)")
            try expectSoundSnapshots(snapshots)
            for name in try FileManager.default.contentsOfDirectory(atPath: snapshots.path)
            where name.hasSuffix(".sqlite") && !name.hasPrefix(".") {
                #expect(try SnapshotReader.rowCounts(of: snapshots.appendingPathComponent(name)) == goodCounts,
                        "kill \(index): \(name)")
            }

            guard index % Self.recoverEvery == 0 else { continue }
            // What the killed runs finished, and the requests made so far for those days.
            let state = try StateLedger(url: ledger)
            let interrupted = Set(try state.interruptedRuns())
            let partitions = ["2026-10-10", "2026-10-11", "2026-10-12", "hours"].map { ("ucla-menu", $0) }
                + [("mealdb", "catalogue")]
            let finished = try partitions.compactMap { try state.states(source: $0.0)[$0.1] }
                .filter { $0.status == .done && interrupted.contains($0.runId) }
            let dayRequests = { (key: String) in server.requests(to: "/Menus/\(key)").count }
            let daysBefore = Dictionary(uniqueKeysWithValues: finished.map { ($0.key, dayRequests($0.key)) })
            #expect(try await CommissaryProcess.exit(of: try start(pipeline, workspace: workspace)) == 0, "recovery after kill \(index)")
            recoveries += 1
            let recovered = try #require(store.latest(pipeline: "killed"))
            #expect(try SnapshotReader.rowCounts(of: recovered) == goodCounts)
            let manifest = try UserJSON.decoder().decode(
                RunManifest.self, from: Data(contentsOf: URL(fileURLWithPath: recovered.path + ".manifest.json")))
            for partition in finished {
                let status = manifest.partitions.first { $0.source == partition.source && $0.key == partition.key }?.status
                #expect(status == .reused, "\(partition.source)/\(partition.key) after kill \(index)")
                if let requests = daysBefore[partition.key], partition.source == "ucla-menu", partition.key != "hours" {
                    #expect(dayRequests(partition.key) == requests, "/Menus/\(partition.key) fetched again")
                }
            }
            resumedPartitions += finished.count
        }
        let hidden = try FileManager.default.contentsOfDirectory(atPath: snapshots.path).filter { $0.hasPrefix(".") }
        // Only a run killed after the last recovery may leave a hidden file; the next run clears it.
        #expect(try await CommissaryProcess.exit(of: try start(pipeline, workspace: workspace)) == 0)
        let left = try FileManager.default.contentsOfDirectory(atPath: snapshots.path).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "leftovers after the last run: \(left) (before it: \(hidden))")
        #expect(stagingFiles().isEmpty, "staging after the last run: \(stagingFiles())")
        #expect(killed - terminated >= 50, "only \(killed - terminated) runs were still running when their SIGKILL came")
        #expect(terminated >= 10, "only \(terminated) runs were still running when their SIGTERM came")
        #expect(resumedPartitions > 0, "no kill left a finished partition to resume")
        print("RandomKillTests: \(killed - terminated) runs killed and \(terminated) stopped (seed \(Self.seed)), \(recoveries) recoveries, "
              + "\(resumedPartitions) partitions resumed, full run \(fullRun)")
    }
}
