import Basics
import FoodModel
import Foundation
import Testing
import TestSupport

/// Every error is one `Failure`: its line is `place: message`, its cause is kept and said once,
/// and its code decides the exit status. The last two tests read the lines the real binary prints.
@Suite struct FailureShapeTests {
    @Test func aPlaceRendersAsFileLineColumnAndKeyAsURLOrAsRow() {
        #expect(Failure.Place("p.yml", line: 4, column: 13, key: "sources[0].adapter").description
                == "p.yml:4:13: sources[0].adapter")
        #expect(Failure.Place("https://h.example/menu").description == "https://h.example/menu")
        #expect(Failure.Place("menu.csv", row: 12).description == "menu.csv: row 12")
        #expect(Failure.Place("p.yml", key: "").description == "p.yml")
        let located = Failure(.pipelineFile, "is required", at: Failure.Place("p.yml", line: 2, column: 1, key: "pipeline"))
        #expect(located.description == "p.yml:2:1: pipeline: is required")
        #expect(Failure(.blocked, "not published").description == "not published")
    }

    @Test func aCauseIsKeptAndItsWordsSaidOnce() {
        let full = POSIXError(.ENOSPC)
        let words = String(cString: strerror(ENOSPC))
        let said = Failure(.fileSystem, "cannot write: \(words)", at: "/w/out", cause: full)
        #expect(said.description == "/w/out: cannot write: \(words)")
        #expect((said.cause as? POSIXError)?.code == .ENOSPC)
        let unsaid = Failure(.fileSystem, "cannot write the manifest", at: "/w/m.json", cause: full)
        #expect(unsaid.description == "/w/m.json: cannot write the manifest (\(words))")
        // A failure wrapping a failure says the inner message once, however it was written in.
        let inner = Failure.badInput("no meals", at: "f.json")
        let outer = Failure(.snapshot, "cannot write the dataset: \(inner)", at: "s.sqlite", cause: inner)
        #expect(outer.description == "s.sqlite: cannot write the dataset: f.json: no meals")
        // A reader's report over several lines is kept, not printed: the message says what it means.
        let report = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "line 1\nline 2"))
        let summarized = Failure(.pipelineFile, "not valid YAML: a tab", at: "p.yml", cause: report)
        #expect(summarized.description == "p.yml: not valid YAML: a tab")
        #expect(summarized.cause is DecodingError)
        // Foundation's own file errors are system words too.
        let missing = CocoaError(.fileReadNoSuchFile)
        let read = Failure(.pipelineFile, "cannot read the pipeline file", at: "p.yml", cause: missing)
        #expect(read.description == "p.yml: cannot read the pipeline file (\(String(cString: strerror(ENOENT))))")
    }

    /// Each code's category, as the README's exit-status table says it: the machine's faults
    /// are `environment` (4), a document's or a file's are `badInput` (1).
    @Test func eachCodeKnowsItsCategory() {
        let expected: [(Failure.Code, Failure.Category)] = [
            (.badInput, .badInput), (.pipelineFile, .badInput), (.unknownName, .badInput),
            (.credentialsInAddress, .badInput), (.damagedBytes, .badInput), (.snapshot, .badInput),
            (.refusedPartition, .badInput), (.notFound, .badInput), (.httpStatus, .badInput),
            (.transport, .environment), (.timeout, .environment), (.tooLarge, .badInput), (.truncated, .badInput),
            (.tooManyRedirects, .badInput), (.invalidURL, .badInput), (.tlsVerification, .badInput),
            (.store, .environment), (.deadline, .environment), (.cancelled, .badInput),
            (.fileSystem, .environment), (.output, .environment), (.damagedRawIndex, .environment),
            (.damagedLedger, .environment), (.postgres, .environment), (.locked, .locked), (.blocked, .blocked),
            (.interrupted, .interrupted), (.publishedIncompletely, .publishedIncompletely),
            (.publishedStale, .publishedStale),
        ]
        for (code, category) in expected {
            #expect(code.category == category, "\(code)")
        }
        #expect(Set(expected.map(\.0.name)).count == expected.count)
    }

    /// Bytes Commissary wrote for itself and found altered read as a sentence, not a type name.
    @Test func damagedBytesReadAsOneSentence() {
        var bytes = [UInt8](ServiceDayBytes.encode([ServiceDay(date: ServiceDate(year: 2026, month: 10, day: 12)!,
                                                                meals: [])]))
        bytes[0] = 0xFF
        let error = #expect(throws: Failure.self) { try ServiceDayBytes.decode(Data(bytes)) }
        #expect(error?.code == .damagedBytes)
        #expect(error?.description == "data Commissary wrote for itself was cut short or altered since; "
                + "run again to write it anew")
    }

    /// A pipeline whose source names an adapter the registry does not have: the binary says the
    /// file, line, column and key, and exits with status 1.
    @Test func anUnknownAdapterInAPipelineFileNamesTheFileAndKey() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("unknown.yml")
        // Line 4, column 14: where `sodexo` starts.
        try Data("""
            pipeline: unknown
            sources:
              - name: menus
                adapter: sodexo
                location: https://dining.example/menus
            """.utf8).write(to: file)
        let run = try await CommissaryProcess.run(["run", file.path, "--workspace", folder.path, "--quiet"])
        #expect(run.status == 1)
        let lines = run.error.split(separator: "\n")
        #expect(lines.count == 1, "\(run.error)")
        #expect(lines.first?.hasPrefix("error: \(file.path):4:14: sources[0].adapter: unknown adapter \"sodexo\"; "
                                        + "known adapters: ucla-menu-site, ") == true, "\(run.error)")
    }

    /// `parse --adapter` with a name the registry does not have names the option.
    @Test func anUnknownAdapterGivenToParseNamesTheOption() async throws {
        let parse = try await CommissaryProcess.run(["parse", "--adapter", "sodexo", "menu.html"])
        #expect(parse.status == 1)
        #expect(parse.error.hasPrefix("error: --adapter: unknown adapter \"sodexo\"; known adapters: "), "\(parse.error)")
    }
}
