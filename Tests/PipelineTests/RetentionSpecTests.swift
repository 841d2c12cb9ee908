import Foundation
import Pipeline
import Snapshot
import Testing
import TestSupport

@Suite struct RetentionSpecTests {
    private func read(_ retention: String) throws -> PipelineSpec {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("site"), withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("test.yml")
        try Data("""
            pipeline: demo
            sources:
              - name: menus
                adapter: ucla-menu-site
                location: site
                dates: {from: 2026-10-10}
            \(retention)
            """.utf8).write(to: file)
        return try SpecReader.read(file)
    }

    private func message(_ retention: String) -> String {
        do {
            _ = try read(retention)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func readsKeepLastAndKeepMonthly() throws {
        #expect(try read("retention: {keep_last: 7, keep_monthly: 12}").retention
                == RetentionPolicy(keepLast: 7, keepMonthly: 12))
        #expect(try read("retention:\n  keep_monthly: 3").retention == RetentionPolicy(keepLast: 0, keepMonthly: 3))
        #expect(try read("").retention == nil)
    }

    @Test func namesTheKeyAndLineOfABadSetting() {
        let unknown = message("retention:\n  keep_daily: 3")
        #expect(unknown.contains("test.yml:8"))
        #expect(unknown.contains("retention.keep_daily: unknown key; allowed here: keep_last, keep_monthly"))
        #expect(message("retention: {keep_last: -1}").contains("retention.keep_last: must be between 0 and 100000, found -1"))
        #expect(message("retention: {keep_last: two}").contains("retention.keep_last: expected a whole number"))
        #expect(message("retention: {}").contains("retention: give `keep_last`, `keep_monthly`, or both"))
    }
}
