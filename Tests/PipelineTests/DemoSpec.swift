import Foundation
import Pipeline
import TestSupport

/// A small pipeline file read by `SpecReader`: one UCLA menu-site source over an empty folder,
/// and `extra` (top-level keys) after it. What the spec tests of one key start from.
enum DemoSpec {
    static func read(adding extra: String) throws -> PipelineSpec {
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
            \(extra)
            """.utf8).write(to: file)
        return try SpecReader.read(file)
    }

    /// The error reading the file with `extra` gives, as one line; "no error" when it reads.
    static func refusal(adding extra: String) -> String {
        do {
            _ = try read(adding: extra)
            return "no error"
        } catch {
            return "\(error)"
        }
    }
}
