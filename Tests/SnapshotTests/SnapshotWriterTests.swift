import FoodModel
import Foundation
import GRDB
@testable import Snapshot
import Testing

@Suite struct SnapshotWriterTests {
    @Test func writesTheHierarchyWithOneRowPerFoodAndOnePerAppearance() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let staging = try stage(smallDataset(), in: folder)
        defer { staging.discard() }
        let counts = try staging.rowCounts()
        #expect(counts["service_day"] == 2)
        #expect(counts["meal"] == 2)
        #expect(counts["restaurant"] == 2)
        #expect(counts["section"] == 2)         // Grill at Covel, Grill at De Neve
        #expect(counts["menu_item"] == 4)
        #expect(counts["food"] == 2)            // the burger three times is one food
        #expect(counts["food_nutrient"] == 2)
        #expect(counts["hours"] == 1)
        #expect(counts["recipe"] == 1)
        #expect(counts["recipe_ingredient"] == 2)
        #expect(counts["ingredient"] == 2)
        #expect(counts["tag"] == 2)
        #expect(try scalar(staging, "SELECT has_page FROM food WHERE id = 'ucla-menu:061005'") == 0)
        #expect(try scalar(staging, "SELECT has_page FROM food WHERE id = 'ucla-menu:400317'") == 1)
        // Codes of a food: its page's and every appearance's; an unknown one is kept raw.
        #expect(try scalar(staging, "SELECT count(*) FROM food_code WHERE food_id = 'ucla-menu:061005'") == 2)
        #expect(try scalar(staging, "SELECT count(*) FROM dietary_code WHERE code = 'ZZ' AND kind = 'unknown'") == 1)
        #expect(try scalar(staging, "SELECT quantity FROM recipe_ingredient WHERE position = 2") == 0.25)
        #expect(try scalar(staging, "SELECT quantity_denominator FROM recipe_ingredient WHERE position = 2") == 4)
        #expect(try scalar(staging, "SELECT count(*) FROM v_menu WHERE food_id = 'ucla-menu:400317'") == 3)
        #expect(try scalar(staging, "SELECT amount FROM v_food_nutrition WHERE nutrient_key = 'total_fat'") == 21.3)
        #expect(try scalar(staging, "PRAGMA user_version") == Double(SnapshotSchema.version))
    }

    @Test func theSameDatasetGivesTheSameRowsWhateverTheOrderOfItsDictionaries() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var shuffled = smallDataset()
        shuffled.serviceDays.reverse()
        let a = try stage(smallDataset(), in: folder, runId: "a")
        let b = try stage(shuffled, in: folder, runId: "b")
        defer { a.discard(); b.discard() }
        #expect(try scalar(a, "SELECT id FROM service_day WHERE date = '2026-10-10'")
                == scalar(b, "SELECT id FROM service_day WHERE date = '2026-10-10'"))
        #expect(try scalar(a, "SELECT meal_id FROM menu_item WHERE name = 'Fries'")
                == scalar(b, "SELECT meal_id FROM menu_item WHERE name = 'Fries'"))
        // Every id, restaurants' and sections' included, is the same whichever day came first.
        for table in ["restaurant", "section", "meal", "menu_item"] {
            let rows = { (staging: StagingSnapshot) in
                try staging.queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY id") }
            }
            #expect(try rows(a) == rows(b), "\(table)")
        }
    }

    /// Days streamed one at a time: ids say where a row is (a day its date, a meal its day and
    /// place, an item its meal first), whatever order days arrive in; restaurants and sections
    /// are numbered from their names, and a date that comes again (a second source) adds
    /// its meals to that day, positioned after the first source's.
    @Test func daysAppendedOneAtATimeTakeIdsFromWhereTheyAre() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let staging = try StagingSnapshot(creatingAt: folder.appendingPathComponent("stream.sqlite"))
        defer { staging.discard() }
        let dataset = smallDataset()
        let saturday = try #require(dataset.serviceDays.first { $0.date.description == "2026-10-10" })
        let sunday = try #require(dataset.serviceDays.first { $0.date.description == "2026-10-11" })
        let secondSource = ServiceDay(date: saturday.date, meals: [
            Meal(name: "Dinner", restaurants: [Restaurant(name: "Bruin Plate", sections: [
                Section(name: "Freshly Bowled", foods: [
                    MenuItem(source: "ucla-menu", recipeId: "061005", name: "Fries", portion: "1", codes: []),
                ]),
            ])]),
        ])
        for day in [sunday, saturday, secondSource] { try staging.append(DayToWrite(day)) }
        var digest = MenuDigest()
        for day in [sunday, saturday, secondSource] { try digest.add(MenuDigest.Day(day), servedBy: "test") }
        try staging.finish(dataset, menus: digest, codes: knownCodes, foodInputs: nil)

        #expect(try scalar(staging, "SELECT id FROM service_day WHERE date = '2026-10-11'") == 20_261_011)
        #expect(try scalar(staging, "SELECT id FROM service_day WHERE date = '2026-10-10'") == 20_261_010)
        #expect(try scalar(staging, "SELECT count(*) FROM service_day") == 2)
        #expect(try scalar(staging, "SELECT position FROM meal WHERE service_day_id = 20261010 AND name = 'Dinner'") == 2)
        #expect(try scalar(staging, "SELECT id FROM meal WHERE service_day_id = 20261010 AND name = 'Dinner'") == 2_026_101_002)
        #expect(try scalar(staging, "SELECT id / 100000 FROM menu_item WHERE name = 'Fries' AND meal_id = 2026101002") == 2_026_101_002)
        // Covel appears first (Sunday), then De Neve, then Bruin Plate.
        #expect(try scalar(staging, "SELECT count(*) FROM restaurant") == 3)
        #expect(try scalar(staging, "SELECT count(*) FROM section") == 3)
        #expect(try scalar(staging, "SELECT count(*) FROM menu_item") == 5)
    }
}

/// One value of a query against a staging database, read through its own connection.
private func scalar(_ staging: StagingSnapshot, _ sql: String) throws -> Double? {
    try staging.queue.read { db in try Double.fetchOne(db, sql: sql) }
}
