import Basics
import Fetching
import Foundation
import TestSupport
import Pipeline
import YAMLConfig
import Snapshot
import Testing

/// `checks.max_failed_partitions`: one day failing does not throw away the others, while the
/// thresholds (the drop against the previous snapshot, required halls, minimum counts) still
/// block publishing and keep the last good snapshot `latest`. Per-day counts were read from the
/// pages: `li.menu-item`s on 2026-10-10, -11, -12 are 37, 33 and 54.
@Suite struct PartialFailureTests {
    private func failing(_ dates: Set<String>) throws -> TestHTTPServer {
        try SampleSite.server { request, _ in
            dates.contains(where: { request.path == "/Menus/\($0)" }) ? Reply(status: 500) : nil
        }
    }

    @Test func oneFailedDayWithinTheAllowanceIsPublishedWithoutItAndSaysSo() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try failing(["2026-10-11"])
        defer { server.stop() }
        let spec = try SampleSite.spec(name: "partial", base: server.url(""), in: folder,
                                       checks: "min_menu_items: 30\n  max_failed_partitions: 1",
                                       fetch: "timeout_seconds: 2\n  retries: 0\n  delay_ms: 0")
        #expect(spec.checks.maxFailedPartitions == 1)
        let report = try await runPipeline(spec, workspace: folder)
        #expect(report.published)
        #expect(report.manifest.rowCounts["menu_item"] == 37 + 54)
        #expect(report.manifest.rowCounts["service_day"] == 2)
        let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))
        let recorded = try SnapshotReader.checks(of: snapshot).filter { $0.name == "partitions_complete" }
        #expect(recorded.count == 1)
        #expect(recorded.first?.severity == .warning)
        #expect(recorded.first?.passed == false)
        let message = recorded.first?.message ?? ""
        #expect(message.contains("within checks.max_failed_partitions (1)"), "\(message)")
        #expect(message.contains("2026-10-11 (ucla-menu: "), "\(message)")
        #expect(message.contains("/Menus/2026-10-11"), "\(message)")
        // The failed day is recorded as failed, so the next run fetches it again.
        #expect(report.manifest.partitions.first { $0.key == "2026-10-11" }?.status == .failed)
    }

    @Test func moreFailuresThanAllowedBlockAndTheSummarySaysWhy() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = try SampleSite.server()
        let pipeline = folder.appendingPathComponent("partial.yml")
        let checks = "min_menu_items: 30\n  max_failed_partitions: 1"
        let fetch = "timeout_seconds: 2\n  retries: 0\n  delay_ms: 0"
        try Data(SampleSite.pipelineYAML(name: "partial", base: good.url(""), checks: checks, fetch: fetch).utf8)
            .write(to: pipeline)
        let arguments = ["run", pipeline.path, "--workspace", folder.path, "--log-format", "text"]
        let first = try await CommissaryProcess.run(arguments)
        good.stop()
        #expect(first.status == 0)
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        let latest = try #require(store.latest(pipeline: "partial"))

        let bad = try failing(["2026-10-11", "2026-10-12"])
        defer { bad.stop() }
        try Data(SampleSite.pipelineYAML(name: "partial", base: bad.url(""), checks: checks, fetch: fetch).utf8)
            .write(to: pipeline)
        let second = try await CommissaryProcess.run(arguments + ["--force"])
        #expect(second.status == 3)
        #expect(second.output.contains("Not published; the previous snapshot stays latest."))
        let blockedBy = second.output.split(separator: "\n").filter { $0.hasPrefix("Blocked by: ") }
        #expect(blockedBy == ["Blocked by: partitions_complete, no_drop_menu_item (the last line says why)"])
        // Why is said once, on the last line.
        let errors = second.error.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 1 && second.error.split(separator: "\n").last == errors.first)
        let line = String(errors.first ?? "")
        #expect(line.contains("2 partition(s) failed, more than checks.max_failed_partitions (1)"), "\(line)")
        // 37 items against 124: past the 50% drop as well.
        #expect(line.contains("37 menu_item rows against 124"), "\(line)")
        #expect((second.output + second.error).components(separatedBy: "rows against 124").count == 2)
        #expect(second.output.contains("Partitions: 2 fetched, 0 reused, 0 stale, 2 failed"), "\(second.output)")
        #expect(store.latest(pipeline: "partial") == latest)
    }

    /// Two of three days may fail, but what is left (37 items against yesterday's 124) is past
    /// the 50% drop: the drop blocks even though the failures were allowed.
    @Test func theDropThresholdStillBlocksAllowedFailures() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = try SampleSite.server()
        let checks = "min_menu_items: 30\n  max_failed_partitions: 2"
        let fetch = "timeout_seconds: 2\n  retries: 0\n  delay_ms: 0"
        let first = try await runPipeline(
            try SampleSite.spec(name: "drop", base: good.url(""), in: folder, checks: checks, fetch: fetch),
            workspace: folder)
        good.stop()
        #expect(first.published)
        let latest = try #require(first.snapshotPath)

        let bad = try failing(["2026-10-11", "2026-10-12"])
        defer { bad.stop() }
        let second = try await runPipeline(
            try SampleSite.spec(name: "drop", base: bad.url(""), in: folder, checks: checks, fetch: fetch),
            workspace: folder, force: true)
        #expect(!second.published)
        let blocking = second.manifest.checks.filter(\.blocksPublishing)
        #expect(blocking.map(\.name) == ["no_drop_menu_item"])
        #expect(second.manifest.checks.first { $0.name == "partitions_complete" }?.severity == .warning)
        #expect(SnapshotStore(directory: folder.appendingPathComponent("snapshots")).latest(pipeline: "drop")?.path
                == latest)
    }

    @Test func aRequiredHallMissingStillBlocksAllowedFailures() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try failing(["2026-10-11"])
        defer { server.stop() }
        let spec = try SampleSite.spec(
            name: "halls", base: server.url(""), in: folder,
            checks: "min_menu_items: 30\n  max_failed_partitions: 1\n  required_restaurants: [Covel, De Neve, Feast]",
            fetch: "timeout_seconds: 2\n  retries: 0\n  delay_ms: 0")
        let report = try await runPipeline(spec, workspace: folder)
        #expect(!report.published)
        let blocking = report.manifest.checks.filter(\.blocksPublishing)
        #expect(blocking.map(\.message) == ["2026-10-10: no menu for Feast", "2026-10-12: no menu for Feast"])
    }

    @Test func theAllowanceIsReadWithItsLocation() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("p.yml")
        try Data(SampleSite.pipelineYAML(name: "p", base: "https://example.org",
                                         checks: "max_failed_partitions: -1").utf8).write(to: file)
        #expect(throws: Failure.self) { try SpecReader.read(file) }
        do {
            _ = try SpecReader.read(file)
        } catch {
            #expect("\(error)" == "\(file.path):8:26: checks.max_failed_partitions: must be between 0 and 100000, found -1")
        }
    }
}

