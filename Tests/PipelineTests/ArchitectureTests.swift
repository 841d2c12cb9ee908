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

        var importing: Set<String> = []
        for (module, folder) in try Paths.moduleFolders() {
            let files = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
            for file in files where file.hasSuffix(".swift") {
                let code = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                if code.split(separator: "\n").contains(where: { $0.hasPrefix("import GRDB") }) { importing.insert(module) }
            }
        }
        #expect(!named.isEmpty)
        #expect(importing == named, "imported by \(importing.sorted()), named \(named.sorted())")
    }

    /// `ls Sources` reads as the flow: every module lives in the step folder the architecture's
    /// layout table gives it, the steps are numbered in the order of a night, and no folder holds
    /// more than 15 Swift files side by side.
    @Test func sourcesAreLaidOutAsTheArchitectureSays() throws {
        let text = try String(contentsOf: Paths.packageRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        var documented: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") && line.contains("-") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2, cells[0].first == "`", cells[0].dropFirst().first?.isNumber == true else { continue }
            let step = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            for module in cells[1].split(separator: ",") {
                documented[module.trimmingCharacters(in: CharacterSet(charactersIn: "` "))] = step
            }
        }
        let folders = try Paths.moduleFolders()
        #expect(documented.count == folders.count)
        for (module, folder) in folders {
            #expect(documented[module] == folder.deletingLastPathComponent().lastPathComponent, "\(module)")
        }
        let steps = try FileManager.default.contentsOfDirectory(atPath: Paths.packageRoot.appendingPathComponent("Sources").path)
        #expect(steps.sorted().map { $0.prefix(2) } == ["0-", "1-", "2-", "3-", "4-", "5-", "6-", "7-", "8-"])

        for (module, folder) in folders {
            let all = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
            let byFolder = Dictionary(grouping: all.filter { $0.hasSuffix(".swift") }) {
                ($0 as NSString).deletingLastPathComponent
            }
            for (subfolder, files) in byFolder {
                #expect(files.count <= 15, "\(module)/\(subfolder) holds \(files.count) Swift files")
            }
        }
    }
}
