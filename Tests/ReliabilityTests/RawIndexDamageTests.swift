import Foundation
import GRDB
import Snapshot
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A raw-store index SQLite cannot read any more used to stop every run for good (exit 3, "a
/// blocking check", the same SQLite message once per partition) until someone deleted it. Each
/// damage is done to a real workspace, and the real binary must get past it and say so once.
@Suite(.serialized) struct RawIndexDamageTests {
    final class Switch: @unchecked Sendable {
        private let lock = NSLock()
        private var on = false
        var isOn: Bool {
            get { lock.withLock { on } }
            set { lock.withLock { on = newValue } }
        }
    }

    /// A workspace with one published snapshot of the sample site served by `server`.
    private func primed(_ name: String, server: TestHTTPServer) async throws -> (folder: URL, pipeline: URL) {
        let folder = try Paths.temporaryFolder(name)
        let pipeline = folder.appendingPathComponent("\(name).yml")
        try Data(SampleSite.pipelineYAML(name: name, base: server.url("")).utf8).write(to: pipeline)
        let first = try await run(pipeline, folder)
        #expect(first.status == 0, "\(first.error)")
        return (folder, pipeline)
    }

    private func run(_ pipeline: URL, _ folder: URL, _ extra: [String] = []) async throws -> CommissaryProcess.Outcome {
        try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path, "--log-format", "text"] + extra)
    }

    /// Bytes no SQLite file starts with, the same on every run (SplitMix64 from a fixed seed).
    private func garbage(_ count: Int) -> Data {
        var generator = SeededGenerator(seed: 20261012)
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    private func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// The index replaced by garbage (with a `-wal` of garbage beside it, which SQLite discards)
    /// or cut to half its length, after a checkpoint has put every record in the file itself:
    /// the next run, plain or `--force`, moves the index aside, says so in one line, starts a
    /// new one and ends with exit 0; the run after it finds a sound index that holds its fetches.
    @Test(arguments: ["garbage", "truncated"], [false, true])
    func aDamagedIndexIsMovedAsideAndTheRunGoesOn(_ damage: String, _ force: Bool) async throws {
        let server = try SampleSite.server(lifetime: .seconds(120))
        defer { server.stop() }
        let (folder, pipeline) = try await primed("raw-index-\(damage)-\(force ? "force" : "plain")", server: server)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("raw")
        let index = raw.appendingPathComponent("index.sqlite")
        try await DatabaseQueue(path: index.path).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let bytes = try Data(contentsOf: index)
        #expect(bytes.count > 8192)
        if damage == "garbage" {
            try garbage(bytes.count).write(to: index)
            try garbage(4096).write(to: URL(fileURLWithPath: index.path + "-wal"))
        } else {
            try bytes.prefix(bytes.count / 2).write(to: index)
        }

        let next = try await run(pipeline, folder, force ? ["--force"] : [])
        #expect(next.status == 0, "\(next.error)")
        let said = next.error.split(separator: "\n").filter { $0.contains("raw store's index") }
        #expect(said.count == 1, "\(next.error)")
        #expect(said.first?.contains("\(index.path): the raw store's index was damaged (") == true, "\(next.error)")
        #expect(said.first?.contains("moved aside to \(index.path).damaged-") == true, "\(next.error)")
        let aside = try files(in: raw).filter { $0.hasPrefix("index.sqlite.damaged-") }
        #expect(aside.contains { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }, "\(aside)")

        let after = try await run(pipeline, folder)
        #expect(after.status == 0, "\(after.error)")
        #expect(!after.error.contains("raw store's index"), "\(after.error)")
        let (check, records) = try await DatabaseQueue(path: index.path).read { db in
            (try String.fetchAll(db, sql: "PRAGMA quick_check"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM record WHERE url = ?", arguments: [server.url("/Hours")]))
        }
        #expect(check == ["ok"])
        #expect((records ?? 0) >= 1)
    }

    /// A run that cannot begin (a `--partition` no source has) after its opening moved a damaged
    /// ledger and raw index aside still says where each went: the next run finds sound files and
    /// has nothing to say.
    @Test func aRunThatCannotBeginStillSaysWhatItMovedAside() async throws {
        let server = try SampleSite.server(lifetime: .seconds(120))
        defer { server.stop() }
        let (folder, pipeline) = try await primed("raw-index-not-begun", server: server)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("raw")
        let index = raw.appendingPathComponent("index.sqlite")
        try await DatabaseQueue(path: index.path).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        try garbage(try Data(contentsOf: index).count).write(to: index)
        let ledger = folder.appendingPathComponent("state/raw-index-not-begun.ledger.sqlite")
        var ledgerBytes = try Data(contentsOf: ledger)
        ledgerBytes.replaceSubrange(0..<16, with: Data("not a database!!".utf8))
        try ledgerBytes.write(to: ledger)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: ledger.path + suffix) }

        let refused = try await run(pipeline, folder, ["--partition", "ucla-menu/1999-01-01"])
        #expect(refused.status != 0)
        #expect(refused.error.contains("no partition of this run is named ucla-menu/1999-01-01"), "\(refused.error)")
        let said = refused.error.split(separator: "\n").filter { $0.contains("raw store's index") }
        #expect(said.count == 1, "\(refused.error)")
        #expect(said.first?.contains("moved aside to \(index.path).damaged-") == true, "\(refused.error)")
        #expect(try files(in: raw).contains { $0.hasPrefix("index.sqlite.damaged-") && !$0.hasSuffix("-wal") })
        let ledgerSaid = refused.error.split(separator: "\n").filter { $0.contains("state ledger") }
        #expect(ledgerSaid.count == 1, "\(refused.error)")
        #expect(ledgerSaid.first?.contains("moved aside to \(ledger.path).damaged-") == true, "\(refused.error)")
    }

    /// A `-wal` or `-shm` of garbage beside a sound index is no damage SQLite reports: it
    /// discards WAL frames whose checksums fail and rebuilds the shared-memory index. The run
    /// goes on, moves nothing aside, and publishes.
    @Test(arguments: ["-wal", "-shm"])
    func aCompanionOfGarbageIsNoWedge(_ suffix: String) async throws {
        let server = try SampleSite.server(lifetime: .seconds(120))
        defer { server.stop() }
        let (folder, pipeline) = try await primed("raw-index-companion\(suffix)", server: server)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("raw")
        let companion = URL(fileURLWithPath: raw.appendingPathComponent("index.sqlite").path + suffix)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: companion.path)[.size] as? Int)
        try garbage(max(size, 4096)).write(to: companion)

        let next = try await run(pipeline, folder, ["--force"])
        #expect(next.status == 0, "\(next.error)")
        #expect(!next.error.contains("raw store's index"), "\(next.error)")
        #expect(try files(in: raw).allSatisfy { !$0.contains(".damaged-") })
    }

    /// The index replaced by a file of garbage while a run waits for a slow page: the run stops
    /// once it finds it, with exit 4 (the machine's fault, not a blocking check) and one line,
    /// publishes nothing and moves the index aside; the next run publishes.
    @Test func anIndexDamagedDuringTheRunStopsItOnce() async throws {
        let slow = Switch()
        let server = try SampleSite.server(lifetime: .seconds(120)) { request, _ in
            guard slow.isOn, request.path == "/Menus/2026-10-10", let page = SampleSite.page(request.path) else { return nil }
            return Reply(headers: [("Content-Type", "text/html; charset=utf-8")], body: page, delay: .seconds(3))
        }
        defer { server.stop() }
        let name = "raw-index-mid-run"
        let (folder, pipeline) = try await primed(name, server: server)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        let goodNight = try #require(store.latest(pipeline: name))
        let goodBytes = try Data(contentsOf: goodNight)
        let index = folder.appendingPathComponent("raw/index.sqlite")
        slow.isOn = true

        async let outcome = CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path, "--quiet", "--force"])
        // The run is waiting for the slow page (its first request was the priming run's).
        try await server.waitForRequests(to: "/Menus/2026-10-10", count: 2)
        // A new file under the old name, its `-wal` and `-shm` gone, as a restore gone wrong or
        // another program would leave it (with the old `-wal` beside it, SQLite would read the
        // pages it holds and not notice).
        let replacement = folder.appendingPathComponent("raw/replacement")
        try garbage(16384).write(to: replacement)
        #expect(rename(replacement.path, index.path) == 0)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: index.path + suffix) }
        let damaged = try await outcome

        #expect(damaged.status == 4, "\(damaged.error)")
        let lines = damaged.error.split(separator: "\n")
        #expect(lines.count == 1, "\(damaged.error)")
        #expect(lines.first?.hasPrefix("error: \(index.path): the raw store's index was found damaged during the run (")
                == true, "\(damaged.error)")
        #expect(lines.first?.contains("moved aside to \(index.path).damaged-") == true, "\(damaged.error)")
        #expect(store.latest(pipeline: name) == goodNight)
        #expect(try Data(contentsOf: goodNight) == goodBytes)
        #expect(try files(in: folder.appendingPathComponent("staging")).isEmpty)

        slow.isOn = false
        let next = try await run(pipeline, folder, ["--force"])
        #expect(next.status == 0, "\(next.error)")
        #expect(store.latest(pipeline: name) != goodNight)
    }
}
