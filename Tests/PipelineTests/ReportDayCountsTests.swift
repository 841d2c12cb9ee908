import Basics
import FoodModel
import Foundation
import GRDB
import Logging
import Pipeline
import Report
@testable import Snapshot
import SourceAdapters
import Testing
import TestSupport

/// The report page counts a night's items from the counts of each day kept from the night
/// before (`ServedDayCounts`), reading again only the days whose rows changed. Every test holds
/// what the page counts that way against the same snapshot counted item by item.
@Suite struct ReportDayCountsTests {
    private static let days = ["2026-10-10", "2026-10-11", "2026-10-12"]

    /// Two nights of the sample site, the second with one item gone from 2026-10-11: the
    /// snapshots, and the day counts as the first night's page kept them.
    private struct Nights {
        var first: URL
        var second: URL
        var keptAfterFirst: ServedDayCountsStore
        var keptAfterSecond: ServedDayCountsStore
        var folder: URL
    }

    private func twoNights() async throws -> Nights {
        let folder = try Paths.temporaryFolder()
        let site = folder.appendingPathComponent("site")
        try FileManager.default.copyItem(at: Paths.sampleSite, to: site)
        let workspace = Workspace(root: folder.appendingPathComponent("workspace"))
        let spec = PipelineSpec(
            name: "counted", description: nil, file: workspace.root.appendingPathComponent("counted.yml"),
            licence: "test",
            sources: [SourceSpec(name: "ucla-menu", adapter: UCLAMenuSiteAdapter(), location: .directory(site),
                                 dates: .range(from: ServiceDate(Self.days[0])!, to: ServiceDate(Self.days[2])!),
                                 settings: UCLAMenuSiteAdapter.Settings())],
            checks: CheckPolicy(minMenuItems: 100), fetch: FetchSettings())
        func night() async throws -> URL {
            let report = try await PipelineRunner(
                spec: spec, options: RunOptions(workspace: workspace, today: ServiceDate(Self.days[0])!),
                observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
            return URL(fileURLWithPath: try #require(report.snapshotPath))
        }
        let counts = workspace.reportDayCounts(pipeline: "counted")
        let first = try await night()
        // The first night's counts, set aside before the second night replaces them.
        let keptAfterFirst = folder.appendingPathComponent("counts-after-first.sqlite")
        try FileManager.default.copyItem(at: counts, to: keptAfterFirst)
        try MenuPageEdits.removeLastItem(of: site.appendingPathComponent("Menus/\(Self.days[1]).html"))
        let second = try await night()
        return Nights(first: first, second: second, keptAfterFirst: ServedDayCountsStore(url: keptAfterFirst),
                      keptAfterSecond: ServedDayCountsStore(url: counts), folder: folder)
    }

    private func served(_ file: URL, keeping counts: ServedDayCountsStore? = nil) throws -> ServedItems {
        try ReportQueries.read(file) { try $0.servedItems(keeping: counts) }
    }

    /// A writable copy of `file`, for a test to alter.
    private func copy(of file: URL, in folder: URL) throws -> URL {
        let copy = folder.appendingPathComponent("copy-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: file, to: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
        return copy
    }

    /// `change` made to `file` in one transaction (here, not in an async context, where GRDB
    /// offers its asynchronous write).
    private func edit(_ file: URL, _ change: (Database) throws -> Void) throws {
        try DatabaseQueue(path: file.path).write(change)
    }

    /// `counts` with one group of a kept day given label version 7, which no item of the sample
    /// has: a page that shows version 7 read that day from the counts, not from the snapshot.
    private func marked(_ counts: ServedDayCountsStore, day: String, in folder: URL) throws -> ServedDayCountsStore {
        var read = try #require(counts.read())
        var kept = try #require(read.days[day])
        kept.groups[0].version = 7
        read.days[day] = kept
        let marked = ServedDayCountsStore(url: folder.appendingPathComponent("marked-\(UUID().uuidString).sqlite"))
        marked.save(read, over: nil)
        return marked
    }

    private func showsVersion7(_ served: ServedItems) -> Bool {
        served.perMealLabel.keys.contains { $0.version == 7 }
    }

    @Test func theNightsPageCountsKeptDaysAndReadsTheChangedOneAsAPassOverEveryItemDoes() async throws {
        let nights = try await twoNights()
        defer { try? FileManager.default.removeItem(at: nights.folder) }
        let everyItem = try served(nights.second)
        // The second night lost one item of the first's (counted in the sample: 2026-10-11).
        #expect(everyItem.itemCount == (try served(nights.first).itemCount) - 1)
        let scratch = ServedDayCountsStore(url: nights.folder.appendingPathComponent("scratch.sqlite"))
        try FileManager.default.copyItem(at: nights.keptAfterFirst.url, to: scratch.url)
        #expect(try served(nights.second, keeping: scratch) == everyItem)
        // The page the night published is the page of every item.
        let published = try String(contentsOfFile: nights.second.path + SnapshotStore.reportSuffix, encoding: .utf8)
        #expect(published == (try ReportPage.html(for: nights.second, previous: nights.first)))

        // The counts kept are those of the second night's days: each day's digest as `_day_rows`
        // records it, the changed day's items one fewer.
        let counts = try #require(nights.keptAfterSecond.read())
        let before = try #require(nights.keptAfterFirst.read())
        let digests = try QueryResult.run("SELECT date, rows_sha256 FROM _day_rows ORDER BY date", on: nights.second).rows
        #expect(digests.count == Self.days.count)
        #expect(counts.days.sorted { $0.key < $1.key }.map { [SQLValue.text($0.key), .text($0.value.rowsDigest)] } == digests)
        let items = { (counts: ServedDayCounts, day: String) in counts.days[day]?.groups.reduce(0) { $0 + $1.items } }
        #expect(items(counts, Self.days[1]) == items(before, Self.days[1]).map { $0 - 1 })
        #expect(items(counts, Self.days[0]) == items(before, Self.days[0]))

        // Kept days are read from the counts: one marked there shows; the changed day is read
        // from the snapshot: marked there, it does not.
        #expect(showsVersion7(try served(nights.second, keeping: try marked(nights.keptAfterFirst, day: Self.days[0],
                                                                           in: nights.folder))))
        #expect(!showsVersion7(try served(nights.second, keeping: try marked(nights.keptAfterFirst, day: Self.days[1],
                                                                            in: nights.folder))))
    }

    /// Counts read ahead, as a run starts them while compute, write and check run, are what the
    /// file held, for the first page only: a later page reads the file again.
    @Test func countsReadAheadServeOnePageThenTheFileIsReadAgain() async throws {
        let nights = try await twoNights()
        defer { try? FileManager.default.removeItem(at: nights.folder) }
        let marked = try marked(nights.keptAfterFirst, day: Self.days[0], in: nights.folder)
        let ahead = marked.readingAhead()
        #expect(showsVersion7(try served(nights.second, keeping: ahead)))
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: marked.url.path + suffix) }
        try FileManager.default.copyItem(at: nights.keptAfterFirst.url, to: marked.url)
        #expect(!showsVersion7(try served(nights.second, keeping: ahead)))
        // A store whose file is missing reads ahead nothing, and its page counts every day.
        let missing = ServedDayCountsStore(url: nights.folder.appendingPathComponent("none/counts.sqlite")).readingAhead()
        #expect(try served(nights.second, keeping: missing) == (try served(nights.second)))
    }

    /// The items per meal, food and label version that the nutrition charts weigh labels by,
    /// against SQL's own grouping of the snapshot: for the first version, which most items print
    /// and which is counted apart, and for a second, given to two items of a copy.
    @Test func itemsPerMealFoodAndLabelVersionAreSQLsGrouping() async throws {
        let nights = try await twoNights()
        defer { try? FileManager.default.removeItem(at: nights.folder) }
        let file = try copy(of: nights.second, in: nights.folder)
        try edit(file) { db in
            try db.execute(sql: "UPDATE menu_item SET label_version = 2 WHERE id IN (SELECT id FROM menu_item ORDER BY id LIMIT 2)")
        }
        let grouped = try QueryResult.run("""
            SELECT m.name, i.food_id, coalesce(i.label_version, 1), count(*) FROM menu_item i JOIN meal m ON m.id = i.meal_id
            GROUP BY 1, 2, 3
            """, on: file).rows
        var expected: [ServedItems.MealLabel: Int] = [:]
        for row in grouped {
            guard case .text(let meal) = row[0], case .text(let food) = row[1], case .integer(let version) = row[2],
                  case .integer(let items) = row[3] else { Issue.record("unexpected row \(row)"); return }
            expected[ServedItems.MealLabel(meal: meal, foodID: food, version: Int(version))] = Int(items)
        }
        #expect(expected.keys.contains { $0.version == 2 } && expected.keys.contains { $0.version == 1 })
        #expect(try served(file).perMealLabel == expected)
        let scratch = ServedDayCountsStore(url: nights.folder.appendingPathComponent("grouping.sqlite"))
        #expect(try served(file, keeping: scratch).perMealLabel == expected)
    }

    /// A kept day whose items took another section id without their digest changing (two
    /// sections' ids collide, `MenuWriter`): the section the counts name is another now, so the
    /// day is read again.
    @Test func aDayWhoseSectionIsNowAnotherIsReadAgain() async throws {
        let nights = try await twoNights()
        defer { try? FileManager.default.removeItem(at: nights.folder) }
        let file = try copy(of: nights.second, in: nights.folder)
        let day = MenuWriter.dayId(ServiceDate(Self.days[0])!)
        try edit(file) { db in
            // A section of the day, and one of another restaurant for its items to move to.
            let moved = try #require(try Row.fetchOne(db, sql: """
                SELECT s.id, s.restaurant_id FROM menu_item i JOIN section s ON s.id = i.section_id
                WHERE i.meal_id / 100 = ? LIMIT 1
                """, arguments: [day]))
            let from: Int64 = moved[0], restaurant: Int64 = moved[1]
            let to = try #require(try Int64.fetchOne(db, sql: "SELECT id FROM section WHERE restaurant_id <> ? LIMIT 1",
                                                     arguments: [restaurant]))
            try db.execute(sql: "UPDATE menu_item SET section_id = ? WHERE section_id = ?", arguments: [to, from])
            try db.execute(sql: "UPDATE section SET name = name || ' (another)' WHERE id = ?", arguments: [from])
        }
        let everyItem = try served(file)
        #expect(everyItem != (try served(nights.second)), "the items moved to another restaurant")
        #expect(try served(file, keeping: nights.keptAfterSecond) == everyItem)
    }

    /// Days that no longer account for every item (an item gone without its day's digest
    /// changing, as in a file edited by hand), counts written by another build, and a damaged
    /// counts file: each page is counted item by item.
    @Test func countsThatCannotStandForTheSnapshotAreNotUsed() async throws {
        let nights = try await twoNights()
        defer { try? FileManager.default.removeItem(at: nights.folder) }
        let lessOne = try copy(of: nights.second, in: nights.folder)
        try edit(lessOne) { db in
            try db.execute(sql: "DELETE FROM menu_item WHERE id = (SELECT min(id) FROM menu_item)")
        }
        #expect(try served(lessOne, keeping: nights.keptAfterSecond) == served(lessOne))
        #expect(try served(lessOne).itemCount == served(nights.second).itemCount - 1)

        let marked = try marked(nights.keptAfterSecond, day: Self.days[0], in: nights.folder)
        #expect(showsVersion7(try served(nights.second, keeping: marked)), "the same build's counts are used")
        let otherBuild = try copy(of: nights.second, in: nights.folder)
        try edit(otherBuild) { db in
            try db.execute(sql: "UPDATE _meta SET value = 'another build' WHERE key = ?",
                           arguments: [StagingSnapshot.dayRowsCodeKey])
        }
        #expect(!showsVersion7(try served(otherBuild, keeping: marked)))

        // A day whose counts are not bytes this code wrote, and a file that is not a database:
        // neither is used, and the page makes the file anew.
        try edit(marked.url) { db in
            try db.execute(sql: "UPDATE day SET counts = x'00' WHERE date = ?", arguments: [Self.days[0]])
        }
        #expect(marked.read() == nil)
        #expect(!showsVersion7(try served(nights.second, keeping: marked)))
        #expect(marked.read()?.days.count == Self.days.count)
        // Foods numbered from -1, and a section's restaurant that is no number: neither read.
        for damage in ["UPDATE food SET number = -1 WHERE number = 0", "UPDATE section SET restaurant_id = 'hall'"] {
            _ = try served(nights.second, keeping: marked)
            #expect(marked.read() != nil)
            try edit(marked.url) { db in try db.execute(sql: damage) }
            #expect(marked.read() == nil, "\(damage)")
        }
        // A group of more items than a meal may have: its sum would overflow, so it is not read.
        var huge = try #require(nights.keptAfterSecond.read())
        huge.days[Self.days[0]]?.groups[0].items = Int.max
        let overflowing = ServedDayCountsStore(url: nights.folder.appendingPathComponent("huge.sqlite"))
        overflowing.save(huge, over: nil)
        #expect(overflowing.read() == nil)
        #expect(try served(nights.second, keeping: overflowing) == served(nights.second))
        try Data(repeating: 0x2a, count: 4096).write(to: marked.url)
        #expect(marked.read() == nil)
        #expect(try served(nights.second, keeping: marked) == served(nights.second))
        #expect(marked.read()?.days.count == Self.days.count)
    }
}
