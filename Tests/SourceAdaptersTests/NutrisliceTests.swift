import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// The Nutrislice reader on the real UW–Madison day (`../shared/data/nutrislice-2026`, Lowell
/// Market breakfast 2026-03-23: two menus, four station headers, twelve foods). Every expected
/// value below was read off the JSON file by hand.
@Suite struct NutrisliceTests {
    static let file = "nutrislice-2026/wisc-lowell-market-breakfast-2026-03-23.json"

    private func saved() throws -> NutrisliceMenu.Parsed {
        try NutrisliceMenu.parseSaved(SharedData.load(Self.file), location: Self.file)
    }

    private func food(_ parsed: NutrisliceMenu.Parsed, _ name: String) throws -> Food {
        try #require(parsed.foods.first { $0.name == name })
    }

    @Test func stationsAndFoodsInTheirMenusAndPositions() throws {
        let parsed = try saved()
        #expect(parsed.problems.isEmpty)
        #expect(parsed.day.date == ServiceDate("2026-03-23"))
        let meal = try #require(parsed.day.meals.only)
        #expect(meal.name == "Breakfast")
        let restaurant = try #require(meal.restaurants.only)
        #expect(restaurant.name == "Lowell Market")
        // Two menus in menu_info (Buckingham Bakery at position 0, Lowell Market at 1), so each
        // station is named with its menu; the two rows before the bakery's first header have
        // no station and stand under the menu's name.
        let expected: [(String, [String])] = [
            ("Buckingham Bakery", ["Iced Chocolate Cake Donut", "Banana Bread (VN)"]),
            ("Buckingham Bakery / Entree", ["Waffle w/Strawberries"]),
            ("Buckingham Bakery / Breads", ["Muffin Mini Blueberry", "Muffin Mini Double Chocolate"]),
            ("Lowell Market / Entree", ["Scrambled Eggs", "Vegan French Toast"]),
            ("Lowell Market / Sides", ["Oatmeal (OI)", "Potato Oven Roasted Red Wedges", "Bacon",
                                       "Jackfruit Sausage Patty", "Sausage Links Chicken (halal) (AYCTE)"]),
        ]
        #expect(restaurant.sections.map(\.name) == expected.map(\.0))
        for (section, (_, names)) in zip(restaurant.sections, expected) {
            #expect(section.foods.map(\.name) == names, "\(section.name)")
        }
        #expect(parsed.foods.count == 12)
        let donut = restaurant.sections[0].foods[0]
        #expect(donut.recipeId == "2082680")
        #expect(donut.portion == "1 each")
        #expect(restaurant.sections[1].foods[0].portion == "1 11.6 oz")
    }

    /// Banana Bread's label: every non-null key of `rounded_nutrition_info`, with its unit from
    /// the key; the nulls (added sugar, vitamin C, the three vitamin A keys, vitamin D in mcg)
    /// are not there at all.
    @Test func everyNutrientOfBananaBreadAndNoNullAsZero() throws {
        let bread = try food(saved(), "Banana Bread (VN)")
        let values = Dictionary(uniqueKeysWithValues: bread.nutrients.map { ($0.key.rawValue, $0) })
        let expected: [String: (Double, String)] = [
            "calories": (190, "kcal"), "total_fat": (7, "g"), "saturated_fat": (0.5, "g"), "trans_fat": (0, "g"),
            "cholesterol": (0, "mg"), "total_carbohydrate": (31, "g"), "sugars": (15, "g"), "potassium": (77, "mg"),
            "sodium": (176, "mg"), "dietary_fiber": (1, "g"), "protein": (2, "g"), "iron": (0.9, "mg"),
            "calcium": (4, "mg"), "vitamin_d": (0, "mg"),
        ]
        #expect(Set(values.keys) == Set(expected.keys))
        for (key, (amount, unit)) in expected {
            #expect(values[key]?.amount == amount, "\(key)")
            #expect(values[key]?.unit == unit, "\(key)")
        }
        #expect(values["added_sugars"] == nil)
        #expect(values["vitamin_a"] == nil)
        #expect(bread.calories == 190)
        #expect(values["total_fat"]?.name == "Total Fat")
        #expect(bread.ingredients?.hasPrefix("Banana, All Purpose Flour") == true)
    }

    @Test func iconsAreCodesByTheirSlugs() throws {
        let parsed = try saved()
        #expect(try food(parsed, "Iced Chocolate Cake Donut").codes == ["dairy", "egg", "wheat", "soy", "corn", "vegetarian"])
        #expect(try food(parsed, "Oatmeal (OI)").codes == ["halal", "vegan", "vegetarian", "top-9-free"])
        #expect(try food(parsed, "Vegan French Toast").codes == ["wheat", "soy", "coconut", "corn", "vegan", "vegetarian"])
        // "dairy" is shown as "Dairy" and synced as "Milk": the allergen keeps the synced name.
        #expect(try food(parsed, "Iced Chocolate Cake Donut").allergens == ["Milk", "Egg", "Wheat", "Soy", "Corn"])
        // The menu item carries the same codes as its food.
        let item = try #require(parsed.day.menuItems.first { $0.name == "Oatmeal (OI)" })
        #expect(item.codes == ["halal", "vegan", "vegetarian", "top-9-free"])
        let legend = Dictionary(uniqueKeysWithValues: NutrisliceAdapter().legend.map { ($0.code, $0) })
        #expect(legend["dairy"]?.terms == ["milk"])
        #expect(legend["soy"]?.terms == ["soybeans"])
        #expect(legend["top-9-free"]?.terms == [])
    }

