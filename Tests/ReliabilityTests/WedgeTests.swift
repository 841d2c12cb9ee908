import Basics
import Foundation
import Snapshot
import SnapshotTestSupport
import Testing
import TestSupport

/// Damage that used to stop a pipeline for good, until someone deleted files: each is done to a
/// real workspace, and the real binary must run again (and say what it found).
@Suite struct WedgeTests {
    /// A workspace with one published snapshot of the sample site served on 127.0.0.1.
    private func primed(_ name: String) async throws -> (folder: URL, pipeline: URL, server: TestHTTPServer) {
        let folder = try Paths.temporaryFolder(name)
        let server = try SampleSite.server(lifetime: .seconds(120))
        let pipeline = folder.appendingPathComponent("\(name).yml")
        try Data(SampleSite.pipelineYAML(name: name, base: server.url("")).utf8).write(to: pipeline)
        let first = try await run(pipeline, folder)
        #expect(first.status == 0, "\(first.error)")
        return (folder, pipeline, server)
    }

    private func run(_ pipeline: URL, _ folder: URL, _ extra: [String] = []) async throws -> CommissaryProcess.Outcome {
        try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path, "--log-format", "text",
                                         "--date", "2026-10-11"] + extra)
    }

    private func latest(_ folder: URL, _ name: String) -> URL? {
        SnapshotStore(directory: folder.appendingPathComponent("snapshots")).latest(pipeline: name)
    }

    /// Every pack's bytes flipped past its first ones (a power loss can leave this, since bodies
    /// are not synced one by one): the next runs, plain and `--force`, fetch the damaged pages
    /// again and publish, and the run after those finds every page readable.
    @Test func aDamagedRawStoreBodyIsFetchedAgain() async throws {
        let (folder, pipeline, server) = try await primed("damaged-pack")
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        let packs = folder.appendingPathComponent("raw/packs")
        for name in try FileManager.default.contentsOfDirectory(atPath: packs.path) {
            let file = packs.appendingPathComponent(name)
            var bytes = try Data(contentsOf: file)
            for index in stride(from: 16, to: bytes.count, by: 97) { bytes[index] ^= 0x5A }
            try bytes.write(to: file)
        }
        let forced = try await run(pipeline, folder, ["--force"])
        #expect(forced.status == 0, "\(forced.error)")
        #expect(!forced.error.contains("raw/objects"))
        let again = try await run(pipeline, folder, ["--force"])
        #expect(again.status == 0, "\(again.error)")
        let plain = try await run(pipeline, folder)
        #expect(plain.status == 0, "\(plain.error)")
    }

    /// A latest snapshot emptied (truncated to 0 bytes) or with flipped bytes is reported in one
    /// line naming it, compared with nothing, and replaced by the next publication.
    @Test(arguments: ["truncated", "flipped"])
    func aDamagedLatestSnapshotDoesNotStopTheNextPublish(_ damage: String) async throws {
        let name = "damaged-latest-\(damage)"
        let (folder, pipeline, server) = try await primed(name)
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        let damaged = try #require(latest(folder, name))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: damaged.path)
        if damage == "truncated" {
            try Data().write(to: damaged)
        } else {
            var bytes = try Data(contentsOf: damaged)
            for index in stride(from: 0, to: bytes.count, by: 211) { bytes[index] ^= 0xFF }
            try bytes.write(to: damaged)
        }
        let next = try await run(pipeline, folder, ["--force"])
        #expect(next.status == 0, "\(next.error)")
        #expect(next.error.contains(damaged.lastPathComponent), "\(next.error)")
        let replaced = try #require(latest(folder, name))
        #expect(replaced != damaged)
        #expect(try SnapshotReader.rowCounts(of: replaced)["menu_item"] ?? 0 > 0)

        // The listing shows the damaged file as unreadable and the others as they are.
        let list = try await CommissaryProcess.run(["snapshots", "--workspace", folder.path])
        #expect(list.status == 0, "\(list.error)")
        #expect(list.output.contains("unreadable") && list.output.contains(damaged.lastPathComponent), "\(list.output)")
        // `check` on it names the file in one line.
        let check = try await CommissaryProcess.run(["check", damaged.path, "--workspace", folder.path])
        #expect(check.status == 1)
        #expect(check.error.split(separator: "\n").count == 1 && check.error.contains(damaged.path), "\(check.error)")
    }

    /// A ledger that is not a database any more: the next run (plain or `--force`) moves it
    /// aside, says where in one line, starts a new one and publishes.
    @Test(arguments: [false, true])
    func aDamagedLedgerIsMovedAsideAndTheRunGoesOn(_ force: Bool) async throws {
        let name = "damaged-ledger-\(force ? "force" : "plain")"
        let (folder, pipeline, server) = try await primed(name)
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        let ledger = folder.appendingPathComponent("state/\(name).ledger.sqlite")
        var bytes = try Data(contentsOf: ledger)
        bytes.replaceSubrange(0..<16, with: Data("not a database!!".utf8))
        try bytes.write(to: ledger)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: ledger.path + suffix) }

        let next = try await run(pipeline, folder, force ? ["--force"] : [])
        #expect(next.status == 0, "\(next.error)")
        #expect(next.error.contains("moved aside to \(ledger.path).damaged-"), "\(next.error)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: ledger.deletingLastPathComponent().path)
            .filter { $0.hasPrefix("\(name).ledger.sqlite.damaged-") }
        #expect(aside.count == 1)
        let after = try await run(pipeline, folder)
        #expect(after.status == 0, "\(after.error)")
        #expect(!after.error.contains("moved aside"))
    }

    /// Staging files that killed runs left are swept by the next run of the same pipeline, and
    /// another pipeline's are left alone.
    @Test func theNextRunSweepsStagingLeftovers() async throws {
        let name = "staging-sweep"
        let (folder, pipeline, server) = try await primed(name)
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        let staging = folder.appendingPathComponent("staging")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        let leftovers = ["\(name)-2026-11-01-0101010101.sqlite", "\(name)-2026-11-01-0101010101.sqlite-journal",
                         "\(name)-2026-11-02-02020202ab.sqlite-wal", "\(name)-2026-11-02-02020202ab.sqlite-scratch-ahead"]
        let others = ["\(name)-x-2026-11-01-0101010101.sqlite", "other-2026-11-01-0101010101.sqlite"]
        for file in leftovers + others { try Data("x".utf8).write(to: staging.appendingPathComponent(file)) }
        let next = try await run(pipeline, folder, ["--force"])
        #expect(next.status == 0, "\(next.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: staging.path).sorted() == others.sorted())
    }

    /// A page of the latest snapshot's menu items damaged on disk (the table's root page
    /// overwritten), the rest of the file readable. A night that changes a day continues the
    /// file, touches that page and fails as the machine's fault (exit 4), as it used to every
    /// night until a forced run. The run after it checks the latest file (a run did not finish),
    /// says in one line that it is damaged, writes every day afresh and publishes a sound
    /// snapshot; the night after is a plain one.
    @Test func aDamagedPageOfTheLatestSnapshotCostsOneNightNotEvery() async throws {
        let name = "damaged-page"
        let folder = try Paths.temporaryFolder(name)
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        try FileManager.default.copyItem(at: Paths.sampleSite, to: site)
        let pipeline = folder.appendingPathComponent("\(name).yml")
        try Data("""
            pipeline: \(name)
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: \(site.path)
                dates: {from: 2026-10-10, to: 2026-10-12}
            checks: {min_menu_items: 1}
            """.utf8).write(to: pipeline)
        let arguments = ["run", pipeline.path, "--workspace", folder.path, "--log-format", "text"]
        let first = try await CommissaryProcess.run(arguments)
        #expect(first.status == 0, "\(first.error)")
        let damaged = try #require(latest(folder, name))
        let items = try #require(try SnapshotReader.rowCounts(of: damaged)["menu_item"])
        let (root, pageSize) = try SnapshotReader.read(damaged) { db in
            (try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'menu_item'") ?? 0,
             try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
        }
        try #require(root > 1 && pageSize > 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: damaged.path)
        let file = try FileHandle(forWritingTo: damaged)
        try file.seek(toOffset: UInt64((root - 1) * pageSize))
        try file.write(contentsOf: Data(repeating: 0xFF, count: 8))
        try file.close()
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: damaged.path)
        // One item fewer on the middle day: the night writes that day into a copy of the file.
        let page = site.appendingPathComponent("Menus/2026-10-11.html")
        var html = try String(contentsOf: page, encoding: .utf8)
        let item = try #require(html.range(of: "<li class=\"menu-item\">", options: .backwards))
        let end = try #require(html.range(of: "</li>", range: item.upperBound..<html.endIndex))
        html.removeSubrange(item.lowerBound..<end.upperBound)
        try html.write(to: page, atomically: true, encoding: .utf8)

        let failed = try await CommissaryProcess.run(arguments)
        #expect(failed.status == 4, "\(failed.error)")
        #expect(failed.error.contains("the latest snapshot, which this night continues, may be damaged: the next "
                                      + "run checks it and, if it is, writes every day afresh"), "\(failed.error)")
        #expect(latest(folder, name) == damaged)
        let next = try await CommissaryProcess.run(arguments)
        #expect(next.status == 0, "\(next.error)")
        let said = next.error.split(separator: "\n").filter { $0.contains("the latest snapshot is damaged") }
        #expect(said.count == 1 && said.first?.contains(damaged.lastPathComponent) == true, "\(next.error)")
        let published = try #require(latest(folder, name))
        #expect(published != damaged)
        #expect(try SnapshotReader.read(published) { db in try SnapshotReader.verify(db) } == [])
        #expect(try SnapshotReader.rowCounts(of: published)["menu_item"] == items - 1)
        let after = try await CommissaryProcess.run(arguments)
        #expect(after.status == 0, "\(after.error)")
        #expect(!after.error.contains("the latest snapshot is damaged"), "\(after.error)")
    }
}
