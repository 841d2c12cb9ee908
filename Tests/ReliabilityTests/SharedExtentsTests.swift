import Basics
import FoodModel
import Foundation
import Pipeline
import Snapshot
import SnapshotTestSupport
import Testing
import TestSupport

/// An XFS file system with reflink, 320 MB (XFS's least), mounted at `root/xfs` until `close`.
struct SharingFileSystem {
    static let mkfs = ["/usr/sbin/mkfs.xfs", "/sbin/mkfs.xfs"].first { FileManager.default.isExecutableFile(atPath: $0) }

    let root: URL
    var folder: URL { root.appendingPathComponent("xfs") }

    init() throws {
        root = try Paths.temporaryFolder("xfs")
        let image = root.appendingPathComponent("image")
        try Mounts.run(["truncate", "-s", "320M", image.path])
        try Mounts.run([try #require(Self.mkfs), "-q", "-m", "reflink=1", image.path])
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Mounts.run(["mount", "-o", "loop", image.path, folder.path])
    }

    /// Unmounts it, lazily: a file the run left open (a database closed when its last reference
    /// goes) would refuse a plain unmount and leave the file system mounted, holding one of the
    /// machine's few loop devices; mounted with `-o loop`, the device is freed with the last file.
    func close() {
        try? Mounts.run(["umount", "--lazy", folder.path])
        try? FileManager.default.removeItem(at: root)
    }
}

/// On a file system that shares extents (XFS made with reflink, on a loop device of the test's
/// own), a copy shares its source's extents instead of holding a second copy of the bytes, and a
/// night that continues the latest snapshot starts from such a copy: the snapshot it publishes
/// still shares with the night before every page the night did not change. Elsewhere the bytes
/// are copied, as every other test sees on this machine's ext4.
@Suite(.serialized, .enabled(if: Mounts.permitted && SharingFileSystem.mkfs != nil,
                             "mounting a loop device, or mkfs.xfs (xfsprogs), is not available here"))
struct SharedExtentsTests {
    /// Blocks of `file` that share their extent with another file, as `filefrag -v` flags them.
    static func sharedBlocks(of file: URL) throws -> Int {
        let report = try ExternalProgram.run(URL(fileURLWithPath: "/usr/sbin/filefrag"), ["-v", file.path])
        try #require(report.status == 0, "\(report.output)")
        // " 0:  0.. 1953:  24.. 1977:  1954:  last,shared,eof": the length is the fourth field.
        return report.output.split(separator: "\n").filter { $0.contains("shared") }.reduce(0) { total, line in
            let fields = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
            return total + (fields.count > 3 ? Int(fields[3]) ?? 0 : 0)
        }
    }

    @Test func aCopySharesItsSourcesExtentsAndWritingItLeavesTheSource() throws {
        let xfs = try SharingFileSystem()
        defer { xfs.close() }
        let source = xfs.folder.appendingPathComponent("source")
        let bytes = Data((0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        try bytes.write(to: source)
        let copy = xfs.folder.appendingPathComponent("copy")
        try FileCopy.copy(from: source.path, to: copy.path)
        #expect(try Data(contentsOf: copy) == bytes)
        // 2 MB in 4 KB blocks, every one shared.
        #expect(try Self.sharedBlocks(of: copy) == 512)
        let handle = try FileHandle(forWritingTo: copy)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 4096))
        try handle.synchronize()
        try handle.close()
        #expect(try Data(contentsOf: source) == bytes)
        #expect(try Data(contentsOf: copy).prefix(4096) == Data(repeating: 0xFF, count: 4096))
        // A copy never replaces a file already there.
        #expect(throws: Failure.self) { try FileCopy.copy(from: source.path, to: copy.path) }
    }

    /// Two months of the 2016 dataset (a copy on XFS), then the same months with one item taken
    /// off one day: the second night continues the first, and at least half of the bytes of its
    /// menu tables (`service_day`, `meal`, `menu_item` and their indexes) are still the first
    /// night's, shared, not copied. (Every other table a night writes again whole.)
    @Test func aContinuedNightSharesTheUnchangedMenusOfTheNightBefore() async throws {
        let xfs = try SharingFileSystem()
        defer { xfs.close() }
        let dataset = xfs.folder.appendingPathComponent("dataset")
        try FileManager.default.copyItem(at: Paths.sharedData.appendingPathComponent("ucla-dataset-2016"), to: dataset)
        var spec = try SpecReader.read(Paths.pipelines.appendingPathComponent("ucla-history-2016.yml"))
        spec.sources[0].location = .directory(dataset)
        spec.sources[0].dates = .range(from: ServiceDate("2016-07-25")!, to: ServiceDate("2016-09-25")!)
        let workspace = xfs.folder.appendingPathComponent("workspace")
        let first = URL(fileURLWithPath: try #require(try await runPipeline(spec, workspace: workspace).snapshotPath))
        #expect(try Self.sharedBlocks(of: first) == 0)

        // The last dish of the first station of the first hall at lunch on 2016-08-10 ('l', 'rk', 'i').
        let day = dataset.appendingPathComponent("2016-08-10.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: day)) as? [String: Any])
        var lunch = try #require(json["l"] as? [[String: Any]])
        var stations = try #require(lunch[0]["rk"] as? [[String: Any]])
        var dishes = try #require(stations[0]["i"] as? [Any])
        dishes.removeLast()
        stations[0]["i"] = dishes
        lunch[0]["rk"] = stations
        json["l"] = lunch
        try JSONSerialization.data(withJSONObject: json).write(to: day)

        let second = URL(fileURLWithPath: try #require(try await runPipeline(spec, workspace: workspace).snapshotPath))
        #expect(second != first)
        #expect(try SnapshotReader.rowCounts(of: second)["menu_item"] == (try SnapshotReader.rowCounts(of: first)["menu_item"] ?? 0) - 1)
        let menuBytes = try SnapshotReader.read(second) { db in
            try Int.fetchOne(db, sql: """
                SELECT sum(pgsize) FROM dbstat WHERE name IN (
                    SELECT name FROM sqlite_master WHERE tbl_name IN ('service_day', 'meal', 'menu_item'))
                """) ?? 0
        }
        let sharedBytes = try Self.sharedBlocks(of: second) * 4096
        #expect(menuBytes > 1 << 20 && sharedBytes >= menuBytes / 2, "\(sharedBytes) bytes shared, \(menuBytes) in the menu tables")
    }
}
