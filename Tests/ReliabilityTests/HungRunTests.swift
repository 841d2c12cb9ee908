import Foundation
import Snapshot
import Testing
import TestSupport

/// The suite's bound on one run of the binary (`CommissaryProcess.hungAfter`): a run still going
/// past its limit is killed and its test told which run it was and where it was waiting, where a
/// run that never ends would otherwise hold the whole suite until CI's time ran out, naming
/// nothing.
@Suite struct HungRunTests {
    @Test func aRunPastItsLimitIsKilledAndNamed() async throws {
        let folder = try Paths.temporaryFolder("hung")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A site that answers nothing for a minute, to a run that waits 30 s for each answer.
        let server = try TestHTTPServer(lifetime: .seconds(90)) { _, _ in Reply(delay: .seconds(60)) }
        defer { server.stop() }
        let stalled = folder.appendingPathComponent("stalled.yml")
        try Data(SampleSite.pipelineYAML(name: "stalled", base: server.url(""),
                                         fetch: "timeout_seconds: 30\n  retries: 0").utf8).write(to: stalled)
        let arguments = ["run", stalled.path, "--workspace", folder.appendingPathComponent("stalled").path]
        do {
            _ = try await CommissaryProcess.run(arguments, hungAfter: .seconds(3))
            Issue.record("a run past its limit was waited for")
        } catch let hung as CommissaryProcess.Hung {
            let lines = hung.description.split(separator: "\n").map(String.init)
            #expect(lines.first == "commissary \(arguments.joined(separator: " ")) still ran after 3.0 seconds: "
                    + "killed as hung; its standard error ended with:")
            // What it had said (its events, standard error being no terminal): the run had
            // started, and was waiting on its first partition's fetch.
            #expect(lines.dropFirst().first?.contains(#""event":"run_started""#) == true, "\(hung)")
            #expect(lines.contains { $0.contains(#""event":"partition_started","partition":"2026-10-10""#) }, "\(hung)")
        }
        #expect(server.requests.count >= 1)

        // A run of the sample site's folder, within the suite's own bound, publishes.
        let pipeline = folder.appendingPathComponent("sample.yml")
        try Data("""
            pipeline: sample
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: \(Paths.sampleSite.path)
                dates: {from: 2026-10-10, to: 2026-10-12}
            """.utf8).write(to: pipeline)
        let workspace = folder.appendingPathComponent("sample")
        let whole = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", workspace.path, "--quiet"])
        #expect(whole.status == 0, "\(whole.error)")
        #expect(SnapshotStore(directory: workspace.appendingPathComponent("snapshots")).latest(pipeline: "sample") != nil)
    }
}
