import Basics
import Fetching
import Foundation
import Pipeline
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// No wait without a bound on local files: a named pipe where a run reads a file (the nutrition
/// reference, the pipeline file, a folder source's page) is refused at once in one line, where
/// the run used to wait for a writer that never came; a folder source's page larger than
/// `fetch.max_response_bytes` is refused as a web response would be, where it was read whole.
/// Each run is the real binary's, killed (and the test failed) if it outlives its bound.
@Suite struct LocalFileBoundTests {
    struct Ended {
        var status: Int32
        var error: String
        var seconds: Double
    }

    /// Runs the binary to its end; one still running after `bound` is killed, and the test fails
    /// instead of hanging the suite.
    private func run(_ arguments: [String], environment: [String: String] = [:], bound: Duration = .seconds(60))
        async throws -> Ended {
        let folder = try Paths.temporaryFolder("bounded-output")
        defer { try? FileManager.default.removeItem(at: folder) }
        let err = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let errHandle = try FileHandle(forWritingTo: err)
        let process = Process()
        process.executableURL = CommissaryProcess.binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errHandle
        let clock = ContinuousClock()
        let started = clock.now
        try CommissaryProcess.launch(process)
        while process.isRunning, clock.now - started < bound {
            try await Task.sleep(for: .milliseconds(50))
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("commissary \(arguments.joined(separator: " ")) was still running after \(bound); killed")
        }
        let status = try await CommissaryProcess.exit(of: process)
        let elapsed = clock.now - started
        try errHandle.close()
        return Ended(status: status, error: String(decoding: try Data(contentsOf: err), as: UTF8.self),
                     seconds: elapsed / .seconds(1))
    }

