import Foundation
import Snapshot
import SnapshotTestSupport
import Testing
import TestSupport

/// Nights that used to have no end: a server that asks to be asked again in 31 years, and one
/// that answers 500 to everything while the pipeline allows ten retries. The real binary must end
/// within seconds, with the partitions it could not fetch failed (or carried from their last good
/// version) and each named with its URL and why.
@Suite(.serialized) struct BoundedNightTests {
    final class Switch: @unchecked Sendable {
        private let lock = NSLock()
        private var on = false
        var isOn: Bool {
            get { lock.withLock { on } }
            set { lock.withLock { on = newValue } }
        }
    }

    /// The documents of the sample site's three days and its hours: one per partition.
    static let partitionPaths = ["/Menus/2026-10-10", "/Menus/2026-10-11", "/Menus/2026-10-12", "/Hours"]

    private func write(_ name: String, base: String, fetch: String, in folder: URL) throws -> URL {
        let pipeline = folder.appendingPathComponent("\(name).yml")
        try Data(SampleSite.pipelineYAML(name: name, base: base, fetch: fetch).utf8).write(to: pipeline)
        return pipeline
    }

    private func run(_ pipeline: URL, _ folder: URL) async throws -> (CommissaryProcess.Outcome, Duration) {
        let clock = ContinuousClock()
        let started = clock.now
        let outcome = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path,
                                                       "--log-format", "text"])
        return (outcome, clock.now - started)
    }

    /// Every answer a 429 with `Retry-After: 999999999`, three retries allowed. Waiting the
    /// 30 s cap before each retry would take 90 s per document (three minutes for the four, two
    /// at a time); a server asking for longer than the cap is not asked again at all.
    @Test func aServerThatAsksForYearsIsAskedOnce() async throws {
        let folder = try Paths.temporaryFolder("retry-after-years")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try SampleSite.server { _, _ in Reply(status: 429, headers: [("Retry-After", "999999999")]) }
        defer { server.stop() }
        let pipeline = try write("years", base: server.url(""), fetch: "timeout_seconds: 2\n  retries: 3\n  delay_ms: 0",
                                 in: folder)

        let (night, took) = try await run(pipeline, folder)
        #expect(took < .seconds(15), "\(took)")
        #expect(night.status == 3, "\(night.error)")
        for path in Self.partitionPaths { #expect(server.requests(to: path).count == 1, "\(path)") }
        #expect(night.output.contains("0 fetched, 0 reused, 0 stale, 4 failed"), "\(night.output)")
        #expect(night.error.contains("\(server.url("/Hours")): HTTP 429 from the server, which asks to be asked again "
                                     + "in 999999999 s (Retry-After), more than the 30 s a retry may wait"), "\(night.error)")
        #expect(SnapshotStore(directory: folder.appendingPathComponent("snapshots")).latest(pipeline: "years") == nil)
    }

    /// Every answer a 500, ten retries allowed: the back-off before them (0.5 s doubling up to
    /// 30 s, drawn at random below that ceiling) averages some 75 s per document. The deadline,
    /// 0.05 minutes (3 s), ends the night. A workspace with a good night before carries every
    /// partition from it, stale (exit 6, the same 124 menu items); a new one publishes nothing.
    @Test(arguments: [true, false])
    func aNightOfServerErrorsEndsAtItsDeadline(_ primed: Bool) async throws {
        let name = primed ? "deadline-primed" : "deadline-fresh"
        let folder = try Paths.temporaryFolder(name)
        defer { try? FileManager.default.removeItem(at: folder) }
        let failing = Switch()
        let server = try SampleSite.server(lifetime: .seconds(120)) { _, _ in failing.isOn ? Reply(status: 500) : nil }
        defer { server.stop() }
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        if primed {
            // The good night runs without the tight deadline, which a loaded machine could miss.
            let good = try write(name, base: server.url(""), fetch: "timeout_seconds: 2\n  retries: 0\n  delay_ms: 0",
                                 in: folder)
            let (first, _) = try await run(good, folder)
            #expect(first.status == 0, "\(first.error)")
        }
        let goodNight = store.latest(pipeline: name)
        failing.isOn = true
        let pipeline = try write(name, base: server.url(""),
                                 fetch: "timeout_seconds: 2\n  retries: 10\n  delay_ms: 0\n  max_run_minutes: 0.05",
                                 in: folder)

        let (night, took) = try await run(pipeline, folder)
        #expect(took < .seconds(15), "\(took)")
        let cutOff = "the run's deadline (fetch.max_run_minutes: 0.05 from the run's start) passed"
        for path in Self.partitionPaths {
            #expect(night.error.contains("\(server.url(path)): \(cutOff)"), "\(path): \(night.error)")
        }
        if primed {
            #expect(night.status == 6, "\(night.error)")
            #expect(night.output.contains("0 fetched, 0 reused, 4 stale, 0 failed"), "\(night.output)")
            let latest = try #require(store.latest(pipeline: name))
            #expect(latest != goodNight)
            #expect(try SnapshotReader.rowCounts(of: latest)["menu_item"] == SampleSite.menuItems)
            let stale = try SnapshotReader.stalePartitions(of: latest)
            #expect(stale.map(\.partition).sorted() == ["2026-10-10", "2026-10-11", "2026-10-12", "hours"])
            #expect(stale.allSatisfy { $0.reason.contains(cutOff) }, "\(stale.map(\.reason))")
        } else {
            #expect(night.status == 3, "\(night.error)")
            #expect(night.output.contains("0 fetched, 0 reused, 0 stale, 4 failed"), "\(night.output)")
            #expect(store.latest(pipeline: name) == nil)
        }
    }

    /// The deadline has a range, as every number of a pipeline file: refused with its line.
    @Test(arguments: ["0", "1441", "1e300", ".nan", "-1"])
    func anOutOfRangeDeadlineIsRefusedWithItsLine(_ value: String) async throws {
        let folder = try Paths.temporaryFolder("deadline-range")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = try write("range", base: "http://127.0.0.1:9", fetch: "max_run_minutes: \(value)", in: folder)
        let run = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path])
        #expect(run.status == 1, "\(value): \(run.error)")
        #expect(run.error.split(separator: "\n").count == 1, "\(run.error)")
        // Line 10 is the first key under `fetch:`.
        #expect(run.error.hasPrefix("error: \(pipeline.path):10:"), "\(run.error)")
        #expect(run.error.contains(": fetch.max_run_minutes: "), "\(run.error)")
    }
}
