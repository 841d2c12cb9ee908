import Foundation
import Snapshot
import Testing
import TestSupport

/// A run `--as-of` an earlier day publishes a snapshot named by that day, which follows the one
/// `latest` pointed at before it: its change file leads from a file whose name sorts after its
/// own. `changes --since` follows the chain as published; it used to call the file damaged.
@Suite struct BackfillChangeFeedTests {
    @Test func aSnapshotPublishedAsOfAnEarlierDayContinuesTheChangeFeed() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = folder.appendingPathComponent("backfill.yml")
        try Data("""
            pipeline: backfill
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: \(Paths.sampleSite.path)
                dates: {from: 2026-10-10, to: 2026-10-12}
            """.utf8).write(to: pipeline)
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        let arguments = ["run", pipeline.path, "--workspace", folder.path, "--quiet"]
        let first = try await CommissaryProcess.run(arguments + ["--as-of", "2026-10-12"])
        #expect(first.status == 0, "\(first.error)")
        let newer = try #require(store.latest(pipeline: "backfill"))
        let backfill = try await CommissaryProcess.run(arguments + ["--as-of", "2026-10-10", "--force"])
        #expect(backfill.status == 0, "\(backfill.error)")
        let older = try #require(store.latest(pipeline: "backfill"))
        #expect(older.lastPathComponent.hasPrefix("backfill-2026-10-10-"))
        #expect(newer.lastPathComponent.hasPrefix("backfill-2026-10-12-"))
        let written = try #require(try SnapshotStore.changes(beside: older))
        #expect(written.old.snapshot == newer.lastPathComponent)

        let runId = try #require(try SnapshotReader.meta(of: newer)["run_id"])
        let since = try await CommissaryProcess.run(["changes", "--since", runId, "--workspace", folder.path,
                                                     "--format", "json"])
        #expect(since.status == 0, "\(since.status): \(since.error)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(since.output.utf8)) as? [String: Any])
        #expect((answer["new"] as? [String: Any])?["snapshot"] as? String == older.lastPathComponent, "\(since.output)")
        #expect((answer["old"] as? [String: Any])?["snapshot"] as? String == newer.lastPathComponent, "\(since.output)")
    }
}
