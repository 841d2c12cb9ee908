import Basics
import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// A day's menus of UCLA's feed read from the seven real nights saved (`UCLAJamixNights`), their
/// rows counted by the tests' own reading of the files; and the drift the feed shows, made on a
/// real day.
@Suite struct JamixMenuDayTests {
    /// Every real night's every day is read with no error and no row lost: the items per meal,
    /// store and station are the rows the file publishes there.
    @Test func everyRealNightReadsWithNoLostRow() throws {
        var files = 0
        for night in UCLAJamixNights.nights {
            for date in UCLAJamixNights.dates(of: night) {
                let url = UCLAJamixNights.menuFile(night: night, date: date)
                let parsed = try JamixMenuDay.parse(Data(contentsOf: url), date: date, location: url.path)
                #expect(parsed.problems.isEmpty, "\(url.lastPathComponent): \(parsed.problems)")
                var read: [String: Int] = [:]
                for meal in parsed.day.meals {
                    for restaurant in meal.restaurants {
                        for section in restaurant.sections {
                            read["\(meal.name)|\(restaurant.name)|\(section.name)", default: 0] += section.foods.count
                        }
                    }
                }
                var expected: [String: Int] = [:]
                for row in try UCLAJamixNights.rows(night: night, date: date) {
                    expected["\(row.meal)|\(row.store)|\(row.station)", default: 0] += 1
                }
                #expect(read == expected, "night \(night), \(date)")
                files += 1
            }
        }
        #expect(files == 42)
    }

    /// The drift the feed shows over the months, made on a real day: rows as an object keyed by
    /// position, a row with neither id, a menu without a store, a station whose rows are text,
    /// an unpublished row. Each costs only itself, and says where it was.
    @Test func localDamageCostsOnlyItself() throws {
        let date = UCLAJamixNights.nights[0]
        let url = UCLAJamixNights.menuFile(night: date, date: date)
        var menus = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
        let total = try UCLAJamixNights.rows(night: date, date: date).count
        func rows(_ menu: Int, _ option: Int) -> [[String: Any]] {
            let weeks = menus[menu]["menuWeeks"] as! [[String: Any]]
            let days = weeks[0]["menuDays"] as! [[String: Any]]
            let options = days[0]["menuDayMealOptions"] as! [[String: Any]]
            return options[option]["menuRows"] as! [[String: Any]]
        }
        func setRows(_ menu: Int, _ option: Int, _ value: Any) {
            var weeks = menus[menu]["menuWeeks"] as! [[String: Any]]
            var days = weeks[0]["menuDays"] as! [[String: Any]]
            var options = days[0]["menuDayMealOptions"] as! [[String: Any]]
            options[option]["menuRows"] = value
            days[0]["menuDayMealOptions"] = options
            weeks[0]["menuDays"] = days
            menus[menu]["menuWeeks"] = weeks
        }
        // Menu 0's first station: rows keyed by position, the second without ids, the third unpublished.
        var first = rows(0, 0)
        first[1]["recipeId"] = nil
        first[1]["ingredientId"] = nil
        first[2]["publish"] = false
        // Counts no Int holds, or that are no count: each row stays, without its planned portions.
        first[3]["menuRowPlannedPortions"] = 1e19
        first[4]["menuRowPlannedPortions"] = "NaN"
        first[5]["menuRowPlannedPortions"] = 2.5
        let keyed = Dictionary(uniqueKeysWithValues: first.enumerated().map { ("\($0.offset)", $0.element as Any) })
        setRows(0, 0, keyed)
        // Menu 1's first station: text where rows should be.
        let lostStation = rows(1, 0).count
        setRows(1, 0, "not rows")
        // Menu 2 loses its store.
        let lostMenu = try Self.rowsOfMenu(menus[2], date: date)
        menus[2]["storeName"] = nil

        let damaged = try JSONSerialization.data(withJSONObject: menus)
        let parsed = try JamixMenuDay.parse(damaged, date: date, location: "damaged.json")
        #expect(parsed.day.menuItemCount == total - 2 - lostStation - lostMenu)
        #expect(parsed.unpublishedRows == 1)
        #expect(parsed.problems.count == 6, "\(parsed.problems)")
        #expect(parsed.problems.filter { $0.contains("is not a count of portions, left out") }.count == 3)
        // The rows stay on the menu, without a count (rows of the same name elsewhere keep theirs).
        for index in 3...5 {
            let name = try #require(first[index]["menuRowName"] as? String)
            #expect(parsed.day.menuItems.contains { $0.name == name && $0.plannedPortions == nil }, "\(name)")
        }
        #expect(parsed.problems.contains { $0.contains("neither recipeId nor ingredientId") && $0.contains("row \"1\"") })
        #expect(parsed.problems.contains { $0.contains("menuRows is text") })
        #expect(parsed.problems.contains { $0.contains("names no store") })
        #expect(parsed.problems.allSatisfy { $0.hasPrefix("damaged.json: menu \"") })

        // Damage that is not local fails the day, in one line naming the file.
        for broken in [Data(damaged.prefix(damaged.count / 2)), Data("{\"menus\": 1}".utf8), Data("<html>".utf8)] {
            let error = #expect(throws: Failure.self) {
                try JamixMenuDay.parse(broken, date: date, location: "broken.json")
            }
            #expect(error?.place?.location == "broken.json")
        }
    }

    /// How many rows a menu lists on `date`, published or not.
    private static func rowsOfMenu(_ menu: [String: Any], date: ServiceDate) throws -> Int {
        var count = 0
        for case let week as [String: Any] in menu["menuWeeks"] as? [Any] ?? [] {
            for case let day as [String: Any] in week["menuDays"] as? [Any] ?? [] where day["dayDate"] as? String == "\(date)" {
                for case let option as [String: Any] in day["menuDayMealOptions"] as? [Any] ?? [] {
                    count += (option["menuRows"] as? [Any])?.count ?? 0
                }
            }
        }
        return count
    }
}
