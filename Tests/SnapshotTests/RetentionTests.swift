import Foundation
import Snapshot
import Testing

@Suite struct RetentionTests {
    private static let names = [
        "demo-2026-08-03-010000aaaa.sqlite", "demo-2026-08-30-010000aaaa.sqlite",
        "demo-2026-09-15-010000aaaa.sqlite", "demo-2026-10-01-010000aaaa.sqlite",
        "demo-2026-10-11-010000aaaa.sqlite", "demo-2026-10-12-010000aaaa.sqlite",
        "demo-2026-10-12-020000aaaa.sqlite",
    ]

    private func removals(_ policy: RetentionPolicy, protecting: Set<String> = []) -> [String] {
        // Given shuffled, as a folder listing would be.
        let snapshots = Self.names.shuffled().compactMap { SnapshotFileName($0, pipeline: "demo") }
        return policy.removals(from: snapshots, protecting: protecting).map { String($0.fileName.dropFirst(5).prefix(17)) }
    }

    @Test func keepsTheLastNAndTheNewestOfEachRecentMonth() {
        // Newest two: 10-12 02:00 and 10-12 01:00; newest of October is among them, of
        // September the 15th.
        #expect(removals(RetentionPolicy(keepLast: 2, keepMonthly: 2))
                == ["2026-08-03-010000", "2026-08-30-010000", "2026-10-01-010000", "2026-10-11-010000"])
        #expect(removals(RetentionPolicy(keepLast: 0, keepMonthly: 3))
                == ["2026-08-03-010000", "2026-10-01-010000", "2026-10-11-010000", "2026-10-12-010000"])
        #expect(removals(RetentionPolicy(keepLast: 10, keepMonthly: 0)).isEmpty)
    }

    @Test func neverRemovesAProtectedFile() {
        #expect(removals(RetentionPolicy(keepLast: 2, keepMonthly: 2),
                         protecting: ["demo-2026-08-03-010000aaaa.sqlite"])
                == ["2026-08-30-010000", "2026-10-01-010000", "2026-10-11-010000"])
        #expect(removals(RetentionPolicy(), protecting: ["demo-2026-09-15-010000aaaa.sqlite"]).count == 6)
    }

    @Test func readsOnlyThisPipelinesSnapshotNames() throws {
        let name = try #require(SnapshotFileName("demo-2026-10-12-0300001a2b.sqlite", pipeline: "demo"))
        #expect(name.date == "2026-10-12")
        #expect(name.runId == "0300001a2b")
        #expect(name.month == "2026-10")
        #expect(SnapshotFileName("demo-x-2026-10-12-0300001a2b.sqlite", pipeline: "demo") == nil)
        #expect(SnapshotFileName("demo-2026-10-12-0300001a2b.sqlite.manifest.json", pipeline: "demo") == nil)
        #expect(SnapshotFileName(".demo-2026-10-12-0300001a2b.sqlite.partial", pipeline: "demo") == nil)
        #expect(SnapshotFileName("demo-q.sqlite", pipeline: "demo") == nil)
        // The date's digits and dashes where they belong, and a run id of digits and lowercase letters.
        #expect(SnapshotFileName("demo-2026-10-12-a.sqlite", pipeline: "demo")?.runId == "a")
        for name in ["demo-2026-10-12-.sqlite", "demo-2026-10-12.sqlite", "demo-2026-1O-12-0300001a2b.sqlite",
                     "demo-2026/10-12-0300001a2b.sqlite", "demo-2026-10-12_0300001a2b.sqlite",
                     "demo-2026-10-12-0300001A2B.sqlite", "demo-2026-10-12-03000-1a2b.sqlite",
                     "demo-20261-0-12-0300001a2b.sqlite", "demo-2026-10-12-0300001a2é.sqlite"] {
            #expect(SnapshotFileName(name, pipeline: "demo") == nil, "\(name)")
        }
    }

    @Test func removesOldFilesWithTheirSideFilesAndKeepsLatestAndThePublishedOne() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        // A night's staging database is published once: moved into place.
        func publish(_ name: String, pipeline: String) throws -> URL {
            let staging = try stage(smallDataset(), in: folder)
            defer { staging.discard() }
            return try store.publish(staging, fileName: name, pipeline: pipeline)
        }
        var published: [URL] = []
        for name in Self.names {
            published.append(try publish(name, pipeline: "demo"))
            _ = try store.writeManifest(Data("{}".utf8), beside: published[published.count - 1])
        }
        // Another pipeline whose name starts alike is not this pipeline's to prune.
        let other = try publish("demo-x-2026-08-01-010000aaaa.sqlite", pipeline: "demo-x")
        _ = try store.writeManifest(Data("{}".utf8), beside: other)
        #expect(store.latest(pipeline: "demo") == published[6])

        // Keep the last one only, while the run "just published" the September file.
        let removed = try store.applyRetention(RetentionPolicy(keepLast: 1), pipeline: "demo", keeping: published[2])
        #expect(removed.map(\.lastPathComponent) == [0, 1, 3, 4, 5].map { Self.names[$0] })

        let left = try FileManager.default.contentsOfDirectory(atPath: store.directory.path).sorted()
        let kept = [other.lastPathComponent, Self.names[2], Self.names[6]]
        #expect(left == (kept.flatMap { [$0, $0 + ".manifest.json", $0 + ".metadata.json"] }
                         + ["latest-demo", "latest-demo-x"]).sorted())
        #expect(store.latest(pipeline: "demo") == published[6])
    }
}
