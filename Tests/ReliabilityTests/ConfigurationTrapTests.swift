import Foundation
import Testing
import TestSupport

/// Values in a pipeline file or on the command line that used to crash the binary (SIGILL on an
/// overflow), hang it, inject a header, or take gigabytes: each is refused up front, in one line
/// that names the file, line, column and key, with exit status 1.
@Suite struct ConfigurationTrapTests {
    static let values: [(key: String, value: String)] = [
        ("retries", "9223372036854775807"), ("retries", "-1"),
        ("timeout_seconds", "1e300"), ("timeout_seconds", "inf"), ("timeout_seconds", ".nan"),
        ("requests_per_second", "1e-300"), ("delay_ms", "9223372036854775807"), ("delay_ms", "-5"),
        ("per_host_concurrency", "-2"), ("max_response_bytes", "-1"),
        ("user_agent", "\"commissary\\r\\nX-Injected: yes\""),
    ]

    @Test(arguments: values.indices)
    func anOutOfRangeFetchValueIsOneLineNamingItsPlace(_ index: Int) async throws {
        let (key, value) = Self.values[index]
        let folder = try Paths.temporaryFolder("trap-\(index)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = folder.appendingPathComponent("trap.yml")
        let yaml = SampleSite.pipelineYAML(name: "trap", base: "http://127.0.0.1:9",
                                           fetch: "\(key): \(value)")
        try Data(yaml.utf8).write(to: pipeline)
        let run = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path])
        #expect(run.status == 1, "\(key): \(value): \(run.error)")
        let lines = run.error.split(separator: "\n")
        #expect(lines.count == 1, "\(run.error)")
        // Line 10 of the file is the `fetch` key's; the column is its value's.
        #expect(run.error.hasPrefix("error: \(pipeline.path):10:"), "\(run.error)")
        #expect(run.error.contains(": fetch.\(key): "), "\(run.error)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("snapshots").path))
    }

    /// A range of every day there is would list millions of days before doing anything.
    @Test func anUnboundedDateRangeIsRefusedAtOnce() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ContinuousClock()
        let started = clock.now
        let run = try await CommissaryProcess.run([
            "run", Paths.pipelines.appendingPathComponent("sample.yml").path, "--workspace", folder.path,
            "--from", "0001-01-01", "--to", "9999-12-31", "--dry-run",
        ])
        #expect(clock.now - started < .seconds(5))
        #expect(run.status != 0)
        #expect(run.error.contains("at most 7320 days"), "\(run.error)")
    }
}
