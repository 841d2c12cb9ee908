import Basics
import Foundation
import Pipeline
import Snapshot
import Synchronization
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// SIGINT, SIGTERM and SIGHUP stop a run cleanly: one line, the signal's exit status, a
/// `run_finished` event saying `interrupted`, no staging file, `latest` untouched, and a next run
/// that resumes from the partitions already done.
@Suite(.serialized) struct SignalStopTests {
    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130)), (SIGHUP, Int32(129))])
    func aSignalStopsTheRunCleanly(_ signal: Int32, _ status: Int32) async throws {
        let folder = try Paths.temporaryFolder("signal-\(signal)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The last day's overview answers slowly, so the run is still fetching when signalled;
        // the first day is quick, so it is done by then.
        let server = try SampleSite.server(lifetime: .seconds(60)) { request, _ in
            guard request.path == "/Menus/2026-10-12", let body = SampleSite.page(request.path) else { return nil }
            return Reply(headers: [("Content-Type", "text/html; charset=utf-8")], body: body, delay: .seconds(20))
        }
        defer { server.stop() }
        let pipeline = folder.appendingPathComponent("stopped.yml")
        try Data(SampleSite.pipelineYAML(name: "stopped", base: server.url(""),
                                         fetch: "timeout_seconds: 30\n  retries: 0\n  delay_ms: 0").utf8)
            .write(to: pipeline)
        let out = folder.appendingPathComponent("out.jsonl")
        let err = folder.appendingPathComponent("err.txt")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = CommissaryProcess.binary
        process.arguments = ["run", pipeline.path, "--workspace", folder.path, "--quiet", "--events", out.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: err)
        try CommissaryProcess.launch(process)

        // Wait until the first day is done, then signal.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(15)
        while clock.now < deadline {
            let events = String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self)
            if events.contains("\"partition\":\"2026-10-10\"") && events.contains("partition_finished") { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        let signalled = clock.now
        kill(process.processIdentifier, signal)
        let ending = try await CommissaryProcess.ending(of: process)
        #expect(ending.at - signalled < .seconds(10), "the stop took \(ending.at - signalled)")
        #expect(ending.status == status)

        let error = String(decoding: try Data(contentsOf: err), as: UTF8.self)
        #expect(error.split(separator: "\n").count == 1, "\(error)")
        #expect(error.hasPrefix("error: stopped by "), "\(error)")
        let events = String(decoding: try Data(contentsOf: out), as: UTF8.self).split(separator: "\n")
        let last = try #require(events.last.map { try UserJSON.decoder().decode(RunEvent.self, from: Data($0.utf8)) })
        #expect(last.event == .runFinished && last.status == RunStatus.interrupted.rawValue)
        let staging = folder.appendingPathComponent("staging")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []).isEmpty)
        #expect(SnapshotStore(directory: folder.appendingPathComponent("snapshots")).latest(pipeline: "stopped") == nil)

        // The next run resumes: the day finished before the signal is replayed, not fetched.
        let before = server.requests(to: "/Menus/2026-10-10").count
        server.stop()
        let quick = try SampleSite.server()
        defer { quick.stop() }
        try Data(SampleSite.pipelineYAML(name: "stopped", base: quick.url("")).utf8).write(to: pipeline)
        let next = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path,
                                                    "--log-format", "json"])
        #expect(next.status == 0, "\(next.error)")
        #expect(before == 1)
        let reused = next.error.split(separator: "\n").contains {
            $0.contains("\"partition\":\"2026-10-10\"") && $0.contains("\"status\":\"reused\"")
        }
        #expect(reused, "\(next.error)")
    }

    /// A stop while the run compares what it fetched before (revalidation) cancels the request
    /// in flight rather than waiting for the page, as a stop while parsing does.
    @Test func aSignalDuringRevalidationStopsPromptly() async throws {
        let folder = try Paths.temporaryFolder("signal-revalidation")
        defer { try? FileManager.default.removeItem(at: folder) }
        // One server for both runs (revalidation asks for the URLs the ledger recorded): quick
        // for the first run, then the last day's page 20 s late.
        let slow = Mutex(false)
        let server = try SampleSite.server(lifetime: .seconds(60)) { request, _ in
            guard slow.withLock({ $0 }), request.path == "/Menus/2026-10-12",
                  let body = SampleSite.page(request.path) else { return nil }
            return Reply(headers: [("Content-Type", "text/html; charset=utf-8")], body: body, delay: .seconds(20))
        }
        defer { server.stop() }
        let pipeline = folder.appendingPathComponent("compared.yml")
        try Data(SampleSite.pipelineYAML(name: "compared", base: server.url(""),
                                         fetch: "timeout_seconds: 30\n  retries: 0\n  delay_ms: 0").utf8)
            .write(to: pipeline)
        let first = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path, "--quiet"])
        #expect(first.status == 0, "\(first.error)")

        slow.withLock { $0 = true }
        let asked = server.requests(to: "/Menus/2026-10-12").count
        let out = folder.appendingPathComponent("out.jsonl")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let process = Process()
        process.executableURL = CommissaryProcess.binary
        process.arguments = ["run", pipeline.path, "--workspace", folder.path, "--quiet", "--events", out.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try CommissaryProcess.launch(process)

        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(15)
        while clock.now < deadline, server.requests(to: "/Menus/2026-10-12").count == asked {
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(300))
        let events = String(decoding: try Data(contentsOf: out), as: UTF8.self)
        #expect(!events.contains("\"stage\":\"parse\""), "the run was past revalidation when signalled: \(events)")
        let signalled = clock.now
        kill(process.processIdentifier, SIGTERM)
        let ending = try await CommissaryProcess.ending(of: process)
        #expect(ending.at - signalled < .seconds(10), "the stop took \(ending.at - signalled)")
        #expect(ending.status == 143)
        let ended = String(decoding: try Data(contentsOf: out), as: UTF8.self)
        #expect(ended.contains("\"status\":\"interrupted\""), "\(ended)")
    }

    /// A signal after the run has ended, while the command still writes what it says (its
    /// summary, held up here by a full standard output), asks a finished run to stop: the
    /// command says and records everything and exits 0, where the default action would end
    /// it there, with its summary unwritten.
    @Test func aSignalAfterTheRunEndsLetsTheCommandFinish() async throws {
        let folder = try Paths.temporaryFolder("signal-after")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try SampleSite.server()
        defer { server.stop() }
        let pipeline = folder.appendingPathComponent("ended.yml")
        try Data(SampleSite.pipelineYAML(name: "ended", base: server.url("")).utf8).write(to: pipeline)
        let events = folder.appendingPathComponent("events.jsonl")
        let metrics = folder.appendingPathComponent("metrics/commissary.prom")
        // Standard output is a pipe filled to its capacity before the run starts: the summary,
        // the command's first and last write there, waits until the test reads.
        let output = Pipe()
        // `F_GETPIPE_SZ` of <fcntl.h> (Linux's `F_LINUX_SPECIFIC_BASE`, 1024, plus 8), which
        // Glibc's Swift module leaves out.
        let getPipeSize: Int32 = 1032
        let capacity = fcntl(output.fileHandleForWriting.fileDescriptor, getPipeSize)
        try #require(capacity > 0)
        try output.fileHandleForWriting.write(contentsOf: Data(repeating: UInt8(ascii: "."), count: Int(capacity)))
        let process = Process()
        process.executableURL = CommissaryProcess.binary
        process.arguments = ["run", pipeline.path, "--workspace", folder.path, "--events", events.path,
                             "--metrics", metrics.path]
        process.standardOutput = output.fileHandleForWriting
        process.standardError = FileHandle.nullDevice
        try CommissaryProcess.launch(process)
        try output.fileHandleForWriting.close()

        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(120)
        while clock.now < deadline,
              !String(decoding: (try? Data(contentsOf: events)) ?? Data(), as: UTF8.self).contains("run_finished") {
            try await Task.sleep(for: .milliseconds(20))
        }
        // Past the run's end, into the summary's write, which cannot go on until the pipe is read.
        try await Task.sleep(for: .milliseconds(500))
        #expect(process.isRunning, "the command ended before its summary could be written")
        kill(process.processIdentifier, SIGTERM)
        try await Task.sleep(for: .milliseconds(200))
        // What the command said, after the dots that filled the pipe.
        let said = String(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .drop { $0 == "." })
        let exit = try await CommissaryProcess.exit(of: process)
        #expect(exit == 0)
        #expect(said.contains("Published "), "\(said)")
        let recorded = String(decoding: try Data(contentsOf: metrics), as: UTF8.self)
        #expect(recorded.contains("commissary_last_success_timestamp_seconds"), "\(recorded)")
    }
}
