import Foundation
import Testing
import TestSupport

/// What the binary prints is its own: one line per failure, never a library's.
@Suite struct OutputTests {
    /// A day whose page declares an encoding its bytes break: libxml2 used to print "encoding
    /// error : input conversion failed" on standard error before Commissary's own line.
    @Test func libxml2PrintsNothingOfItsOwn() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        try FileManager.default.copyItem(at: Paths.sampleSite, to: site)
        var broken = Data(#"<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-2022-jp"></head><body>"#.utf8)
        broken.append(contentsOf: [0x1B, 0x24, 0x42, 0xFF, 0xFE, 0x80])
        broken.append(Data("</body></html>".utf8))
        try broken.write(to: site.appendingPathComponent("Menus/2026-10-11.html"))
        let pipeline = folder.appendingPathComponent("encoding.yml")
        try Data("""
            pipeline: encoding
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: site
                dates: {from: 2026-10-10, to: 2026-10-12}
            checks:
              max_failed_partitions: 1
            """.utf8).write(to: pipeline)
        let run = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path,
                                                   "--log-format", "json"])
        #expect(run.status == 0, "\(run.error)")
        // Standard error carries the run's events and nothing else: every line is one of them,
        // and the day's damage is reported among them.
        let lines = run.error.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "\(line)")
        }
        #expect(run.error.contains("Menus/2026-10-11"))
    }
}
