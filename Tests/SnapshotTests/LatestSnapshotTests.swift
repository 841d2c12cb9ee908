import Basics
import Foundation
@testable import Snapshot
import SnapshotTestSupport
import Testing

/// The latest snapshot as a run opens it: what revalidation asks of it, read at the opening, and
/// the one connection every later read of the night goes through; nothing from a file that
/// cannot be read, and a failure naming it.
@Suite struct LatestSnapshotTests {
    @Test func aPublishedSnapshotGivesItsFingerprintAndItsStalePartitions() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stale = StalePartition(source: "test", partition: "2026-10-11", keptFetchedAt: "2026-10-11T02:00:00Z",
                                   keptRunId: "r0", reason: "the newest fetch failed")
        let published = try publish(in: folder, stale: [stale])
        let latest = LatestSnapshot(reading: published)
        #expect(latest.url == published)
        #expect(latest.isReadable)
        // `run("r1")` records 64 zeros as the inputs' fingerprint.
        #expect(latest.inputsSHA256 == String(repeating: "0", count: 64))
        #expect(latest.stalePartitions == [stale])
    }

    /// Every read after the opening goes through the connection opened then: it still answers
    /// once the file's name is gone, which a read that opened the file again could not.
    @Test func laterReadsUseTheConnectionOpenedAtTheOpening() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let published = try publish(in: folder, stale: [])
        let latest = LatestSnapshot(reading: published)
        try FileManager.default.removeItem(at: published)
        #expect(throws: Failure.self) { try SnapshotReader.rowCounts(of: published) }
        // `smallDataset()`: two service days, Covel and De Neve, four items.
        let counts = try latest.rowCounts()
        #expect(counts["service_day"] == 2)
        #expect(counts["restaurant"] == 2)
        #expect(counts["menu_item"] == 4)
        #expect(try latest.checks().map(\.name) == ["min_menu_items"])
        #expect(try latest.readLabels { try $0.meta()["run_id"] } == "r1")
    }

    @Test func aFileThatIsNoSnapshotGivesNothingAndItsReadsNameIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("demo-2026-10-12-020000abcd.sqlite")
        try Data("not a database, as a disk error might leave a file".utf8).write(to: file)
        let latest = LatestSnapshot(reading: file)
        #expect(!latest.isReadable)
        #expect(latest.inputsSHA256 == nil)
        #expect(latest.stalePartitions == nil)
        let failure = try #require(throws: Failure.self) { try latest.rowCounts() }
        #expect(failure.description.contains(file.path), "\(failure)")
    }

    /// `smallDataset()` published as the pipeline "demo", its run "r1" carrying `stale`.
    private func publish(in folder: URL, stale: [StalePartition]) throws -> URL {
        let staging = try stage(smallDataset(), in: folder)
        defer { staging.discard() }
        // `stage` recorded the run and its one check, `min_menu_items`; the stale partitions join them.
        try staging.record(run: run("r1"), checks: [], documents: [], stale: stale)
        return try SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
            .publish(staging, fileName: "demo-2026-10-12-020000abcd.sqlite", pipeline: "demo")
    }
}
