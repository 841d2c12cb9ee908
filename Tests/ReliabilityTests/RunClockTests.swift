import Foundation
import Logging
import Pipeline
import Testing
import TestSupport

/// A run waits and stamps on the clock it is given (`RunOptions.clock`): the per-host spacing of a
/// whole night is waited on a manual clock, in no real time, and the manifest's times are that
/// clock's.
@Suite struct RunClockTests {
    private func run(_ spec: PipelineSpec, workspace: URL, clock: ManualClock) async throws -> RunReport {
        try await clock.driving {
            try await PipelineRunner(
                spec: spec,
                options: RunOptions(workspace: Workspace(root: workspace), today: SampleSite.from,
                                    clock: clock.runClock),
                observer: SilentObserver(), logger: Logger(label: "run-clock", factory: { _ in SwiftLogNoOpLogHandler() })
            ).run()
        }
    }

    /// One request a minute to the sample site (`delay_ms: 60000`): the night's requests start a
    /// minute apart on the manual clock, so the run ends as many minutes after its start, less
    /// one, as the server counted requests, and it publishes the whole sample.
    @Test func aRunWaitsItsPolitenessAndStampsItsTimesOnTheClockItIsGiven() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try SampleSite.server()
        defer { server.stop() }
        let spec = try SampleSite.spec(name: "minutely", base: server.url(""), in: folder,
                                       fetch: "timeout_seconds: 5\n  retries: 0\n  delay_ms: 60000\n  max_run_minutes: 600")
        let clock = ManualClock(wallStart: Date(timeIntervalSince1970: 1_791_763_200))

        let report = try await run(spec, workspace: folder, clock: clock)

        #expect(report.published)
        #expect(report.manifest.rowCounts["menu_item"] == SampleSite.menuItems)
        let requests = server.requests.count
        #expect(requests >= 4, "the three days and the hours at least")
        #expect(clock.now.offset == .seconds(60 * (requests - 1)))
        #expect(report.manifest.startedAt == "2026-10-12T00:00:00Z")
        let finished = Date(timeIntervalSince1970: 1_791_763_200 + 60 * Double(requests - 1))
        #expect(report.manifest.finishedAt == ISO8601DateFormatter().string(from: finished))
        // The run id is the start's time of day, to the millisecond, and two random hex digits.
        #expect(report.manifest.runId.hasPrefix("000000000"))
    }
}
