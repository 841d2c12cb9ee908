import Foundation
import Snapshot
import Testing
import TestSupport

/// A snapshot under its final name whose publication did not finish: `latest` never pointed at
/// it and no manifest lies beside it, either without metadata (an earlier version left one when
/// the disk filled at its metadata, and retention leaves one when killed between a file's side
/// files and the file) or built after the file `latest` names (a run killed between the file's
/// rename and the swing of `latest`). `snapshots` must not list it as published, and the next
/// run removes it, under its lock, saying so in one line.
@Suite struct UnfinishedPublicationTests {
    @Test func anUnfinishedSnapshotIsNotListedAsPublishedAndTheNextRunRemovesIt() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = folder.appendingPathComponent("orphan.yml")
        try Data("""
            pipeline: orphan
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: \(Paths.sampleSite.path)
                dates: {from: 2026-10-10, to: 2026-10-12}
            """.utf8).write(to: pipeline)
        let arguments = ["run", pipeline.path, "--workspace", folder.path, "--log-format", "text"]
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        #expect(try await CommissaryProcess.run(arguments).status == 0)
        let first = try #require(store.latest(pipeline: "orphan"))
        #expect(try await CommissaryProcess.run(arguments + ["--force"]).status == 0)
        let second = try #require(store.latest(pipeline: "orphan"))
        #expect(second != first)
        // The first file as such a publication leaves it.
        for suffix in [".metadata.json", ".manifest.json", ".report.html"] {
            try? FileManager.default.removeItem(atPath: first.path + suffix)
        }

        let table = try await CommissaryProcess.run(["snapshots", "--workspace", folder.path])
        #expect(table.status == 0)
        let line = try #require(table.output.split(separator: "\n").first { $0.contains(first.lastPathComponent) })
        #expect(line.hasPrefix("!  unfinished"), "\(line)")
        #expect(line.contains("its publication did not finish"), "\(line)")
        let json = try await CommissaryProcess.run(["snapshots", "--workspace", folder.path, "--format", "json"])
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(listed.count == 2)
        let lines = try await CommissaryProcess.run(["snapshots", "--workspace", folder.path, "--format", "jsonl"])
        #expect(try lines.output.split(separator: "\n").map {
            (try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["path"] as? String
        } == listed.map { $0["path"] as? String })
        for snapshot in listed {
            let isFirst = snapshot["path"] as? String == first.path
            #expect(snapshot["unfinished"] as? Bool == isFirst, "\(snapshot)")
            #expect((snapshot["problem"] != nil) == isFirst, "\(snapshot)")
        }

        let next = try await CommissaryProcess.run(arguments + ["--force"])
        #expect(next.status == 0, "\(next.error)")
        let warnings = next.error.split(separator: "\n").filter { $0.contains(first.lastPathComponent) }
        #expect(warnings.count == 1, "\(next.error)")
        #expect(warnings.first?.contains("removed \(first.lastPathComponent), a snapshot whose publication did not finish") == true,
                "\(next.error)")
        #expect(!FileManager.default.fileExists(atPath: first.path))
        // The finished ones stay: the one latest pointed at, and the new latest.
        #expect(FileManager.default.fileExists(atPath: second.path))
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
            .filter { $0.hasSuffix(".sqlite") }
        #expect(names.count == 2, "\(names)")
        try expectSoundSnapshots(store.directory)
    }

    /// A run killed after its file took its final name, metadata and all, but before `latest`
    /// pointed at it: the file was never served, so it is unfinished, and the next run removes
    /// it. A file `latest` did reach whose run was killed before its manifest was published,
    /// and stays so once a newer file is latest.
    @Test func aFileLatestNeverReachedIsUnfinishedThoughItHasItsMetadata() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = folder.appendingPathComponent("swing.yml")
        try Data("""
            pipeline: swing
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: \(Paths.sampleSite.path)
                dates: {from: 2026-10-10, to: 2026-10-12}
            """.utf8).write(to: pipeline)
        let arguments = ["run", pipeline.path, "--workspace", folder.path, "--log-format", "text", "--force"]
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        // A file's `built_at` is to the second: the runs are a second apart so that it orders them.
        func publish() async throws -> (file: URL, said: String) {
            try await Task.sleep(for: .seconds(1.1))
            let run = try await CommissaryProcess.run(arguments)
            #expect(run.status == 0, "\(run.error)")
            return (try #require(store.latest(pipeline: "swing")), run.error)
        }
        let first = try await publish().file
        let killed = try await publish().file
        #expect(killed != first)
        // As the kill leaves it: the metadata beside it, `latest` still at the file before, and
        // nothing the run writes after the swing (its manifest, its page).
        for suffix in [".manifest.json", ".report.html"] { try FileManager.default.removeItem(atPath: killed.path + suffix) }
        #expect(FileManager.default.fileExists(atPath: killed.path + ".metadata.json"))
        let link = store.latestLink(pipeline: "swing")
        try FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: first.lastPathComponent)

        #expect(store.isUnfinished(killed.lastPathComponent, pipeline: "swing"))
        #expect(!store.isUnfinished(first.lastPathComponent, pipeline: "swing"))
        let table = try await CommissaryProcess.run(["snapshots", "--workspace", folder.path])
        let line = try #require(table.output.split(separator: "\n").first { $0.contains(killed.lastPathComponent) })
        #expect(line.hasPrefix("!  unfinished"), "\(line)")

        let next = try await publish()
        #expect(next.said.contains("removed \(killed.lastPathComponent), a snapshot whose publication did not finish"),
                "\(next.said)")
        #expect(!FileManager.default.fileExists(atPath: killed.path))
        #expect(!FileManager.default.fileExists(atPath: killed.path + ".metadata.json"))
        #expect(FileManager.default.fileExists(atPath: first.path))

        // The newest file's run killed after the swing, before its manifest: it was published.
        let reached = try #require(store.latest(pipeline: "swing"))
        try FileManager.default.removeItem(atPath: reached.path + ".manifest.json")
        #expect(try await publish().file != reached)
        #expect(!store.isUnfinished(reached.lastPathComponent, pipeline: "swing"))
        #expect(FileManager.default.fileExists(atPath: reached.path))
        try expectSoundSnapshots(store.directory)
    }
}
