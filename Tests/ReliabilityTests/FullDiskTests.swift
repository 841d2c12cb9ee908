import Basics
import Fetching
import FoodModel
import Foundation
import GRDB
@testable import Snapshot
import SnapshotTestSupport
import Testing
import TestSupport

/// A full disk and a read-only snapshots folder, made real: the workspace is a small tmpfs
/// mounted for the test (we run as root, so permissions alone would not stop a write). The run
/// must end with one clear line on standard error, publish nothing, and leave `latest` and its
/// file untouched; once space is back, the next run publishes.
@Suite(.serialized, .enabled(if: Mounts.permitted, "mounting a tmpfs is not permitted here"))
struct FullDiskTests {
    private func pipeline(in folder: URL) throws -> URL {
        let file = folder.appendingPathComponent("disk.yml")
        try Data("""
            pipeline: disk
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: \(Paths.sampleSite.path)
                dates: {from: 2026-10-10, to: 2026-10-12}
            """.utf8).write(to: file)
        return file
    }

    /// Exit status 4, the machine's fault, and one line saying which (the run is `--quiet`, as
    /// cron runs it, so that its events are not on standard error too).
    private func expectOneClearLine(_ run: CommissaryProcess.Outcome, mentioning words: [String],
                                    sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == 4, "\(run.error)", sourceLocation: sourceLocation)
        let lines = run.error.split(separator: "\n")
        #expect(lines.count == 1, "\(run.error)", sourceLocation: sourceLocation)
        let line = lines.first.map(String.init) ?? ""
        #expect(line.hasPrefix("error: "), sourceLocation: sourceLocation)
        #expect(words.contains { line.contains($0) }, "\(line)", sourceLocation: sourceLocation)
    }

    @Test func aFullDiskFailsClearlyAndCorruptsNothing() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mount = try Mounts.tmpfs(at: folder.appendingPathComponent("workspace"), megabytes: 4)
        defer { Mounts.unmount(mount) }
        let pipeline = try pipeline(in: folder)
        let arguments = ["run", pipeline.path, "--workspace", mount.path, "--quiet"]
        #expect(try await CommissaryProcess.run(arguments).status == 0)
        let store = SnapshotStore(directory: mount.appendingPathComponent("snapshots"))
        let latest = try #require(store.latest(pipeline: "disk"))
        let bytes = sha256Hex(try Data(contentsOf: latest))

        let filler = try fillToTheLastBlock(mount)

        let full = try await CommissaryProcess.run(arguments + ["--force"])
        expectOneClearLine(full, mentioning: ["no space left on device", "No space left on device", "database or disk is full",
                                              "SQLITE_FULL"])
        #expect(store.latest(pipeline: "disk") == latest)
        #expect(sha256Hex(try Data(contentsOf: latest)) == bytes)
        try expectSoundSnapshots(store.directory)
        let finals = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
            .filter { $0.hasSuffix(".sqlite") && !$0.hasPrefix(".") }
        #expect(finals == [latest.lastPathComponent])

        try FileManager.default.removeItem(at: filler)
        #expect(try await CommissaryProcess.run(arguments + ["--force"]).status == 0)
        #expect(store.latest(pipeline: "disk") != latest)
        try expectSoundSnapshots(store.directory)
    }

    /// Fills what is left of `folder`'s file system, to the last block; returns the file that does.
    private func fillToTheLastBlock(_ folder: URL) throws -> URL {
        let filler = folder.appendingPathComponent("filler")
        _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        let block = Data(count: 64 * 1024)
        while (try? handle.write(contentsOf: block)) != nil {}
        var small = Data(count: 512)
        while (try? handle.write(contentsOf: small)) != nil { small = Data(count: 512) }
        try? handle.close()
        return filler
    }

    /// A staging database written from empty on a disk with no room left: its schema, made on a
    /// thread of its own once the database is created, cannot be. Its first use fails saying so,
    /// in the words creating it would have used; every use after fails the same way; discarded,
    /// it leaves nothing behind.
    @Test func aStagingDatabaseThatCannotGetItsSchemaFailsItsFirstUse() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mount = try Mounts.tmpfs(at: folder.appendingPathComponent("staging"), megabytes: 1)
        defer { Mounts.unmount(mount) }
        let filler = try fillToTheLastBlock(mount)
        let url = mount.appendingPathComponent("night.sqlite")
        let staging = try StagingSnapshot(creatingAt: url)
        let day = DayToWrite(ServiceDay(date: ServiceDate("2026-10-11")!, meals: [
            Meal(name: "Dinner", restaurants: [Restaurant(name: "Covel", sections: [
                Section(name: "Grill", foods: [MenuItem(source: "ucla-menu", recipeId: "1", name: "Burger")]),
            ])]),
        ]))
        let first = try #require(throws: Failure.self) { try staging.append(day) }
        #expect(first.code == .fileSystem)
        #expect(first.message.hasPrefix("cannot create the staging database: "), "\(first)")
        #expect(["database or disk is full", "o space left on device"].contains { first.message.contains($0) }, "\(first)")
        let again = try #require(throws: Failure.self) { try staging.rowCounts() }
        #expect(again.message == first.message)
        staging.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: mount.path) == [filler.lastPathComponent])
    }

    /// The recipes' search index, built in a scratch database beside the snapshot's, on a disk
    /// that fills when its tokens are written out: copying it in fails with SQLite's words, the
    /// snapshot's own index is left as it was, and the scratch file goes with the build. 3,000
    /// recipes of 40 words no other has give an index of several megabytes, the disk 1 MB.
    @Test func aRecipeIndexThatRunsOutOfRoomFailsItsCopyAndLeavesNothing() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mount = try Mounts.tmpfs(at: folder.appendingPathComponent("scratch"), megabytes: 1)
        defer { Mounts.unmount(mount) }
        let snapshot = try DatabaseQueue(path: folder.appendingPathComponent("snapshot.sqlite").path)
        try snapshot.write { db in
            try db.execute(sql: """
                CREATE TABLE recipe (name TEXT, ingredients TEXT, tags TEXT, instructions TEXT);
                CREATE VIRTUAL TABLE recipe_fts USING fts5(name, ingredients, tags, instructions, content="recipe");
                """)
        }
        let before = try snapshot.read { db in try Row.fetchAll(db, sql: "SELECT * FROM recipe_fts_data ORDER BY id") }
        let declaration = try snapshot.read { db in try SearchIndex.recipes.contentlessDeclaration(in: db) }
        var build: RecipeSearchBuild? = try RecipeSearchBuild(file: mount.appendingPathComponent("search"),
                                                              declaration: declaration)
        let error = try #require(throws: DatabaseError.self) {
            for recipe in 1...3_000 {
                let words = (1...40).map { "w\(recipe)x\($0)" }.joined(separator: " ")
                try build?.add(RecipeSearchBuild.Entry(rowid: Int64(recipe), name: "Recipe \(recipe)", ingredients: nil,
                                                       tags: nil, instructions: words))
            }
            try snapshot.write { db in try build?.copy(into: db) }
        }
        #expect(error.resultCode == .SQLITE_FULL, "\(error)")
        #expect(try snapshot.read { db in try Row.fetchAll(db, sql: "SELECT * FROM recipe_fts_data ORDER BY id") } == before)
        build = nil
        #expect(try FileManager.default.contentsOfDirectory(atPath: mount.path).isEmpty)
    }

    /// A snapshots folder with room for the snapshot and its metadata but not its report page and
    /// manifest: the disk fills after `latest` has moved. The run says what is true (published,
    /// but the report page and the manifest could not be written) with exit status 5, even under
    /// `--quiet`, and leaves no partial file; the next run, with room again, finds every input
    /// unchanged and writes the page that was lost.
    @Test func aDiskThatFillsAfterPublishingIsReportedAsItIs() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = try pipeline(in: folder)
        // The same run on a roomy disk, to learn how large the snapshot and its side files are.
        let roomy = folder.appendingPathComponent("roomy")
        #expect(try await CommissaryProcess.run(["run", pipeline.path, "--workspace", roomy.path]).status == 0)
        let roomyStore = SnapshotStore(directory: roomy.appendingPathComponent("snapshots"))
        let published = try #require(roomyStore.latest(pipeline: "disk"))
        func pages(_ path: String) throws -> Int {
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            return (size + 4095) / 4096
        }
        let room = try pages(published.path) + pages(published.path + ".metadata.json") + 1
        #expect(try pages(published.path + ".manifest.json") > 1)

        let workspace = folder.appendingPathComponent("workspace")
        let snapshots = workspace.appendingPathComponent("snapshots")
        try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
        try Mounts.run(["mount", "-t", "tmpfs", "-o", "size=\(room * 4)k", "tmpfs", snapshots.path])
        defer { Mounts.unmount(snapshots) }
        let run = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", workspace.path, "--quiet"])
        #expect(run.status == 5, "\(run.error)")
        #expect(run.error.split(separator: "\n").count == 1, "\(run.error)")
        #expect(run.error.contains("published, and latest points at it, but its report page could not be written"),
                "\(run.error)")
        #expect(run.error.contains("its manifest could not be written"), "\(run.error)")
        let store = SnapshotStore(directory: snapshots)
        let latest = try #require(store.latest(pipeline: "disk"))
        #expect(try SnapshotReader.rowCounts(of: latest)["menu_item"] == SampleSite.menuItems)
        let names = try FileManager.default.contentsOfDirectory(atPath: snapshots.path)
        #expect(!names.contains { $0.hasSuffix(".partial") || $0.hasSuffix("-journal") }, "\(names)")
        #expect(!names.contains { $0.hasSuffix(".report.html") }, "\(names)")
        try expectSoundSnapshots(snapshots)

        try Mounts.run(["mount", "-o", "remount,size=\(room * 16)k", snapshots.path])
        let next = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", workspace.path, "--quiet"])
        #expect(next.status == 0, "\(next.error)")
        #expect(store.latest(pipeline: "disk") == latest)
        let page = try String(contentsOfFile: latest.path + ".report.html", encoding: .utf8)
        #expect(page.contains("<title>\(latest.deletingPathExtension().lastPathComponent): Commissary report</title>"))
    }

    /// A snapshots folder with room for the snapshot but not its metadata: the disk fills before
    /// `latest` moves. The snapshot used to stay under its final name without metadata or
    /// manifest, listed by `snapshots` and never removed; now no file takes a final name until
    /// its metadata is written, so the run fails with exit 4 and leaves nothing, and the next run
    /// with room publishes.
    @Test func aDiskThatFillsAtTheMetadataLeavesNoSnapshotUnderAFinalName() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = try pipeline(in: folder)
        let roomy = folder.appendingPathComponent("roomy")
        #expect(try await CommissaryProcess.run(["run", pipeline.path, "--workspace", roomy.path]).status == 0)
        let published = try #require(SnapshotStore(directory: roomy.appendingPathComponent("snapshots"))
            .latest(pipeline: "disk"))
        func pages(_ path: String) throws -> Int {
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            return (size + 4095) / 4096
        }
        let metadataPages = try pages(published.path + ".metadata.json")
        #expect(metadataPages > 4, "the metadata must be large enough to be cut")
        let room = try pages(published.path) + metadataPages / 2

        let workspace = folder.appendingPathComponent("workspace")
        let snapshots = workspace.appendingPathComponent("snapshots")
        try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
        try Mounts.run(["mount", "-t", "tmpfs", "-o", "size=\(room * 4)k", "tmpfs", snapshots.path])
        defer { Mounts.unmount(snapshots) }
        let arguments = ["run", pipeline.path, "--workspace", workspace.path, "--quiet"]
        let full = try await CommissaryProcess.run(arguments)
        expectOneClearLine(full, mentioning: ["No space left on device", "no space left on device"])
        let names = try FileManager.default.contentsOfDirectory(atPath: snapshots.path)
        #expect(names.isEmpty, "\(names)")
        let listed = try await CommissaryProcess.run(["snapshots", "--workspace", workspace.path])
        #expect(listed.status == 0 && listed.output.hasPrefix("No snapshots in "), "\(listed.output)")

        try Mounts.run(["mount", "-o", "remount,size=\(room * 8)k", snapshots.path])
        let next = try await CommissaryProcess.run(arguments)
        #expect(next.status == 0, "\(next.error)")
        let latest = try #require(SnapshotStore(directory: snapshots).latest(pipeline: "disk"))
        #expect(FileManager.default.fileExists(atPath: latest.path + ".metadata.json"))
        #expect(FileManager.default.fileExists(atPath: latest.path + ".manifest.json"))
        try expectSoundSnapshots(snapshots)
    }

    /// A dry run writes nothing, so a workspace mounted read-only is no reason to fail it.
    @Test func aDryRunWorksOnAReadOnlyWorkspace() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mount = try Mounts.tmpfs(at: folder.appendingPathComponent("workspace"), megabytes: 16)
        defer { Mounts.unmount(mount) }
        let pipeline = try pipeline(in: folder)
        let arguments = ["run", pipeline.path, "--workspace", mount.path, "--log-format", "json"]
        #expect(try await CommissaryProcess.run(arguments).status == 0)
        try Mounts.run(["mount", "-o", "remount,ro", mount.path])
        let plan = try await CommissaryProcess.run(arguments + ["--dry-run"])
        #expect(plan.status == 0, "\(plan.error)")
        #expect(plan.output.contains("\"current\""), "\(plan.output)")
    }

    @Test func aReadOnlySnapshotsFolderFailsClearlyAndKeepsLatest() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mount = try Mounts.tmpfs(at: folder.appendingPathComponent("workspace"), megabytes: 16)
        defer { Mounts.unmount(mount) }
        let pipeline = try pipeline(in: folder)
        let arguments = ["run", pipeline.path, "--workspace", mount.path, "--quiet"]
        #expect(try await CommissaryProcess.run(arguments).status == 0)
        let snapshots = mount.appendingPathComponent("snapshots")
        let store = SnapshotStore(directory: snapshots)
        let latest = try #require(store.latest(pipeline: "disk"))
        let bytes = sha256Hex(try Data(contentsOf: latest))

        // Only the snapshots folder is read-only: fetching, the ledger and staging still work,
        // and publishing is what fails.
        try Mounts.run(["mount", "--bind", snapshots.path, snapshots.path])
        defer { Mounts.unmount(snapshots) }
        try Mounts.run(["mount", "-o", "remount,bind,ro", snapshots.path])

        let refused = try await CommissaryProcess.run(arguments + ["--force"])
        expectOneClearLine(refused, mentioning: ["Read-only file system", "readonly", "read-only"])
        #expect(store.latest(pipeline: "disk") == latest)
        #expect(sha256Hex(try Data(contentsOf: latest)) == bytes)
        try expectSoundSnapshots(snapshots)
    }
}

/// Mounting for the tests that need a real full or read-only filesystem.
enum Mounts {
    /// Whether this process may mount (root in a sandbox that allows it); probed once.
    static let permitted: Bool = {
        guard let folder = try? Paths.temporaryFolder("probe") else { return false }
        defer { try? FileManager.default.removeItem(at: folder) }
        guard (try? run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", folder.path])) != nil else { return false }
        unmount(folder)
        return true
    }()

    static func tmpfs(at folder: URL, megabytes: Int) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try run(["mount", "-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", folder.path])
        return folder
    }

    static func unmount(_ folder: URL) {
        try? run(["umount", folder.path])
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runWithSignalsUnblocked()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
    }
}
