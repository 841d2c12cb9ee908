import Foundation
import Testing
import TestSupport

/// `commissary query` runs what an analyst types: a recursive CTE that never ends and
/// `zeroblob(1e9)` used to run without a limit. Each now stops in one line, with status 1.
@Suite struct QueryLimitsTests {
    /// A published sample snapshot to query.
    private func published() async throws -> URL {
        let folder = try Paths.temporaryFolder()
        let pipeline = folder.appendingPathComponent("limits.yml")
        try Data("""
            pipeline: limits
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: \(Paths.sampleSite.path)
                dates: {from: 2026-10-10, to: 2026-10-12}
            """.utf8).write(to: pipeline)
        let run = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path, "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        return folder
    }

    private func expectOneLine(_ run: CommissaryProcess.Outcome, saying words: String,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == 1, "\(run.status) \(run.error)", sourceLocation: sourceLocation)
        #expect(run.output.isEmpty, sourceLocation: sourceLocation)
        let lines = run.error.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("error: ") && lines[0].contains(words), "\(run.error)",
                sourceLocation: sourceLocation)
    }

    static let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"

    @Test func aQueryThatNeverEndsStopsAtItsTimeout() async throws {
        let folder = try await published()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ContinuousClock()
        let started = clock.now
        let run = try await CommissaryProcess.run(["query", "latest", Self.endless + " SELECT count(*) FROM c",
                                                   "--timeout", "1", "--workspace", folder.path])
        let took = clock.now - started
        expectOneLine(run, saying: "query stopped after 1 s (--timeout)")
        #expect(took >= .seconds(1) && took < .seconds(10), "\(took)")
    }

    /// SQLite's own limit on a value is a billion bytes, which `zeroblob(1e9)` reaches; the
    /// query then took minutes to print. Values are now held to 64 MiB.
    @Test func aHugeValueIsRefused() async throws {
        let folder = try await published()
        defer { try? FileManager.default.removeItem(at: folder) }
        for sql in ["SELECT zeroblob(1e9)", "SELECT length(zeroblob(1e9))", "SELECT hex(zeroblob(40000000))"] {
            let run = try await CommissaryProcess.run(["query", "latest", sql, "--workspace", folder.path])
            expectOneLine(run, saying: "query refused: a value would be larger than 64 MiB")
        }
        // Just under the limit is an answer.
        let under = try await CommissaryProcess.run(["query", "latest", "SELECT length(zeroblob(60000000))",
                                                     "--workspace", folder.path, "--format", "csv"])
        #expect(under.status == 0 && under.output == "length(zeroblob(60000000))\r\n60000000\r\n", "\(under.output)")
    }

    /// Rows that never end (of 2 KB each, to reach the bound soon): the answer held before
    /// printing is bounded, whatever the time limit.
    @Test func anEndlessAnswerStopsAtItsSizeBound() async throws {
        let folder = try await published()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await CommissaryProcess.run(["query", "latest", Self.endless + " SELECT x, hex(zeroblob(1000)) FROM c",
                                                   "--timeout", "600", "--workspace", folder.path])
        expectOneLine(run, saying: "query stopped: its answer passed 256 MiB held in memory")
    }

    /// The default is documented where the option is, and impossible times are refused as
    /// arguments (ArgumentParser's status 64, with the usage).
    @Test func theTimeoutHasADefaultAndARange() async throws {
        let help = try await CommissaryProcess.run(["query", "--help"])
        #expect(help.output.contains("--timeout <seconds>") && help.output.contains("(default: 30.0)"), "\(help.output)")
        for value in ["0", "-1", "nan", "inf", "1e300", "86401"] {
            let run = try await CommissaryProcess.run(["query", "latest", "SELECT 1", "--timeout=\(value)"])
            #expect(run.status == 64, "--timeout \(value): \(run.status)")
            #expect(run.error.hasPrefix("Error: --timeout expects seconds above 0 and at most 86400"),
                    "--timeout \(value): \(run.error)")
        }
    }
}
