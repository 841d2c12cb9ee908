import Basics
import FoodModel
import Foundation
@testable import Snapshot
import Testing

/// A day's digest stands for its rows: a change to anything the writer puts in a row of the day
/// (or in the name of a section its items point at) gives another digest, and nothing else does.
@Suite struct DayRowsTests {
    private static let date = ServiceDate("2026-10-11")!

    private static func day(_ change: (inout MenuItem, inout [String]) -> Void = { _, _ in }) -> ServiceDay {
        var item = MenuItem(source: "ucla", recipeId: "041180", name: "Quinoa Tabbouleh", portion: "1",
                            codes: ["V"], description: "parsley, mint", plannedPortions: 40, servedWith: nil)
        var names = ["Dinner", "De Neve", "Grill"]
        change(&item, &names)
        let dish = MenuItem(source: "ucla", recipeId: "977000", name: "Burger")
        return ServiceDay(date: date, meals: [
            Meal(name: names[0], restaurants: [Restaurant(name: names[1], sections: [
                Section(name: names[2], foods: [dish, item]),
            ])]),
        ])
    }

    /// Each item's label version in page order: the burger printed no label, the tabbouleh version 1.
    private static let versions: [Int?] = [nil, 1]

    @Test func everyWrittenValueChangesTheDigest() {
        let base = DayToWrite(Self.day()).rowsDigest(labelVersions: Self.versions)
        #expect(DayToWrite(Self.day()).rowsDigest(labelVersions: Self.versions) == base)
        let changes: [(String, (inout MenuItem, inout [String]) -> Void)] = [
            ("name", { item, _ in item.name = "Tabbouleh" }),
            ("portion", { item, _ in item.portion = "2" }),
            ("no portion", { item, _ in item.portion = nil }),
            ("description", { item, _ in item.description = "parsley" }),
            ("planned portions", { item, _ in item.plannedPortions = 41 }),
            ("served with", { item, _ in item.servedWith = 0 }),
            ("recipe", { item, _ in item.recipeId = "041181" }),
            ("source", { item, _ in item.source = "other" }),
            ("meal", { _, names in names[0] = "Lunch" }),
            ("restaurant", { _, names in names[1] = "Covel" }),
            ("section", { _, names in names[2] = "Pizza" }),
        ]
        for (what, change) in changes {
            #expect(DayToWrite(Self.day(change)).rowsDigest(labelVersions: Self.versions) != base, "\(what)")
        }
        #expect(DayToWrite(Self.day()).rowsDigest(labelVersions: [nil, 2]) != base, "label version")
        #expect(DayToWrite(Self.day()).rowsDigest(labelVersions: [1, 1]) != base, "another item's label version")
        #expect(DayToWrite(Self.day()).rowsDigest(labelVersions: []) != base, "no label version")
        // Codes go to `food_code`, not to the day's rows: the day is the same rows.
        #expect(DayToWrite(Self.day { item, _ in item.codes = ["VG"] }).rowsDigest(labelVersions: Self.versions) == base)
        // Text that runs across a field boundary is still another day.
        let moved = Self.day { item, names in
            names[1] = "De Neve Grill"
            names[2] = ""
            _ = item
        }
        #expect(DayToWrite(moved).rowsDigest(labelVersions: Self.versions) != base)
    }

    /// The label versions are numbered on the run's task and joined to the digest of the rest,
    /// made where the day was read: a day whose items print none is its rest's digest, however
    /// the absence is written, and a version anywhere makes another digest.
    @Test func labelVersionsJoinTheDigestOfTheRest() {
        let day = DayToWrite(Self.day())
        #expect(day.rowsDigest(labelVersions: []) == day.rowsDigest(labelVersions: [nil, nil]))
        #expect(day.rowsDigest(labelVersions: []) == DayRows.contentDigest(of: Self.day()))
        #expect(day.rowsDigest(labelVersions: [1, nil]) != day.rowsDigest(labelVersions: [nil, 1]))
        #expect(day.rowsDigest(labelVersions: [nil, 1]) != day.rowsDigest(labelVersions: []))
    }

