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
    /// are not there at all. Vitamin D is declared as `mg_vitamin_d` 0, and read in mcg: the
    /// day's Muffin Mini Double Chocolate declares 0.1 under the same key, 500% of the daily
    /// value in mg, a crumb of one in mcg.
    @Test func everyNutrientOfBananaBreadAndNoNullAsZero() throws {
        let bread = try food(saved(), "Banana Bread (VN)")
        let values = Dictionary(uniqueKeysWithValues: bread.nutrients.map { ($0.key.rawValue, $0) })
        let expected: [String: (Double, String)] = [
            "calories": (190, "kcal"), "total_fat": (7, "g"), "saturated_fat": (0.5, "g"), "trans_fat": (0, "g"),
            "cholesterol": (0, "mg"), "total_carbohydrate": (31, "g"), "sugars": (15, "g"), "potassium": (77, "mg"),
            "sodium": (176, "mg"), "dietary_fiber": (1, "g"), "protein": (2, "g"), "iron": (0.9, "mg"),
            "calcium": (4, "mg"), "vitamin_d": (0, "mcg"),
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

    /// A week answer read on its own, as `commissary parse` reads it (the real Four Lakes Market
    /// breakfast week of 2025-08-17): the day asked for, its 24 rows holding 19 foods (counted
    /// by hand); the location and menu type from the API path where the address is one, else
    /// named as unknown; a day outside the week is refused with the week's days.
    @Test func aWeekAnswerIsReadOnItsOwnForTheDayAskedFor() throws {
        let name = "nutrislice-2025/four-lakes-market_breakfast_2025-08-17.json"
        let body = try SharedData.load(name)
        let monday = try NutrisliceMenu.parseDocument(body, date: ServiceDate("2025-08-18"), location: name)
        #expect(monday.day.date == ServiceDate("2025-08-18"))
        #expect(monday.day.menuItemCount == 19)
        #expect(monday.foods.first?.name == "Vegan Blueberry Smoothie")
        #expect(monday.day.meals.only?.name == "menu type 14942")
        #expect(monday.day.meals.only?.restaurants.only?.name == "unknown location")
        let api = "https://wisc.api.nutrislice.com/menu/api/weeks/school/four-lakes-market/menu-type/breakfast/2025/08/17/"
        let named = try NutrisliceMenu.parseDocument(body, date: ServiceDate("2025-08-18"), location: api)
        #expect(named.day.meals.only?.name == "breakfast")
        #expect(named.day.meals.only?.restaurants.only?.name == "four-lakes-market")
        #expect(named.day.menuItemCount == 19)
        do {
            _ = try NutrisliceMenu.parseDocument(body, date: ServiceDate("2025-08-25"), location: name)
            Issue.record("a day outside the week was read")
        } catch {
            #expect("\(error)".contains("a week of menus (2025-08-17..2025-08-23): give one of its days with --date"))
        }
        // The saved form still reads as before.
        #expect(try NutrisliceMenu.parseDocument(SharedData.load(Self.file), date: nil, location: Self.file).day.menuItemCount == 12)
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

/// The three real weeks of UW–Madison's Four Lakes Market (`../shared/data/nutrislice-2025`, the
/// week of 2025-08-17, breakfast, lunch and dinner, as the weeks API answered them). Every
/// expected value was read off the files by hand (with `jq`).
@Suite struct NutrisliceWeekTests {
    private func day(_ menuType: String, _ date: String, _ answer: [String: Any]? = nil) throws -> NutrisliceMenu.Parsed {
        let body = try answer.map(NutrisliceWeeks.data) ?? SharedData.load(NutrisliceWeeks.file(menuType))
        return try NutrisliceMenu.parseWeek(body, date: #require(ServiceDate(date)), meal: menuType.capitalized,
                                            restaurant: "Four Lakes Market", location: NutrisliceWeeks.file(menuType))
    }

    private func vitaminD(_ food: Food) -> NutrientValue? { food.nutrients.first { $0.key.rawValue == "vitamin_d" } }

    /// `mg_vitamin_d` holds micrograms: every food of the three weeks, read in mcg, is under the
    /// daily value of the FDA's 2016 rule (20 mcg), where in mg the smoothie's 2.5 would be
    /// 12,500% of it. `mcg_vitamin_d` is null on every food of the weeks.
    @Test func vitaminDOfTheRealWeeksIsReadInMicrograms() throws {
        let dailyValue = 20.0
        var declared = 0
        for menuType in NutrisliceWeeks.menuTypes {
            for date in NutrisliceWeeks.dates {
                for food in try day(menuType, date).foods {
                    guard let value = vitaminD(food) else { continue }
                    declared += 1
                    #expect(value.unit == "mcg", "\(food.name)")
                    let percent = try #require(value.amount) / dailyValue * 100
                    #expect(percent < 100, "\(food.name) on \(date): \(percent)% DV")
                }
            }
        }
        #expect(declared > 0)
        // By hand: breakfast 2025-08-18 Vegan Blueberry Smoothie 2.5, Iced Chocolate Donut Ring
        // 0.1, Scrambled Eggs 0; lunch 2025-08-18 Roasted Veggies 0.1; dinner 2025-08-17 Tuscan
        // Butter Salmon 1.5, dinner 2025-08-19 BBQ Jackfruit Sandwich 1.8.
        let expected: [(String, String, String, Double)] = [
            ("breakfast", "2025-08-18", "Vegan Blueberry Smoothie", 2.5),
            ("breakfast", "2025-08-18", "Iced Chocolate Donut Ring", 0.1),
            ("breakfast", "2025-08-18", "Scrambled Eggs", 0),
            ("lunch", "2025-08-18", "Roasted Veggies", 0.1),
            ("dinner", "2025-08-17", "Tuscan Butter Salmon", 1.5),
            ("dinner", "2025-08-19", "BBQ Jackfruit Sandwich", 1.8),
        ]
        for (menuType, date, name, amount) in expected {
            let food = try #require(try day(menuType, date).foods.first { $0.name == name }, "\(name)")
            #expect(vitaminD(food)?.amount == amount, "\(name)")
            #expect(vitaminD(food)?.unit == "mcg", "\(name)")
        }
        // Keys whose unit is plausible stay as they are: the smoothie's calcium 311 mg, iron 1.3 mg.
        let smoothie = try #require(try day("breakfast", "2025-08-18").foods.first { $0.name == "Vegan Blueberry Smoothie" })
        let calcium = smoothie.nutrients.first { $0.key == .calcium }
        #expect(calcium?.amount == 311 && calcium?.unit == "mg")
        let iron = smoothie.nutrients.first { $0.key == .iron }
        #expect(iron?.amount == 1.3 && iron?.unit == "mg")
    }

    /// The day says what it read otherwise, in one line: the key, how many values (breakfast
    /// 2025-08-18 has 19 foods, two of them build-your-own bars whose every value is null, so 17
    /// declare `mg_vitamin_d`) and the unit. Rows left out are another list, and there are none.
    @Test func theDaySaysWhichKeyItReadInAnotherUnit() throws {
        let parsed = try day("breakfast", "2025-08-18")
        #expect(parsed.problems.isEmpty)
        let note = try #require(parsed.notes.only)
        #expect(note.hasPrefix("\(NutrisliceWeeks.file("breakfast")): 2025-08-18 rounded_nutrition_info.mg_vitamin_d: "
                               + "17 value(s) read in mcg, not mg"), "\(note)")
        #expect(note.contains("reach 2.5"), "\(note)")
        #expect(!note.contains("\n"))
        // 2025-08-23 serves no breakfast: nothing read, nothing said.
        #expect(try day("breakfast", "2025-08-23").notes.isEmpty)
    }

    /// One key is one unit for the whole answer: with every `mg_vitamin_d` of the week 0 but the
    /// smoothie's, set to 0.04 (40 mcg, plausible in mg too), nothing is read otherwise, and the
    /// day's other foods stay in mg as well; the real smoothie's 2.5 moves every food of every
    /// day of the week to mcg, the 0s included.
    @Test func aUnitIsJudgedOnTheWholeAnswerNotValueByValue() throws {
        var answer = try NutrisliceWeeks.answer("breakfast")
        guard var days = answer["days"] as? [[String: Any]] else { throw NutrisliceWeeks.EditFailed(what: "days") }
        for index in days.indices {
            var rows = days[index]["menu_items"] as? [[String: Any]] ?? []
            for row in rows.indices {
                guard var food = rows[row]["food"] as? [String: Any] else { continue }
                NutrisliceWeeks.editLabel(of: &food) { label in
                    if !(label["mg_vitamin_d"] is NSNull) { label["mg_vitamin_d"] = 0.0 }
                }
                rows[row]["food"] = food
            }
            days[index]["menu_items"] = rows
        }
        answer["days"] = days
        try NutrisliceWeeks.editFood(1892965, on: "2025-08-18", in: &answer) { food in
            NutrisliceWeeks.editLabel(of: &food) { $0["mg_vitamin_d"] = 0.04 }
        }
        let plausible = try day("breakfast", "2025-08-18", answer)
        #expect(plausible.notes.isEmpty)
        let smoothie = try #require(plausible.foods.first { $0.name == "Vegan Blueberry Smoothie" })
        #expect(vitaminD(smoothie)?.amount == 0.04)
        #expect(vitaminD(smoothie)?.unit == "mg")
        #expect(plausible.foods.compactMap(vitaminD).allSatisfy { $0.unit == "mg" })
        // The real week: Monday's 2.5 is read in mcg, and so is every 0 of Tuesday.
        let tuesday = try day("breakfast", "2025-08-19")
        #expect(!tuesday.foods.compactMap(vitaminD).isEmpty)
        #expect(tuesday.foods.compactMap(vitaminD).allSatisfy { $0.unit == "mcg" })
    }

    /// One odd value does not send the week back to the unit the key names: the smoothie's
    /// `mg_vitamin_d` typed as 100 (IU, say) fits no unit the rest fit, and is left out and said,
    /// while the week's other values are still micrograms (Iced Chocolate Donut Ring 0.1). Every
    /// value used to be read in mg when no unit fitted them all, 1,000 times too much.
    @Test func oneImpossibleValueIsLeftOutAndTheWeekStaysInMicrograms() throws {
        var answer = try NutrisliceWeeks.answer("breakfast")
        try NutrisliceWeeks.editFood(1892965, on: "2025-08-18", in: &answer) { food in
            NutrisliceWeeks.editLabel(of: &food) { $0["mg_vitamin_d"] = 100.0 }
        }
        let parsed = try day("breakfast", "2025-08-18", answer)
        let donut = try #require(parsed.foods.first { $0.name == "Iced Chocolate Donut Ring" })
        #expect(vitaminD(donut)?.amount == 0.1 && vitaminD(donut)?.unit == "mcg")
        let smoothie = try #require(parsed.foods.first { $0.name == "Vegan Blueberry Smoothie" })
        #expect(vitaminD(smoothie) == nil)
        #expect(parsed.problems.contains { $0.contains("rounded_nutrition_info.mg_vitamin_d is 100, more than a serving of any food holds in mcg") },
                "\(parsed.problems)")
        let note = try #require(parsed.notes.only)
        #expect(note.contains("read in mcg, not mg") && note.contains("all but 1 are plausible in mcg"), "\(note)")
    }

    /// A food that declares vitamin D under both keys keeps the key that names its unit right:
    /// the smoothie with `mcg_vitamin_d` 3 beside `mg_vitamin_d` 2.5 (read in mcg) has 3 mcg.
    @Test func theKeyThatNamesItsUnitWinsOverOneReadInThatUnit() throws {
        var answer = try NutrisliceWeeks.answer("breakfast")
        try NutrisliceWeeks.editFood(1892965, on: "2025-08-18", in: &answer) { food in
            NutrisliceWeeks.editLabel(of: &food) { $0["mcg_vitamin_d"] = 3.0 }
        }
        let smoothie = try #require(try day("breakfast", "2025-08-18", answer).foods.first { $0.name == "Vegan Blueberry Smoothie" })
        #expect(vitaminD(smoothie)?.amount == 3)
        #expect(vitaminD(smoothie)?.unit == "mcg")
    }

    /// A food with a label declares its amounts per serving; a build-your-own bar, flagged
    /// `has_nutrition_info` but with every value null (Build Your Own Yogurt Bar, 3371), has no
    /// label, and neither has a food whose flag is false, whatever values it carries.
    @Test func aLabelIsPerServingAndAFoodWithoutOneHasNoBasis() throws {
        let parsed = try day("breakfast", "2025-08-18")
        let smoothie = try #require(parsed.foods.first { $0.name == "Vegan Blueberry Smoothie" })
        #expect(smoothie.labelBasis == .serving)
        let bar = try #require(parsed.foods.first { $0.name == "Build Your Own Yogurt Bar" })
        #expect(bar.labelBasis == nil)
        #expect(bar.nutrients.isEmpty)
        // 19 foods, the two bars without a label.
        #expect(parsed.foods.count == 19)
        #expect(parsed.foods.filter { $0.labelBasis == .serving }.count == 17)

        var answer = try NutrisliceWeeks.answer("breakfast")
        try NutrisliceWeeks.editFood(1892965, on: "2025-08-18", in: &answer) { $0["has_nutrition_info"] = false }
        let unflagged = try #require(try day("breakfast", "2025-08-18", answer).foods.first { $0.name == "Vegan Blueberry Smoothie" })
        #expect(unflagged.labelBasis == nil)
        #expect(unflagged.nutrients.isEmpty)
    }

    /// The same food id twice on one day's menu with two labels (Tofu, 1309638, 3 oz at 90 kcal
    /// at lunch on 2025-08-18, and a second row of 4.5 oz at 135 kcal): the food is the first
    /// row's, and the second item carries the label printed with it.
    @Test func aRowPrintingAnotherLabelForItsFoodCarriesIt() throws {
        var answer = try NutrisliceWeeks.answer("lunch")
        guard var days = answer["days"] as? [[String: Any]],
              let monday = days.firstIndex(where: { $0["date"] as? String == "2025-08-18" }),
              var rows = days[monday]["menu_items"] as? [[String: Any]],
              let tofu = rows.firstIndex(where: { ($0["food"] as? [String: Any])?["id"] as? Int == 1309638 }),
              var larger = rows[tofu]["food"] as? [String: Any]
        else { throw NutrisliceWeeks.EditFailed(what: "Tofu on 2025-08-18") }
        larger["serving_size_info"] = ["serving_size_amount": "4.5", "serving_size_unit": "oz"]
        NutrisliceWeeks.editLabel(of: &larger) { $0["calories"] = 135.0 }
        var row = rows[tofu]
        row["food"] = larger
        rows.insert(row, at: tofu + 1)
        days[monday]["menu_items"] = rows
        answer["days"] = days

        let parsed = try day("lunch", "2025-08-18", answer)
        let items = parsed.day.menuItems.filter { $0.recipeId == "1309638" }
        #expect(items.count == 2)
        #expect(items.first?.label == nil)
        let label = try #require(items.last?.label)
        #expect(label.calories == 135)
        #expect(label.servingSize == "4.5 oz")
        #expect(label.basis == .serving)
        let food = try #require(parsed.foods.first { $0.id.recipeId == "1309638" })
        #expect(food.calories == 90)
        #expect(food.servingSize == "3 oz")
    }
}

extension Collection {
    /// The one element of a collection of exactly one.
    var only: Element? { count == 1 ? first : nil }
}
