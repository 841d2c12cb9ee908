import Foundation
import Testing
import TestSupport

/// What docs/architecture.md promises about the modules, held against the code.
@Suite struct ArchitectureTests {
    /// The modules whose sources import GRDB are exactly those the architecture's GRDB paragraph
    /// names before "not by": a module that starts reading SQLite on its own fails here until
    /// the document says why.
    @Test func grdbIsImportedOnlyWhereTheArchitectureSays() throws {
        let text = try String(contentsOf: Paths.packageRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let start = try #require(text.range(of: "**GRDB is imported by"))
        let end = try #require(text.range(of: "; not by", range: start.upperBound..<text.endIndex))
        let named = Set(text[start.upperBound..<end.lowerBound].split(separator: "`").enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) })

        let sources = Paths.packageRoot.appendingPathComponent("Sources")
        var importing: Set<String> = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            let folder = sources.appendingPathComponent(module)
            let files = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
            for file in files where file.hasSuffix(".swift") {
                let code = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                if code.split(separator: "\n").contains(where: { $0.hasPrefix("import GRDB") }) { importing.insert(module) }
            }
        }
        #expect(!named.isEmpty)
        #expect(importing == named, "imported by \(importing.sorted()), named \(named.sorted())")
    }
}