    /// A day's items digest names what a reader compares two snapshots' items by (meal,
    /// restaurant, section, food and item name) and nothing a build decides, nor any other
    /// column of the item.
    @Test func theItemsDigestChangesWithWhatReadersCompare() {
        let base = DayRows.itemsDigest(of: Self.day())
        #expect(DayRows.itemsDigest(of: Self.day()) == base)
        let compared: [(String, (inout MenuItem, inout [String]) -> Void)] = [
            ("name", { item, _ in item.name = "Tabbouleh" }),
            ("recipe", { item, _ in item.recipeId = "041181" }),
            ("source", { item, _ in item.source = "other" }),
            ("meal", { _, names in names[0] = "Lunch" }),
            ("restaurant", { _, names in names[1] = "Covel" }),
            ("section", { _, names in names[2] = "Pizza" }),
        ]
        for (what, change) in compared {
            #expect(DayRows.itemsDigest(of: Self.day(change)) != base, "\(what)")
        }
        let notCompared: [(String, (inout MenuItem, inout [String]) -> Void)] = [
            ("portion", { item, _ in item.portion = "2" }),
            ("description", { item, _ in item.description = "parsley" }),
            ("planned portions", { item, _ in item.plannedPortions = 41 }),
            ("served with", { item, _ in item.servedWith = 0 }),
            ("codes", { item, _ in item.codes = ["VG"] }),
        ]
        for (what, change) in notCompared {
            #expect(DayRows.itemsDigest(of: Self.day(change)) == base, "\(what)")
        }
        let moved = Self.day { item, names in
            names[1] = "De Neve Grill"
            names[2] = ""
            _ = item
        }
        #expect(DayRows.itemsDigest(of: moved) != base, "text across a field boundary")
        // The items in another order are the same items, and still another digest: a day told
        // apart when it need not be is compared, never the other way round.
        var swapped = Self.day()
        swapped.meals[0].restaurants[0].sections[0].foods.reverse()
        #expect(DayRows.itemsDigest(of: swapped) != base)
    }

    /// A day kept as bytes with its outline (the parse cache's form) writes the rows the day
    /// itself writes, and is kept by a continued snapshot from its outline alone.
    @Test func aDayKeptAsBytesWritesAndKeepsTheRowsOfTheDay() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = try stage(smallDataset(), in: folder, runId: "whole")
        let bytes = try stage(smallDataset(), in: folder, runId: "bytes", keptAsBytes: true)
        let continued = try stage(smallDataset(), in: folder, runId: "continued", continuing: whole.url, keptAsBytes: true)
        #expect(continued.keptDays == 2)
        for table in MenuWriter.dayTables + ["restaurant", "section"] {
            let rows = { (url: URL) in try QueryResult.run("SELECT * FROM \(table) ORDER BY id", on: url).rows }
            #expect(try rows(bytes.url) == rows(whole.url), "\(table)")
            #expect(try rows(continued.url) == rows(whole.url), "\(table)")
        }
    }

    /// Which days a continued snapshot keeps is known before they are appended, a date's
    /// second append included (never kept), and a day whose bytes await their check is kept
    /// without them being read, or written once they pass it.
    @Test func whatWouldBeKeptIsWhatAppendingKeeps() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dataset = smallDataset()
        let whole = try stage(dataset, in: folder, runId: "whole")
        let days = dataset.serviceDays.sorted { $0.date < $1.date }
        #expect(days.count == 2)
        var changed = days[1]
        changed.meals[0].restaurants[0].sections[0].foods.removeLast()
        let bytes = folder.appendingPathComponent("bytes")
        let damaged = try dayKeptAsBytes(ServiceDayBytes.encode([days[0]]), of: days[0],
                                      sha256: String(repeating: "0", count: 64), in: bytes)
        #expect(damaged.awaitsCheck)
        #expect(throws: Failure.self) { try damaged.checked() }
        #expect(throws: Failure.self) { try damaged.day() }
        let sound = try dayKeptAsBytes(ServiceDayBytes.encode([changed]), of: changed, in: bytes)
        #expect(try !sound.checked().awaitsCheck)

        let staging = try StagingSnapshot(creatingAt: folder.appendingPathComponent("staging/next.sqlite"),
                                          continuing: LatestSnapshot(reading: whole.url))
        let appending = [damaged, sound, DayToWrite(days[0])]
        #expect(staging.wouldKeep(appending) == [true, false, false])
        for day in appending { try staging.append(day) }
        #expect(staging.keptDays == 1)
        #expect(staging.wouldKeep([DayToWrite(days[1])]) == [false])
    }

    /// The outline holds the day's meals, restaurants and sections, in order, and no item.
    @Test func anOutlineIsTheDayWithoutItsItems() {
        let outline = Self.day().outline
        #expect(outline.date == Self.date)
        #expect(outline.meals.map(\.name) == ["Dinner"])
        #expect(outline.meals[0].restaurants.map(\.name) == ["De Neve"])
        #expect(outline.meals[0].restaurants[0].sections.map(\.name) == ["Grill"])
        #expect(outline.menuItemCount == 0)
    }

    /// Bytes that are not a day fail the append of a day that is not kept, saying what to do,
    /// and write nothing.
    @Test func aDayWhoseBytesCannotBeReadBackIsNotWritten() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let staging = try StagingSnapshot(creatingAt: folder.appendingPathComponent("staging.sqlite"))
        let day = Self.day()
        // Bytes that pass their check (they are the ones kept) but are not a day.
        let damaged = try dayKeptAsBytes(ServiceDayBytes.encode([day]).dropLast(2), of: day,
                                      in: folder.appendingPathComponent("bytes"))
        let error = try #require(throws: Failure.self) { try staging.append(damaged) }
        #expect(error.message.contains("menus of 2026-10-11 were kept as bytes that cannot be read back"), "\(error)")
        #expect(error.message.contains("--force"), "\(error)")
        #expect(try staging.rowCounts(of: ["menu_item"]) == ["menu_item": 0])
    }
}