    /// The lines of standard error that are not blank.
    private func lines(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }
    }

    private func makeFIFO(_ url: URL) throws {
        guard mkfifo(url.path, 0o644) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// The sample's three days read from `site`, a folder in the test's own.
    private func pipeline(_ name: String, site: String, extra: String = "") -> String {
        """
        pipeline: \(name)
        sources:
          - name: ucla-menu
            adapter: ucla-menu-site
            location: \(site)
            dates: {from: 2026-10-10, to: 2026-10-12}
        \(extra)
        """
    }

    /// `COMMISSARY_NUTRITION_REFERENCE` names a named pipe: SQLite's open of it waited for a
    /// writer before the run began, and SIGTERM then ended it with no line at all.
    @Test func aFIFOAsTheNutritionReferenceIsRefusedAtOnce() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let reference = folder.appendingPathComponent("usda-sr24.sqlite")
        try makeFIFO(reference)
        let file = folder.appendingPathComponent("estimates.yml")
        try Data(pipeline("estimates", site: Paths.sampleSite.path, extra: "nutrition_reference: usda-sr24").utf8)
            .write(to: file)
        let ended = try await run(["run", file.path, "--workspace", folder.path],
                                  environment: ["COMMISSARY_NUTRITION_REFERENCE": reference.path])
        #expect(ended.status == 1, "\(ended.error)")
        #expect(lines(ended.error) == [
            "error: \(reference.path): the nutrition reference usda-sr24 is a FIFO, not a regular file; it is not read",
        ])
    }

    @Test func aFIFOAsThePipelineFileIsRefusedAtOnce() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pipe.yml")
        try makeFIFO(file)
        let ended = try await run(["run", file.path, "--workspace", folder.path])
        #expect(ended.status == 1, "\(ended.error)")
        #expect(lines(ended.error) == ["error: \(file.path): the pipeline file is a FIFO, not a regular file; it is not read"])
    }

    /// A copy of the sample site in `folder`, with the page of 2026-10-11 (76,370 bytes) given to
    /// `replace` to make into something else.
    private func site(in folder: URL, replace: (URL) throws -> Void) throws -> URL {
        let site = folder.appendingPathComponent("site")
        try FileManager.default.copyItem(at: Paths.sampleSite, to: site)
        let page = site.appendingPathComponent("Menus/2026-10-11.html")
        try FileManager.default.removeItem(at: page)
        try replace(page)
        return site
    }

    /// That day's partition fails, naming the pipe, and the run is not published (exit 3); it
    /// used to be passed over as a missing page ("no file for this URL").
    @Test func aFIFOAsAFolderSourcePageFailsItsDayNamingIt() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var fifo = ""
        let site = try site(in: folder) { page in
            try makeFIFO(page)
            fifo = page.path
        }
        let file = folder.appendingPathComponent("piped.yml")
        try Data(pipeline("piped", site: site.path).utf8).write(to: file)
        let ended = try await run(["run", file.path, "--workspace", folder.path, "--quiet"])
        #expect(ended.status == 3, "\(ended.error)")
        let last = try #require(lines(ended.error).last)
        #expect(last.hasPrefix("error: not published: 1 partition(s) failed"), "\(ended.error)")
        #expect(last.contains("2026-10-11 (ucla-menu: file://\(site.path)/Menus/2026-10-11: \(fifo) is a FIFO, not a "
                              + "regular file; it is not read)"), "\(ended.error)")
    }

    /// A 2 GB page (sparse: it costs no disk) is refused at the default cap of 10,000,000 bytes
    /// without being read: the run ends in seconds with a peak well under the file's size, where
    /// the whole file was read, into 4.7 GB of memory.
    @Test func aFolderSourcePageOverTheCapIsRefusedUnread() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = try site(in: folder) { page in
            _ = FileManager.default.createFile(atPath: page.path, contents: nil)
            guard truncate(page.path, 2 << 30) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        let file = folder.appendingPathComponent("huge.yml")
        try Data(pipeline("huge", site: site.path).utf8).write(to: file)
        let ended = try await run(["run", file.path, "--workspace", folder.path, "--quiet"])
        #expect(ended.status == 3, "\(ended.error)")
        #expect(ended.error.contains("\(site.path)/Menus/2026-10-11.html holds more than 10000000 bytes, the cap on a "
                                     + "document (fetch.max_response_bytes, as for a web response); it is not read"),
                "\(ended.error)")
        let runs = folder.appendingPathComponent("state/runs/huge")
        let manifests = try FileManager.default.contentsOfDirectory(atPath: runs.path).filter { $0.hasSuffix(".manifest.json") }
        let manifest = try UserJSON.decoder().decode(
            RunManifest.self, from: Data(contentsOf: runs.appendingPathComponent(try #require(manifests.first))))
        // The sample's run peaks near 55 MB in the debug binary; reading the file whole took 2 GB at least.
        let peak = try #require(manifest.peakMemoryMB)
        #expect(peak < 500, "peak \(peak) MB")
        #expect(ended.seconds < 30, "took \(ended.seconds) s")
    }

    /// The cap is a number of bytes a page may hold: a file of exactly that many is read whole,
    /// one of a byte more refused; a stream (a dump read in pieces) is not capped.
    @Test func aPageOfExactlyTheCapIsReadAndOneByteMoreIsNot() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(repeating: UInt8(ascii: "a"), count: 1000).write(to: folder.appendingPathComponent("full.html"))
        try Data(repeating: UInt8(ascii: "a"), count: 1001).write(to: folder.appendingPathComponent("over.html"))
        let source = DirectorySource(root: folder, maxBodyBytes: 1000)
        #expect(try await source.fetch("https://x.test/full").body.count == 1000)
        let refused = await #expect(throws: Failure.self) { try await source.fetch("https://x.test/over") }
        #expect(refused?.code == .tooLarge)
        #expect(refused?.description == "https://x.test/over: \(folder.path)/over.html holds more than 1000 bytes, the "
                + "cap on a document (fetch.max_response_bytes, as for a web response); it is not read")
        var streamed = 0
        let record = try await source.stream("https://x.test/over") { streamed += $0.count }
        #expect(streamed == 1001)
        #expect(record.size == 1001)
    }

    /// `fetch.max_response_bytes` is the folder source's cap too: at 100,000 bytes, of the
    /// sample's menu pages (78,706, 76,370 and 106,054 bytes) only 2026-10-12's is refused.
    @Test func thePipelinesCapAppliesToAFolderSource() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("capped.yml")
        try Data(pipeline("capped", site: Paths.sampleSite.path, extra: "fetch:\n  max_response_bytes: 100000").utf8)
            .write(to: file)
        let ended = try await run(["run", file.path, "--workspace", folder.path, "--quiet"])
        #expect(ended.status == 3, "\(ended.error)")
        let last = try #require(lines(ended.error).last)
        #expect(last.hasPrefix("error: not published: 1 partition(s) failed"), "\(ended.error)")
        #expect(last.contains("2026-10-12 (ucla-menu: file://\(Paths.sampleSite.path)/Menus/2026-10-12: "
                              + "\(Paths.sampleSite.path)/Menus/2026-10-12.html holds more than 100000 bytes"),
                "\(ended.error)")
    }
}