    /// `serving_size_info` as printed, and as an amount and unit where the text allows: "1" and
    /// "11.6 oz" is 11.6 oz; "1" and "2 slice" is 2 slice; "1" and "1" has no unit.
    @Test func servingsAsPrintedAndAsAmounts() throws {
        let parsed = try saved()
        let waffle = try food(parsed, "Waffle w/Strawberries")
        #expect(waffle.servingSize == "1 11.6 oz")
        #expect(waffle.serving == ServingSize(amount: 11.6, unit: "oz"))
        #expect(try food(parsed, "Bacon").serving == ServingSize(amount: 2, unit: "slice"))
        #expect(try food(parsed, "Banana Bread (VN)").serving == ServingSize(amount: 1, unit: "each"))
        let toast = try food(parsed, "Vegan French Toast")
        #expect(toast.servingSize == "1 1")
        #expect(toast.serving == nil)
    }

    /// The weeks API's answer: the real day as one of the week's days, found by its date; a day
    /// the week does not list is a day without that meal.
    @Test func aWeekAnswerServesEachOfItsDaysByDate() throws {
        let saved = try #require(try JSONSerialization.jsonObject(with: SharedData.load(Self.file)) as? [String: Any])
        var day = try #require(saved["menu"] as? [String: Any])
        day["date"] = "2026-03-23"
        let week: [String: Any] = ["start_date": "2026-03-22", "menu_type_id": 14942,
                                   "days": [["date": "2026-03-22", "menu_info": [:], "menu_items": []], day]]
        let body = try JSONSerialization.data(withJSONObject: week)
        let monday = try NutrisliceMenu.parseWeek(body, date: ServiceDate("2026-03-23")!, meal: "Breakfast",
                                                  restaurant: "Lowell Market", location: "week.json")
        #expect(monday.day.menuItemCount == 12)
        #expect(monday.foods.count == 12)
        let sunday = try NutrisliceMenu.parseWeek(body, date: ServiceDate("2026-03-22")!, meal: "Breakfast",
                                                  restaurant: "Lowell Market", location: "week.json")
        #expect(sunday.day.meals.isEmpty)
        let tuesday = try NutrisliceMenu.parseWeek(body, date: ServiceDate("2026-03-24")!, meal: "Breakfast",
                                                   restaurant: "Lowell Market", location: "week.json")
        #expect(tuesday.day.meals.isEmpty)
    }

    /// 2026-03-22 is a Sunday: it and the six days after it share one week's path.
    @Test func theSevenDaysOfAWeekShareOnePath() {
        let path = "/menu/api/weeks/school/lowell-market/menu-type/breakfast/2026/03/22/"
        for day in 22...28 {
            #expect(NutrisliceMenu.weekPath(school: "lowell-market", menuType: "breakfast",
                                            containing: ServiceDate("2026-03-\(day)")!) == path)
        }
        #expect(NutrisliceMenu.weekPath(school: "lowell-market", menuType: "breakfast",
                                        containing: ServiceDate("2026-03-29")!).hasSuffix("/2026/03/29/"))
        #expect(NutrisliceMenu.weekPath(school: "x", menuType: "lunch",
                                        containing: ServiceDate("2026-03-21")!).hasSuffix("/lunch/2026/03/15/"))
    }

    /// What the platform sometimes answers instead of a week: a web page, an error object, a
    /// body cut short. Each fails in one line that names the address.
    @Test func notAWeekFailsInOneLineNamingTheAddress() throws {
        let date = ServiceDate("2026-03-23")!
        let url = "https://example.api.nutrislice.com/menu/api/weeks/school/x/menu-type/lunch/2026/03/22/"
        let cases: [(String, String)] = [
            ("<!DOCTYPE html><html><body>Menus</body></html>", "HTML"),
            ("{\"detail\": \"Not found.\"}", "Not found."),
            ("{\"start_date\": \"2026-03-22\", \"days\": [{\"date\": \"2026-03-2", "truncated"),
            ("", "empty"),
        ]
        for (body, says) in cases {
            do {
                _ = try NutrisliceMenu.parseWeek(Data(body.utf8), date: date, meal: "Lunch", restaurant: "X", location: url)
                Issue.record("\(body) was read as a week")
            } catch {
                let line = "\(error)"
                #expect(line.contains(url), "\(line)")
                #expect(line.contains(says), "\(line)")
                #expect(!line.contains("\n"))
            }
        }
    }

    /// A row whose food has no id, a nutrient that is text: each costs only itself.
    @Test func anOddRowCostsOnlyItself() throws {
        var saved = try #require(try JSONSerialization.jsonObject(with: SharedData.load(Self.file)) as? [String: Any])
        var menu = try #require(saved["menu"] as? [String: Any])
        var rows = try #require(menu["menu_items"] as? [[String: Any]])
        var first = try #require(rows[0]["food"] as? [String: Any])
        first["id"] = NSNull()
        rows[0]["food"] = first
        var second = try #require(rows[1]["food"] as? [String: Any])
        var label = try #require(second["rounded_nutrition_info"] as? [String: Any])
        label["g_fat"] = "seven"
        second["rounded_nutrition_info"] = label
        rows[1]["food"] = second
        menu["menu_items"] = rows
        saved["menu"] = menu
        let parsed = try NutrisliceMenu.parseSaved(JSONSerialization.data(withJSONObject: saved), location: "damaged.json")
        #expect(parsed.foods.count == 11)
        #expect(parsed.problems.count == 2)
        #expect(parsed.problems.allSatisfy { $0.hasPrefix("damaged.json: 2026-03-23 menu_items[") })
        let bread = try food(parsed, "Banana Bread (VN)")
        #expect(!bread.nutrients.contains { $0.key == .totalFat })
        #expect(bread.nutrients.contains { $0.key == .sodium && $0.amount == 176 })
    }
}

extension Collection {
    /// The one element of a collection of exactly one.
    var only: Element? { count == 1 ? first : nil }
}