/// The exit status and the one line of a night published with a stale day, from the real binary.
@Suite struct StaleNightTests {
    final class Broken: @unchecked Sendable {
        private let lock = NSLock()
        private var on = false
        var isOn: Bool {
            get { lock.withLock { on } }
            set { lock.withLock { on = newValue } }
        }
    }

    @Test func aStaleDayExitsSixWithOneWarningNamingTheDayAndWhy() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = Broken()
        let server = try SampleSite.server { request, _ in
            broken.isOn && request.path == "/Menus/2026-10-11" ? Reply(status: 500) : nil
        }
        defer { server.stop() }
        let pipeline = folder.appendingPathComponent("stale.yml")
        try Data(SampleSite.pipelineYAML(name: "stale", base: server.url(""),
                                         fetch: "timeout_seconds: 2\n  retries: 0\n  delay_ms: 0").utf8)
            .write(to: pipeline)
        let arguments = ["run", pipeline.path, "--workspace", folder.path, "--log-format", "text"]
        #expect(try await CommissaryProcess.run(arguments).status == 0)

        broken.isOn = true
        let night = try await CommissaryProcess.run(arguments)
        #expect(night.status == 6, "\(night.error)")
        // Progress goes to standard error as well; the ending is one `warning:` line (the
        // snapshot is served), naming the day and why.
        #expect(!night.error.contains("error: "), "\(night.error)")
        let warnings = night.error.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("warning: published with 1 stale day(s): 2026-10-11 (ucla-menu: ") == true,
                "\(night.error)")
        #expect(warnings.first?.contains("/Menus/2026-10-11: HTTP 500") == true, "\(night.error)")
        #expect(night.error.split(separator: "\n").last == warnings.first)
        let staleLines = night.output.split(separator: "\n").filter { $0.hasPrefix("Stale: ") }
        #expect(staleLines.count == 1)
        #expect(staleLines.first?.contains("ucla-menu/2026-10-11 is stale: published as fetched ") == true)
        #expect(staleLines.first?.contains("/Menus/2026-10-11: HTTP 500") == true, "\(staleLines)")

        // `commissary check` on the snapshot shows the stale row among the checks.
        let latest = try #require(SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
            .latest(pipeline: "stale"))
        let check = try await CommissaryProcess.run(["check", latest.path])
        #expect(check.output.contains("ucla-menu/2026-10-11 is stale"), "\(check.output)")

        broken.isOn = false
        #expect(try await CommissaryProcess.run(arguments).status == 0)
    }
}
