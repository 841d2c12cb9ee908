import Foundation
@testable import Snapshot
import Testing

/// What a run reads of the latest snapshot as it opens, on one connection: the fingerprint of
/// its inputs and its stale partitions, or nothing from a file that cannot be read.
@Suite struct SnapshotAtOpeningTests {
    @Test func aPublishedSnapshotGivesItsFingerprintAndItsStalePartitions() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let staging = try stage(smallDataset(), in: folder)
        defer { staging.discard() }
        let stale = StalePartition(source: "test", partition: "2026-10-11", keptFetchedAt: "2026-10-11T02:00:00Z",
                                   keptRunId: "r0", reason: "the newest fetch failed")
        try staging.record(run: run("r1"), checks: [], documents: [], stale: [stale])
        let published = try SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
            .publish(staging, fileName: "demo-2026-10-12-020000abcd.sqlite", pipeline: "demo")
        let opening = SnapshotAtOpening(reading: published)
        #expect(opening.url == published)
        // `run("r1")` records 64 zeros as the inputs' fingerprint.
        #expect(opening.inputsSHA256 == String(repeating: "0", count: 64))
        #expect(opening.stalePartitions == [stale])
    }

    @Test func aFileThatIsNoSnapshotGivesNothing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("demo-2026-10-12-020000abcd.sqlite")
        try Data("not a database, as a disk error might leave a file".utf8).write(to: file)
        let opening = SnapshotAtOpening(reading: file)
        #expect(opening.inputsSHA256 == nil)
        #expect(opening.stalePartitions == nil)
    }
}
