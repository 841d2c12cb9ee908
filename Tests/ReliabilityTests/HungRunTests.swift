import Foundation
import Snapshot
import Testing
import TestSupport

/// The suite's bound on one run of the binary (`CommissaryProcess.hungAfter`): a run still going
/// past its limit is killed and its test told which run it was, where a run that never ends
/// would otherwise hold the whole suite until CI's time ran out, naming nothing.
@Suite struct HungRunTests {
    @Test func aRunPastItsLimitIsKilledAndNamed() async throws {
        let folder = try Paths.temporaryFolder("hung")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = folder.appendingPathComponent("hung.yml")
        try Data("""
            pipeline: hung
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: \(Paths.sampleSite.path)
                dates: {from: 2026-10-10, to: 2026-10-12}
            """.utf8).write(to: pipeline)
        let workspace = folder.appendingPathComponent("workspace")
        let arguments = ["run", pipeline.path, "--workspace", workspace.path, "--quiet"]
        // Three days of the sample site read, parsed, checked and published take far longer
        // than this limit: the run is killed before it publishes.
        do {
            _ = try await CommissaryProcess.run(arguments, hungAfter: .milliseconds(20))
            Issue.record("a run past its limit was waited for")
        } catch let hung as CommissaryProcess.Hung {
            #expect(hung.description.hasPrefix("commissary run \(pipeline.path) --workspace \(workspace.path) --quiet"))
            #expect(hung.description.hasSuffix("killed as hung"))
        }
        let store = SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))
        #expect(store.latest(pipeline: "hung") == nil)
        // The same run within the suite's own bound publishes.
        let whole = try await CommissaryProcess.run(arguments)
        #expect(whole.status == 0, "\(whole.error)")
        #expect(store.latest(pipeline: "hung") != nil)
    }
}
