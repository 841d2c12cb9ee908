import Foundation
import Snapshot
import Testing
import TestSupport

/// A site that cannot be reached is the environment's trouble (exit 4), not the data's (3): the
/// machine's network, DNS or the site itself, reported in one line; a check on data that was
/// read and found wanting still exits 3.
@Suite struct UnreachableSiteTests {
    /// A port on 127.0.0.1 that nothing listens on: a test server's, once it has stopped.
    private func deadAddress() throws -> String {
        let server = try SampleSite.server()
        let address = server.url("")
        server.stop()
        return address
    }

    private func pipeline(_ name: String, base: String, in folder: URL, checks: String = "min_menu_items: 30")
        throws -> [String] {
        let file = folder.appendingPathComponent("\(name).yml")
        try Data(SampleSite.pipelineYAML(name: name, base: base, checks: checks,
                                         fetch: "timeout_seconds: 2\n  retries: 0\n  delay_ms: 0").utf8).write(to: file)
        return ["run", file.path, "--workspace", folder.path, "--log-format", "text"]
    }

    private func errorLines(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.hasPrefix("error: ") || $0.hasPrefix("warning: ") }
    }

    @Test func aFirstNightOnASiteNobodyAnswersExitsFourInOneLine() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await CommissaryProcess.run(try pipeline("down", base: try deadAddress(), in: folder))
        #expect(run.status == 4, "\(run.error)")
        let lines = errorLines(run.error)
        #expect(lines.count == 1, "\(run.error)")
        // The sample site's three days, 2026-10-10 to -12, and its hours page: each refused a connection.
        // One reason, said once for the four (it was said four times over).
        #expect(lines.first?.hasPrefix("error: the site could not be reached for 4 partition(s): "
                                       + "2026-10-10, 2026-10-11, 2026-10-12, hours (ucla-menu, each: ") == true, "\(run.error)")
        let line = String(lines.first ?? "")
        #expect(line.components(separatedBy: "Couldn't connect to server").count == 2, "\(line)")
        #expect(line.contains("; the first at http://"), "\(line)")
        #expect(line.contains("; not published; the previous snapshot stays latest (manifest: \(folder.path)/state/runs/down/"),
                "\(line)")
        #expect(line.hasSuffix(".manifest.json)"), "\(line)")
        #expect(run.error.split(separator: "\n").last == lines.first)
        #expect(SnapshotStore(directory: folder.appendingPathComponent("snapshots")).latest(pipeline: "down") == nil)
    }

    @Test func daysCarriedStaleBecauseTheSiteIsDownExitFour() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try SampleSite.server()
        #expect(try await CommissaryProcess.run(try pipeline("night", base: server.url(""), in: folder)).status == 0)
        server.stop()
        let night = try await CommissaryProcess.run(try pipeline("night", base: server.url(""), in: folder))
        #expect(night.status == 4, "\(night.error)")
        let lines = errorLines(night.error)
        #expect(lines.count == 1, "\(night.error)")
        let line = String(lines.first ?? "")
        // Three days and the hours page, each its last good version.
        #expect(line.hasPrefix("error: the site could not be reached for 4 partition(s): "
                               + "2026-10-10, 2026-10-11, 2026-10-12, hours (ucla-menu, each: "), "\(line)")
        #expect(line.components(separatedBy: "Couldn't connect to server").count == 2, "\(line)")
        #expect(line.contains("; published with 4 stale partition(s), each its last good version"), "\(line)")
        #expect(night.output.contains("Partitions: 0 fetched, 0 reused, 4 stale, 0 failed"), "\(night.output)")
    }

    /// Pages that were read and hold too few items: the data's trouble, a blocking check, 3.
    @Test func tooFewItemsOnPagesThatWereReadStillExitThree() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try SampleSite.server()
        defer { server.stop() }
        let run = try await CommissaryProcess.run(
            try pipeline("few", base: server.url(""), in: folder, checks: "min_menu_items: 1000"))
        #expect(run.status == 3, "\(run.error)")
        let lines = errorLines(run.error)
        #expect(lines.count == 1)
        // SampleData/README.md: 124 menu items over the three days.
        #expect(lines.first?.hasPrefix("error: not published: \(SampleSite.menuItems) menu items (at least 1000 required)")
                == true, "\(run.error)")
    }
}
