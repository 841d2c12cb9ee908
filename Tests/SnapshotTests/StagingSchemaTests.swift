import Foundation
import GRDB
@testable import Snapshot
import Testing

/// A database written from empty gets its schema on a thread of its own, after it is made and
/// before its first use (a schema that cannot be made: `FullDiskTests`).
@Suite struct StagingSchemaTests {
    /// A staging database discarded at once, its schema perhaps still being made, leaves
    /// nothing behind, and the next one made at the same place is whole.
    @Test func aStagingDatabaseDiscardedAtOnceLeavesNothing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("staging.sqlite")
        try StagingSnapshot(creatingAt: url).discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        let again = try StagingSnapshot(creatingAt: url)
        defer { again.discard() }
        #expect(try again.rowCounts()["menu_item"] == 0)
        #expect(try again.queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == SnapshotSchema.version)
    }
}
