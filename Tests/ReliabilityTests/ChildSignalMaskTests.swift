import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Programs the suite starts get the signal mask a shell, cron or systemd gives them
/// (`Process.runWithSignalsUnblocked`), not the Dispatch worker thread's, which blocks SIGTERM:
/// otherwise a server `timeout` bounds outlives the suite, and the signal tests stop a process no
/// scheduler starts.
@Suite struct ChildSignalMaskTests {
    /// Async, as most of the suite's tests are: those run on the worker threads whose mask a
    /// program would inherit.
    @Test func aProgramStartedByATestHasNoSignalBlocked() async throws {
        // grep reads its own mask; a shell between would clear it (dash does, as it starts).
        let outcome = try ExternalProgram.run(URL(fileURLWithPath: "/bin/grep"), ["^SigBlk", "/proc/self/status"])
        #expect(outcome.status == 0)
        #expect(outcome.output == "SigBlk:\t0000000000000000\n")
    }

    @Test func aProgramStartedByATestStopsOnSIGTERM() async throws {
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        try CommissaryProcess.launch(sleeper)
        defer { if sleeper.isRunning { kill(sleeper.processIdentifier, SIGKILL) } }
        sleeper.terminate()
        let deadline = Date().addingTimeInterval(10)
        while sleeper.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!sleeper.isRunning, "SIGTERM did not stop a program the suite started")
        if !sleeper.isRunning {
            #expect(try await CommissaryProcess.exit(of: sleeper) == SIGTERM)
        }
    }
}
