@testable import Snapshot
import Basics
import Fetching
import FoodModel
import Foundation
import GRDB
import SnapshotTestSupport
import Synchronization
import Testing

@Suite struct PublishingTests {
    /// What the reader beside the verification saw, shared with the test's thread.
    private final class Seen: Sendable {
        let value = Mutex<(file: String, items: Int, raised: Bool)?>(nil)
    }

    private func sha(_ url: URL) throws -> String {
        sha256Hex(try Data(contentsOf: url))
    }

    @Test func publishesAVerifiedReadOnlyFileThenLatestThenTheManifest() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        let staging = try stage(smallDataset(), in: folder)
        defer { staging.discard() }
        let name = SnapshotStore.fileName(pipeline: "demo", date: "2026-10-12", runId: "020000abcd")
        #expect(name == "demo-2026-10-12-020000abcd.sqlite")
        let published = try store.publish(staging, fileName: name, pipeline: "demo")
        _ = try store.writeManifest(Data("{}".utf8), beside: published)

        #expect(published.lastPathComponent == name)
        #expect(store.latest(pipeline: "demo") == published)
        let attributes = try FileManager.default.attributesOfItem(atPath: published.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o444)
        #expect(FileManager.default.fileExists(atPath: published.path + ".manifest.json"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
            .filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
        #expect(try SnapshotReader.rowCounts(of: published)["menu_item"] == 4)
        let verified = try SnapshotReader.open(published).read { db in try SnapshotReader.verify(db) }
        #expect(verified.isEmpty)
        #expect(try SnapshotReader.meta(of: published)["run_id"] == "r1")
        #expect(try SnapshotReader.checks(of: published).map(\.name) == ["min_menu_items"])
    }

    /// What reads the new file while it is verified gets the file, complete under its partial
    /// name (the run's report page reads its items there), and a stop that stays down; a stop
    /// asked for meanwhile (the publishing task cancelled) is raised for it within the wait, and
    /// the publication still finishes.
    @Test func whatReadsTheFileWhileItIsVerifiedSeesItWholeAndIsToldOfAStop() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        let seen = Seen()
        let staging = try stage(smallDataset(), in: folder)
        defer { staging.discard() }
        let quiet = try store.publish(staging, fileName: "demo-2026-10-12-020000aaaa.sqlite", pipeline: "demo",
                                      alongside: [{ file, stop in
            let items = (try? SnapshotReader.rowCounts(of: file)["menu_item"]) ?? -1
            seen.value.withLock { $0 = (file.lastPathComponent, items, stop.isRaised) }
        }])
        let read = try #require(seen.value.withLock { $0 })
        #expect(read.file == ".demo-2026-10-12-020000aaaa.sqlite.partial" && read.items == 4 && !read.raised, "\(read)")
        #expect(store.latest(pipeline: "demo") == quiet)

        // The second publication's reader waits for a stop; the task is cancelled once it reads.
        let reading = DispatchSemaphore(value: 0)
        let publication = Task {
            let second = try stage(smallDataset(), in: folder, runId: "r2")
            defer { second.discard() }
            return try store.publish(second, fileName: "demo-2026-10-12-020000bbbb.sqlite", pipeline: "demo",
                                     alongside: [{ _, stop in
                reading.signal()
                // Ends when the stop is raised, in milliseconds alone; the bound is for a stop
                // that never comes. In a full suite on two busy cores this test took 97 s, and a
                // 10 s bound ran out before the stop came, with nothing wrong.
                let deadline = Date().addingTimeInterval(120)
                while !stop.isRaised, Date() < deadline { usleep(1_000) }
                seen.value.withLock { $0?.raised = stop.isRaised }
            }])
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { reading.wait(); continuation.resume() }
        }
        publication.cancel()
        let published = try await publication.value
        #expect(seen.value.withLock { $0?.raised } == true)
        #expect(store.latest(pipeline: "demo") == published && published.lastPathComponent == "demo-2026-10-12-020000bbbb.sqlite")
    }

    @Test func aSecondPublicationLeavesTheFirstFileByteForByteUnchanged() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        let first = try stage(smallDataset(), in: folder, runId: "r1")
        let firstFile = try store.publish(first, fileName: "demo-2026-10-12-r1.sqlite", pipeline: "demo")
        _ = try store.writeManifest(Data("{}".utf8), beside: firstFile)
        first.discard()
        let before = try sha(firstFile)
        let second = try stage(smallDataset(), in: folder, runId: "r2")
        let secondFile = try store.publish(second, fileName: "demo-2026-10-12-r2.sqlite", pipeline: "demo")
        _ = try store.writeManifest(Data("{}".utf8), beside: secondFile)
        second.discard()
        #expect(try sha(firstFile) == before)
        #expect(store.latest(pipeline: "demo") == secondFile)
        let listed = try store.list()
        #expect(listed.map(\.runId) == ["r1", "r2"])
        #expect(listed.map(\.isLatest) == [false, true])
    }

    @Test func aNameThatExistsIsNeverReplaced() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        let staging = try stage(smallDataset(), in: folder)
        defer { staging.discard() }
        let file = try store.publish(staging, fileName: "demo-x.sqlite", pipeline: "demo")
        let before = try sha(file)
        #expect(throws: Failure.self) {
            try store.publish(staging, fileName: "demo-x.sqlite", pipeline: "demo")
        }
        #expect(try sha(file) == before)
    }

    @Test func leftoversOfAKilledPublicationAreRemovedButPublishedFilesStay() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        let staging = try stage(smallDataset(), in: folder)
        defer { staging.discard() }
        let file = try store.publish(staging, fileName: "demo-2026-10-12-0200001a2b.sqlite", pipeline: "demo")
        _ = try store.writeManifest(Data("{}".utf8), beside: file)
        // Every file a publication writes (the snapshot, its manifest, its metadata) goes through
        // a hidden partial; a kill can leave any of them, so a partial of each is made here from
        // what the publication actually wrote, and a file added later is covered too.
        let published = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
            .filter { $0.hasPrefix(file.lastPathComponent) }
        #expect(Set(published) == [file.lastPathComponent, file.lastPathComponent + ".manifest.json",
                                   file.lastPathComponent + ".metadata.json"])
        let partials = published.map { store.directory.appendingPathComponent(".\($0).partial") }
        // A pipeline whose name starts with this one's is another pipeline, maybe running.
        let otherPipeline = store.directory.appendingPathComponent(".demo-menus-2026-10-12-0200001a2b.sqlite.partial")
        // A night that published nothing writes its page the same way, and the newest page's name
        // through a new link renamed over the old one.
        let page = try store.writeNotPublishedPage("<p>refused</p>", pipeline: "demo", runId: "0300001a2b")
        let pagePartial = store.directory.appendingPathComponent(".\(page.lastPathComponent).partial")
        let newLinks = [".latest-demo.new", ".latest-demo\(SnapshotStore.reportSuffix).new"].map {
            store.directory.appendingPathComponent($0)
        }
        let otherPagePartial = store.directory.appendingPathComponent(".demo-menus-0300001a2b.not-published.html.partial")
        for file in partials + [otherPipeline, pagePartial, otherPagePartial] + newLinks {
            try Data("half a file".utf8).write(to: file)
        }
        // The feeds' folder (`publish: feeds: true`) is built aside, and an earlier one put aside.
        let feedFolders = [".partial", ".old"].map {
            store.directory.appendingPathComponent(".\(file.lastPathComponent)\(SnapshotStore.feedsSuffix)\($0)")
        }
        for folder in feedFolders {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("slug"), withIntermediateDirectories: true)
        }
        store.removeLeftovers(pipeline: "demo")
        for partial in partials + feedFolders + [pagePartial] + newLinks {
            #expect(!FileManager.default.fileExists(atPath: partial.path), "\(partial.lastPathComponent) left")
        }
        #expect(FileManager.default.fileExists(atPath: otherPipeline.path))
        #expect(FileManager.default.fileExists(atPath: otherPagePartial.path))
        #expect(FileManager.default.fileExists(atPath: page.path))
        for name in published {
            #expect(FileManager.default.fileExists(atPath: store.directory.appendingPathComponent(name).path))
        }
    }

    /// A side file (manifest, metadata, report page, change file, feeds) whose snapshot is gone,
    /// as retention killed between the two leaves one, is removed; one beside its snapshot stays,
    /// as do another pipeline's and a file that only ends like a side file.
    @Test func sideFilesWithoutTheirSnapshotAreRemovedAndTheOthersStay() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        let staging = try stage(smallDataset(), in: folder)
        defer { staging.discard() }
        let file = try store.publish(staging, fileName: "demo-2026-10-12-0200001a2b.sqlite", pipeline: "demo")
        let gone = "demo-2026-10-11-0100001a2b.sqlite"
        let orphans = [".manifest.json", ".metadata.json", SnapshotStore.reportSuffix, ".changes.json.gz"].map {
            store.directory.appendingPathComponent(gone + $0)
        }
        let orphanFeeds = store.directory.appendingPathComponent(gone + SnapshotStore.feedsSuffix)
        let kept = [file.lastPathComponent + SnapshotStore.reportSuffix, "demo-menus-2026-10-11-0100001a2b.sqlite.manifest.json",
                    "notes.manifest.json", "demo-2026-10-11.sqlite.metadata.json"].map {
            store.directory.appendingPathComponent($0)
        }
        for side in orphans + kept { try Data("{}".utf8).write(to: side) }
        try FileManager.default.createDirectory(at: orphanFeeds.appendingPathComponent("slug"), withIntermediateDirectories: true)

        store.removeLeftovers(pipeline: "demo")
        for orphan in orphans + [orphanFeeds] {
            #expect(!FileManager.default.fileExists(atPath: orphan.path), "\(orphan.lastPathComponent) left")
        }
        for side in kept + [file, file.appendingPathExtension("metadata.json")] {
            #expect(FileManager.default.fileExists(atPath: side.path), "\(side.lastPathComponent) removed")
        }
    }

    @Test func aCorruptStagingDatabaseIsNotPublished() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        let good = try stage(smallDataset(), in: folder, runId: "good")
        try store.publish(good, fileName: "demo-good.sqlite", pipeline: "demo")
        good.discard()

        // A menu item (2026-10-10's first meal, first item) pointing at a food that does not
        // exist: foreign_key_check must refuse it.
        let bad = try stage(smallDataset(), in: folder, runId: "bad")
        defer { bad.discard() }
        let item = try bad.queue.writeWithoutTransaction { db -> Int in
            let first = try Int.fetchOne(db, sql: "SELECT id FROM menu_item WHERE meal_id = 2026101001 AND position = 1") ?? 0
            try db.execute(sql: "PRAGMA foreign_keys = OFF; UPDATE menu_item SET food_id = 'nowhere:1' WHERE id = ?",
                           arguments: [first])
            return first
        }
        #expect(item / 100_000 == 2_026_101_001)
        let refusal = #expect(throws: Failure.self) {
            try store.publish(bad, fileName: "demo-bad.sqlite", pipeline: "demo")
        }
        #expect(refusal.map { "\($0)" }?.contains("failed verification: foreign key from menu_item row \(item) to food") == true)
        #expect(store.latest(pipeline: "demo")?.lastPathComponent == "demo-good.sqlite")
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
        #expect(!names.contains("demo-bad.sqlite"))
        #expect(!names.contains { $0.hasSuffix(".partial") })
    }

    private func inode(_ url: URL) throws -> Int? {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? NSNumber)?.intValue
    }

    /// Every row of every data table, as text, sorted: ids are in the rows.
    private func rows(_ url: URL) throws -> [String: [String]] {
        try SnapshotReader.read(url) { db in
            try Dictionary(uniqueKeysWithValues: SnapshotSchema.dataTables.map { table in
                (table, try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map { "\($0)" }.sorted())
            })
        }
    }

    /// A night is its staging file moved into place, not a copy of it (the same inode), whether
    /// it continues the latest snapshot or was written from empty, and a continued one holds
    /// what a night written from empty holds.
    @Test func aNightIsItsStagingFileMovedIntoPlace() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        let first = try stage(smallDataset(), in: folder, runId: "r1")
        let firstInode = try inode(first.url)
        let firstFile = try store.publish(first, fileName: "demo-2026-10-12-r1.sqlite", pipeline: "demo")
        #expect(!FileManager.default.fileExists(atPath: first.url.path))
        #expect(try inode(firstFile) == firstInode)
        #expect(try SnapshotReader.open(firstFile).read { db in try SnapshotReader.verify(db) }.isEmpty)
        first.discard()

        let second = try stage(smallDataset(), in: folder, runId: "r2", continuing: firstFile)
        defer { second.discard() }
        #expect(second.continuesPrevious)
        let stagingInode = try inode(second.url)
        let secondFile = try store.publish(second, fileName: "demo-2026-10-12-r2.sqlite", pipeline: "demo")
        #expect(!FileManager.default.fileExists(atPath: second.url.path))
        #expect(try inode(secondFile) == stagingInode)
        #expect(store.latest(pipeline: "demo") == secondFile)
        let attributes = try FileManager.default.attributesOfItem(atPath: secondFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o444)
        #expect(try SnapshotReader.open(secondFile).read { db in try SnapshotReader.verify(db) }.isEmpty)
        #expect(try SnapshotReader.meta(of: secondFile)["run_id"] == "r2")

        let fresh = try stage(smallDataset(), in: folder, runId: "r3")
        defer { fresh.discard() }
        let freshFile = try store.publish(fresh, fileName: "demo-2026-10-12-r3.sqlite", pipeline: "demo")
        let moved = try rows(secondFile)
        #expect(moved["menu_item"]?.count == 4)
        #expect(moved == (try rows(freshFile)))
    }

    /// A night written from empty is moved into place as a continued one is, but none of its
    /// tables was checked before: every index is checked against its rows, those of the menus'
    /// tables too, which a continued night does not read whole again.
    @Test func aNightWrittenFromEmptyWithAnIndexThatDisagreesWithItsRowsIsNotPublished() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        let staging = try stage(smallDataset(), in: folder, runId: "r1")
        defer { staging.discard() }
        // The index holds the items' foods; its declaration now says it holds their names.
        try staging.queue.writeWithoutTransaction { db in
            try db.execute(sql: """
                PRAGMA writable_schema = ON;
                UPDATE sqlite_master SET sql = replace(sql, '(food_id)', '(name)') WHERE name = 'menu_item_by_food';
                PRAGMA writable_schema = OFF;
                """)
        }
        let refusal = #expect(throws: Failure.self) {
            try store.publish(staging, fileName: "demo-2026-10-12-r1.sqlite", pipeline: "demo")
        }
        #expect(refusal.map { "\($0)" }?.contains("failed verification:") == true)
        #expect(refusal.map { "\($0)" }?.contains("menu_item_by_food") == true)
        #expect(store.latest(pipeline: "demo") == nil)
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
        #expect(names.isEmpty, "\(names)")
    }

    /// A staging database is published once: a second publication of it says so, rather than
    /// reading a connection its first one closed.
    @Test func aStagingDatabaseIsPublishedOnce() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        let staging = try stage(smallDataset(), in: folder, runId: "r1")
        defer { staging.discard() }
        let first = try store.publish(staging, fileName: "demo-2026-10-12-r1.sqlite", pipeline: "demo")
        let again = #expect(throws: Failure.self) {
            try store.publish(staging, fileName: "demo-2026-10-12-r2.sqlite", pipeline: "demo")
        }
        #expect(again?.code == .snapshot)
        #expect(again?.message.contains("published already") == true)
        #expect(store.latest(pipeline: "demo") == first)
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
        #expect(!names.contains { $0.contains("r2") }, "\(names)")
    }

    /// A continued night is verified as a compacted one is: a broken reference refuses it and
    /// leaves `latest` and the folder as they were.
    @Test func aContinuedNightWithABrokenReferenceIsNotPublished() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        let good = try stage(smallDataset(), in: folder, runId: "good")
        let goodFile = try store.publish(good, fileName: "demo-good.sqlite", pipeline: "demo")
        good.discard()

        let bad = try stage(smallDataset(), in: folder, runId: "bad", continuing: goodFile)
        defer { bad.discard() }
        #expect(bad.continuesPrevious)
        try bad.queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF; UPDATE food_code SET food_id = 'nowhere:1'")
        }
        let refusal = #expect(throws: Failure.self) {
            try store.publish(bad, fileName: "demo-bad.sqlite", pipeline: "demo")
        }
        #expect(refusal.map { "\($0)" }?.contains("failed verification: foreign key from food_code") == true)
        #expect(store.latest(pipeline: "demo") == goodFile)
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
        #expect(!names.contains("demo-bad.sqlite"))
        #expect(!names.contains { $0.hasPrefix(".") })
    }

    /// A continued night from which most of the history left has most of its pages free: it is
    /// compacted into place (a copy, with no free page), not moved.
    @Test func aContinuedNightThatLostMostOfItsHistoryIsCompacted() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
        let dataset = smallDataset()
        let template = try #require(dataset.serviceDays.first)
        let start = try #require(ServiceDate("2025-01-01"))
        var long = dataset
        long.serviceDays = (0..<400).map { offset in
            var day = template
            day.date = start.adding(days: offset)
            return day
        }
        let first = try stage(long, in: folder, runId: "r1")
        let firstFile = try store.publish(first, fileName: "demo-2026-10-12-r1.sqlite", pipeline: "demo")
        first.discard()

        let short = try stage(dataset, in: folder, runId: "r2", continuing: firstFile)
        defer { short.discard() }
        #expect(short.continuesPrevious)
        let stagingInode = try inode(short.url)
        let free = try short.queue.read { db in
            try Double(Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0)
                / Double(Int.fetchOne(db, sql: "PRAGMA page_count") ?? 1)
        }
        #expect(free > StagingSnapshot.movableFreeShare)
        let secondFile = try store.publish(short, fileName: "demo-2026-10-12-r2.sqlite", pipeline: "demo")
        #expect(FileManager.default.fileExists(atPath: short.url.path))
        #expect(try inode(secondFile) != stagingInode)
        #expect(try SnapshotReader.read(secondFile) { db in try Int.fetchOne(db, sql: "PRAGMA freelist_count") } == 0)
        #expect(try SnapshotReader.rowCounts(of: secondFile)["service_day"] == 2)
    }
}
