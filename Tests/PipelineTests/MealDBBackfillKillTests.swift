import Foundation
import Pipeline
import Snapshot
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real `commissary run` of the API backfill, SIGKILLed after some letters are done, then run
/// again: the second run must finish the catalogue without asking again for any letter the
/// first had committed to the ledger.
@Suite(.serialized) struct MealDBBackfillKillTests {
    /// The binary SwiftPM built beside this test bundle (the test target depends on it).
    private var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("commissary")
    }

    private func start(_ pipeline: URL, workspace: URL, _ flags: [String] = []) throws -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["run", pipeline.path, "--workspace", workspace.path, "--log-format", "json"] + flags
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Polls without holding a thread of the cooperative pool (see KillTests).
    private func exit(of process: Process) async throws -> Int32 {
        while process.isRunning {
            try await Task.sleep(for: .milliseconds(5))
        }
        return process.terminationStatus
    }

    @Test func aKilledBackfillResumesWithoutAskingAgainForFinishedLetters() async throws {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            Issue.record("the commissary binary is not built at \(binary.path)")
            return
        }
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let workspace = folder.appendingPathComponent("workspace")
        let server = try MealDBTestServer(answer: try MealDBMirror().answer)
        defer { server.stop() }
        // 10 requests a second: the 37 partitions take about 4 s, long enough to stop midway.
        let pipeline = try BackfillFixtures.apiPipeline(
            name: "recipes-api", base: server.base, in: folder, fetch: "requests_per_second: 10\ndelay_ms: 0")

        let killed = try start(pipeline, workspace: workspace)
        let deadline = ContinuousClock.now + .seconds(60)
        while server.arrivals.count < 12, killed.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(killed.isRunning, "the backfill ended before it could be stopped midway")
        if killed.isRunning { kill(killed.processIdentifier, SIGKILL) }
        _ = try await exit(of: killed)
        #expect(killed.terminationReason == .uncaughtSignal)

        let ledger = try StateLedger(url: Workspace(root: workspace).ledger(pipeline: "recipes-api"))
        let finished = try ledger.all().filter { $0.status == .done }.map(\.key)
        #expect(finished.count >= 5 && finished.count < 37, "finished before the kill: \(finished)")
        #expect(try ledger.interruptedRun() != nil)
        #expect(SnapshotStore(directory: workspace.appendingPathComponent("snapshots")).latest(pipeline: "recipes-api") == nil)

        #expect(try await exit(of: try start(pipeline, workspace: workspace)) == 0)
        let counts = server.counts
        for path in MealDBMirror.letterPaths {
            let letter = String(path.suffix(1))
            if finished.contains(letter) {
                #expect(counts[path] == 1, "\(path) was finished before the kill, then asked again")
            } else {
                // Unfinished letters: asked by the resumed run, and at most once before (the
                // request in flight when the kill came).
                #expect((1...2).contains(counts[path] ?? 0), "\(path): \(counts[path] ?? 0) requests")
            }
        }
        let latest = try #require(SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))
            .latest(pipeline: "recipes-api"))
        let dump = try await BackfillFixtures.dumpCatalogue(in: folder)
        #expect(try BackfillFixtures.catalogue(of: latest) == dump)

        // --full-refresh replays nothing: every letter and categories.php are asked once more.
        #expect(try await exit(of: try start(pipeline, workspace: workspace, ["--full-refresh"])) == 0)
        let refreshed = server.counts
        for path in MealDBMirror.letterPaths + [MealDBMirror.categoriesPath] {
            #expect(refreshed[path] == (counts[path] ?? 0) + 1, "\(path)")
        }
        let newest = try #require(SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))
            .latest(pipeline: "recipes-api"))
        #expect(try BackfillFixtures.catalogue(of: newest) == dump)
    }
}
