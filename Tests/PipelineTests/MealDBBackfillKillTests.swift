import Foundation
import TestSupport
import Pipeline
import Snapshot
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// SIGKILLs a process when the server receives its `number`th request, once.
final class KillOnRequest: @unchecked Sendable {
    private let lock = NSLock()
    private let number: Int
    private var received = 0
    private var process: pid_t?

    init(number: Int) {
        self.number = number
    }

    func arm(_ process: pid_t) {
        lock.withLock { self.process = process }
    }

    func arrived() {
        lock.withLock {
            received += 1
            if received == number, let process {
                kill(process, SIGKILL)
                self.process = nil
            }
        }
    }
}

/// A real `commissary run` of the API backfill, SIGKILLed after some letters are done, then run
/// again: the second run must finish the catalogue without asking again for any letter the
/// first had committed to the ledger.
@Suite(.serialized) struct MealDBBackfillKillTests {
    private func start(_ pipeline: URL, workspace: URL, _ flags: [String] = []) throws -> Process {
        try CommissaryProcess.start(["run", pipeline.path, "--workspace", workspace.path, "--log-format", "json"]
                                    + flags)
    }

    @Test func aKilledBackfillResumesWithoutAskingAgainForFinishedLetters() async throws {
        guard FileManager.default.isExecutableFile(atPath: CommissaryProcess.binary.path) else {
            Issue.record("the commissary binary is not built at \(CommissaryProcess.binary.path)")
            return
        }
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let workspace = folder.appendingPathComponent("workspace")
        let mirror = try MealDBMirror()
        let trigger = KillOnRequest(number: 12)
        let server = try TestHTTPServer(lifetime: .seconds(120)) { request, _ in
            trigger.arrived()
            return mirror.answer(request.path)
        }
        defer { server.stop() }
        let pipeline = try BackfillFixtures.apiPipeline(
            name: "recipes-api", base: server.url(""), in: folder, fetch: "requests_per_second: 20\ndelay_ms: 0")

        // The server itself kills the run when the 12th request (letter l) arrives: a to j are
        // committed by then, k at most parsing and l in flight. Killing from the
        // server's thread, not from a test task, keeps the moment exact on a loaded machine.
        let killed = try start(pipeline, workspace: workspace)
        trigger.arm(killed.processIdentifier)
        _ = try await CommissaryProcess.exit(of: killed)
        #expect(killed.terminationReason == .uncaughtSignal)

        let ledger = try StateLedger(url: Workspace(root: workspace).ledger(pipeline: "recipes-api"))
        let keys = Array("abcdefghijklmnopqrstuvwxyz0123456789").map(String.init) + ["categories"]
        let finished = try keys.filter { try ledger.states(source: "mealdb")[$0]?.status == .done }
        // Two partitions run side by side, so k may still be parsing when l's request arrives:
        // a to j at least are committed, in order.
        #expect(finished.count >= 10 && finished == Array(keys.prefix(finished.count)), "\(finished)")
        #expect(try ledger.interruptedRuns().last != nil)
        #expect(SnapshotStore(directory: workspace.appendingPathComponent("snapshots")).latest(pipeline: "recipes-api") == nil)

        #expect(try await CommissaryProcess.exit(of: try start(pipeline, workspace: workspace)) == 0)
        let counts = server.requestCounts
        for path in MealDBMirror.letterPaths {
            let letter = String(path.suffix(1))
            // Finished letters are never asked again; those in flight at the kill are, once.
            #expect(finished.contains(letter) ? counts[path] == 1 : (1...2).contains(counts[path] ?? 0),
                    "\(path): \(counts[path] ?? 0) requests")
        }
        let latest = try #require(SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))
            .latest(pipeline: "recipes-api"))
        let dump = try await BackfillFixtures.dumpCatalogue(in: folder)
        #expect(try BackfillFixtures.catalogue(of: latest) == dump)

        // --full-refresh replays nothing: every letter and categories.php are asked once more.
        #expect(try await CommissaryProcess.exit(of: try start(pipeline, workspace: workspace, ["--full-refresh"])) == 0)
        let refreshed = server.requestCounts
        for path in MealDBMirror.letterPaths + [MealDBMirror.categoriesPath] {
            #expect(refreshed[path] == (counts[path] ?? 0) + 1, "\(path)")
        }
        let newest = try #require(SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))
            .latest(pipeline: "recipes-api"))
        #expect(try BackfillFixtures.catalogue(of: newest) == dump)
    }
}
