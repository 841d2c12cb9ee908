import Foundation
import Snapshot
import SnapshotTestSupport
import Testing
import TestSupport

/// Standard output and standard error that cannot be written: a full device (`/dev/full`, a full
/// disk under a redirect) or a pipe whose reader went away. A command that could not say what it
/// had to fails with status 4, the machine's, never 0 and never by a signal (SIGILL's 132 from
/// Foundation's trapping write, SIGPIPE's 141), and a run still leaves no staging file.
@Suite struct BrokenOutputTests {
    /// The sample site's three days, as `FullDiskTests` runs them.
    private func pipeline(in folder: URL) throws -> URL {
        let file = folder.appendingPathComponent("output.yml")
        try Data("""
            pipeline: output
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: \(Paths.sampleSite.path)
                dates: {from: 2026-10-10, to: 2026-10-12}
            """.utf8).write(to: file)
        return file
    }

    private func full() throws -> FileHandle {
        try #require(FileHandle(forWritingAtPath: "/dev/full"))
    }

    /// Files left in the workspace's staging folder (none once a run has ended, however it ended).
    private func staging(_ workspace: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: workspace.appendingPathComponent("staging").path)) ?? []
    }

    /// `2>/dev/full`: every event's write fails. The run used to die of SIGILL (132) at its first
    /// event; now it runs to its end, publishes, and says with its status that its events were
    /// lost.
    @Test func aFullStandardErrorEndsTheRunWithStatus4NotATrap() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = try pipeline(in: folder)
        for format in ["json", "text"] {
            let workspace = folder.appendingPathComponent(format)
            let run = try await CommissaryProcess.run(
                ["run", pipeline.path, "--workspace", workspace.path, "--log-format", format],
                standardError: try full())
            #expect(run.status == 4, "--log-format \(format): \(run.status)")
            // Standard output still carries the summary: the snapshot is there and sound.
            #expect(run.output.hasPrefix("Published "), "\(run.output)")
            let store = SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))
            let latest = try #require(store.latest(pipeline: "output"))
            #expect(try SnapshotReader.rowCounts(of: latest)["menu_item"] == SampleSite.menuItems)
            #expect(staging(workspace).isEmpty, "\(staging(workspace))")
        }
    }

    /// `commissary run … 2>&1 | head -0`: a pipe whose reader has closed it. SIGPIPE used to end
    /// the run at its first event (141), wherever it stood.
    @Test func aClosedStandardErrorPipeEndsTheRunWithStatus4NotSIGPIPE() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = try pipeline(in: folder)
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let run = try await CommissaryProcess.run(
            ["run", pipeline.path, "--workspace", folder.path, "--log-format", "json", "--force"],
            standardError: pipe.fileHandleForWriting)
        #expect(run.status == 4, "\(run.status)")
        #expect(staging(folder).isEmpty, "\(staging(folder))")
        try expectSoundSnapshots(folder.appendingPathComponent("snapshots"))
    }

    /// `commissary query … | head -1`: the reader took what it wanted and closed the pipe. The
    /// query ends quietly with status 0, as a Unix tool does, where it said "broken pipe" and
    /// ended with status 4; a run whose summary nobody reads still publishes with status 0.
    @Test func aReaderThatStopsReadingAnAnswerIsNoFailure() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = try pipeline(in: folder)
        let workspace = ["--workspace", folder.path]
        for command in [["run", pipeline.path] + workspace, ["query", "latest", "SELECT * FROM v_menu"] + workspace,
                        ["query", "latest", "SELECT * FROM v_menu", "--format", "csv"] + workspace] {
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()
            let run = try await CommissaryProcess.run(command + ["--log-format", "json"].filter { _ in command[0] == "run" },
                                                      standardOutput: pipe.fileHandleForWriting)
            let name = command.prefix(2).joined(separator: " ")
            #expect(run.status == 0, "\(name): \(run.status) \(run.error)")
            #expect(!run.error.contains("error:"), "\(name): \(run.error)")
        }
    }

    /// `>/dev/full` for every command that answers on standard output: status 4 and one line on
    /// standard error naming standard output and the reason, where `run`, `diff`, `schema` and
    /// `query` used to exit 0 with their answer lost.
    @Test func everyAnswerOnAFullDeviceFailsWithOneLine() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = try pipeline(in: folder)
        let workspace = ["--workspace", folder.path]
        #expect(try await CommissaryProcess.run(["run", pipeline.path, "--quiet"] + workspace).status == 0)
        let page = Paths.sampleSite.appendingPathComponent("Menus/2026-10-12.html").path
        let commands: [[String]] = [
            ["run", pipeline.path, "--force"] + workspace,
            ["run", pipeline.path, "--dry-run"] + workspace,
            ["query", "latest", "SELECT * FROM menu_item"] + workspace,
            ["query", "latest", "SELECT * FROM menu_item", "--format", "csv"] + workspace,
            ["diff", "latest", "latest"] + workspace,
            ["diff", "latest", "latest", "--exit-code"] + workspace,
            ["changes", "latest", "latest"] + workspace,
            ["schema"],
            ["report", "latest"] + workspace,
            ["snapshots"] + workspace,
            ["check", "latest"] + workspace,
            ["parse", "--adapter", "ucla-menu-site", page],
        ]
        for command in commands {
            let run = try await CommissaryProcess.run(command, standardOutput: try full())
            let name = command.prefix(2).joined(separator: " ")
            #expect(run.status == 4, "\(name): \(run.status) \(run.error)")
            let lines = run.error.split(separator: "\n").filter { $0.hasPrefix("error: ") }
            #expect(lines == ["error: standard output: cannot be written (no space left on device): "
                              + "what was written to it is incomplete"], "\(name): \(run.error)")
        }
    }

    /// `query … > out.csv` on a full disk (a 64 KiB tmpfs; the answer is larger): it used to exit
    /// 0 with the file cut at 64 KiB.
    @Test(.enabled(if: Mounts.permitted, "mounting a tmpfs is not permitted here"))
    func aQueryIntoAFileOnAFullDiskFails() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = try pipeline(in: folder)
        let workspace = ["--workspace", folder.path]
        #expect(try await CommissaryProcess.run(["run", pipeline.path, "--quiet"] + workspace).status == 0)
        // The sample's menus ten times over: about 150 KB of CSV.
        let tenTimes = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10) SELECT * FROM v_menu, n"
        let query = ["query", "latest", tenTimes, "--format", "csv"] + workspace
        let roomy = try await CommissaryProcess.run(query)
        #expect(roomy.status == 0)
        #expect(roomy.output.utf8.count > 64 * 1024, "the answer must be larger than the disk")

        let disk = folder.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        try Mounts.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", disk.path])
        defer { Mounts.unmount(disk) }
        let file = disk.appendingPathComponent("out.csv")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        let cut = try await CommissaryProcess.run(query, standardOutput: handle)
        try handle.close()
        #expect(cut.status == 4, "\(cut.status) \(cut.error)")
        #expect(cut.error.split(separator: "\n").count == 1, "\(cut.error)")
        #expect(cut.error.contains("standard output: cannot be written (no space left on device)"), "\(cut.error)")
        #expect(try Data(contentsOf: file).count < roomy.output.utf8.count)
    }

    /// `--events FILE` on a full disk: the record asked for is incomplete, so the run is not a
    /// success (it used to trap at the first event that did not fit).
    @Test func anEventsFileThatCannotBeWrittenFailsTheRun() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = try pipeline(in: folder)
        let run = try await CommissaryProcess.run(
            ["run", pipeline.path, "--workspace", folder.path, "--quiet", "--events", "/dev/full"])
        #expect(run.status == 4, "\(run.status) \(run.error)")
        #expect(run.error == "error: /dev/full: cannot be written (no space left on device): "
                + "what was written to it is incomplete\n", "\(run.error)")
        #expect(staging(folder).isEmpty, "\(staging(folder))")
    }
}
