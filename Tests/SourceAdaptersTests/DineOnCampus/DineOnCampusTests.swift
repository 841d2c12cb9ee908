import FoodModel
import Foundation
@testable import SourceAdapters
import Testing
import TestSupport

/// The DineOnCampus reader on the vendor's real example answer (`../shared/data/dineoncampus-2019`,
/// Lunch 2019-07-08: five categories, 62 items in the partner form). Expected values were read
/// off the JSON file by hand.
@Suite struct DineOnCampusTests {
    static let file = "dineoncampus-2019/location-menu-2019-07-08.json"

    private func parsed() throws -> DineOnCampusMenu.Parsed {
        try DineOnCampusMenu.parse(SharedData.load(Self.file), restaurant: "Wadsworth", date: nil, location: Self.file)
    }

    private func food(_ parsed: DineOnCampusMenu.Parsed, _ id: String) throws -> Food {
        try #require(parsed.foods.first { $0.id.recipeId == id })
    }

    private func nutrient(_ food: Food, _ key: String) throws -> NutrientValue {
        try #require(food.nutrients.first { $0.key.rawValue == key }, "\(food.name): \(key)")
    }

    @Test func everyCategoryAndItemOfTheDay() throws {
        let day = try parsed().day
        #expect(day.date == ServiceDate("2019-07-08"))
        let meal = try #require(day.meals.only)
        #expect(meal.name == "Lunch")
        let sections = try #require(meal.restaurants.only).sections
        #expect(sections.map(\.name) == ["Grill", "Mongolian", "Hearthstone Oven", "Salad Bar", "Deli"])
        #expect(sections.map(\.foods.count) == [6, 3, 4, 27, 22])
        #expect(sections[1].foods.map(\.name) == ["Lemon Oregano Chicken", "Steamed Rice", "Steamed Broccoli"])
        // "Blackbean burger " is printed with a trailing space.
        #expect(sections[0].foods[1].name == "Blackbean burger")
        #expect(sections[0].foods[0].portion == "1 serving(s)")
        #expect(sections[0].foods[0].description == "Leaf lettuce, tomato slice, pickle slices")
    }

    /// The item's `id` (59e4ffcc28d0e73e15f812d7) is not its identity; its recipe number is.
    /// Sliced Cucumber (68562) is served at the salad bar and the deli: one food, two items.
    @Test func theRecipeNumberIsTheIdentity() throws {
        let parsed = try parsed()
        let burger = try food(parsed, "13163")
        #expect(burger.name == "Burger Accompaniments")
        #expect(!parsed.foods.contains { $0.id.recipeId == "59e4ffcc28d0e73e15f812d7" })
        #expect(parsed.day.menuItems.filter { $0.recipeId == "68562" }.count == 2)
        #expect(parsed.foods.filter { $0.id.recipeId == "68562" }.count == 1)
        #expect(parsed.foods.count == 61)
    }

    /// One number printed for different items: Balsamic Vinegar (15 kcal) and Red Wine Vinegar
    /// (0 kcal) are both 47957; Red Onion Slice is 14918 at 1 ounce and at 1 slice. Each keeps
    /// its own label, and the day says so.
    @Test func oneNumberForDifferentItemsKeepsEachLabel() throws {
        let parsed = try parsed()
        #expect(try food(parsed, "47957~balsamic-vinegar").calories == 15)
        #expect(try food(parsed, "47957~red-wine-vinegar").calories == 0)
        #expect(try food(parsed, "14918~red-onion-slice~1-ounce").calories == 10)
        #expect(try food(parsed, "14918~red-onion-slice~1-slice").calories == 5)
        #expect(try food(parsed, "48144~sliced-genoa-salami").calories == 290)
        #expect(!parsed.foods.contains { $0.id.recipeId == "47957" })
        #expect(parsed.problems.count == 3)
        #expect(parsed.problems.contains { $0.contains("47957") && $0.contains("Red Wine Vinegar") })
    }

    /// The real answer with the first Grill item (Burger Accompaniments, 13163) changed, and a
    /// copy of it, changed too, added to Mongolian if `copy` is given.
    private func edited(_ change: (inout [String: Any]) -> Void, copy: ((inout [String: Any]) -> Void)? = nil) throws
        -> DineOnCampusMenu.Parsed {
        var top = try #require(try JSONSerialization.jsonObject(with: SharedData.load(Self.file)) as? [String: Any])
        var menu = try #require(top["menu"] as? [String: Any])
        var periods = try #require(menu["periods"] as? [[String: Any]])
        var categories = try #require(periods[0]["categories"] as? [[String: Any]])
        var grill = try #require(categories[0]["items"] as? [[String: Any]])
        let original = grill[0]
        change(&grill[0])
        categories[0]["items"] = grill
        if let copy {
            var twin = original
            twin["id"] = "copy-of-\(original["id"] ?? "")"
            copy(&twin)
            categories[1]["items"] = (categories[1]["items"] as? [[String: Any]] ?? []) + [twin]
        }
        periods[0]["categories"] = categories
        menu["periods"] = periods
        top["menu"] = menu
        return try DineOnCampusMenu.parse(JSONSerialization.data(withJSONObject: top), restaurant: "Wadsworth", date: nil,
                                          location: "edited.json")
    }

    /// Sets the printed value (and `value_numeric`) of the nutrient named `name` of an item.
    private func setNutrient(_ name: String, value: String, numeric: String, in item: inout [String: Any]) {
        var nutrients = item["nutrients"] as? [[String: Any]] ?? []
        for index in nutrients.indices where nutrients[index]["name"] as? String == name {
            nutrients[index]["value"] = value
            nutrients[index]["value_numeric"] = numeric
        }
        item["nutrients"] = nutrients
    }

    /// One number, name and portion printed for two items whose labels differ (the Burger
    /// Accompaniments again at the Mongolian station, sodium 990 there): two foods, each with its
    /// label, the second told apart by `~2`. They were one food, the second label lost.
    @Test func itemsAlikeButForTheirLabelsAreTwoFoods() throws {
        let parsed = try edited({ _ in }, copy: { setNutrient("Sodium (mg)", value: "990", numeric: "990", in: &$0) })
        let first = try food(parsed, "13163~burger-accompaniments~1-serving-s")
        let second = try food(parsed, "13163~burger-accompaniments~1-serving-s~2")
        #expect(try nutrient(first, "sodium").amount == 170 && nutrient(second, "sodium").amount == 990)
        let mongolian = try #require(parsed.day.meals.only?.restaurants.only?.sections.first { $0.name == "Mongolian" })
        #expect(mongolian.foods.contains { $0.recipeId == "13163~burger-accompaniments~1-serving-s~2" })
    }

    /// Large amounts printed with grouped digits are amounts ("1,050" calories, "1,230" mg of
    /// sodium); a value printed as no amount beside a `value_numeric` that is one takes that
    /// number, and says so. The calories and the sodium used to be kept as text alone.
    @Test func groupedDigitsAndTheAnswersOwnNumberAreAmounts() throws {
        let parsed = try edited { item in
            item["calories"] = 1050
            setNutrient("Calories", value: "1,050", numeric: "1050", in: &item)
            setNutrient("Sodium (mg)", value: "1,230", numeric: "1230", in: &item)
            setNutrient("Protein (g)", value: "about 3", numeric: "3", in: &item)
        }
        let burger = try food(parsed, "13163")
        #expect(burger.calories == 1050)
        #expect(try nutrient(burger, "sodium").amount == 1230)
        let protein = try nutrient(burger, "protein")
        #expect(protein.amount == 3 && protein.printedAmount == "about 3")
        #expect(parsed.problems.contains { $0.contains("Protein (g) is \"about 3\", not an amount: its value_numeric, 3, taken") },
                "\(parsed.problems)")
    }

    /// Vitamin D printed in mg beside values only micrograms can be (2.5 and 1.1: 12,500% and
    /// 5,500% of the daily value in mg) is read in mcg for the day, and the day says so; a value
    /// no unit the rest share admits (100) is left out and said. Units were taken as printed.
    @Test func unitsPrintedWronglyForTheDayAreJudgedByPlausibility() throws {
        func vitaminD(_ value: String) -> (inout [String: Any]) -> Void {
            { item in
                var nutrients = item["nutrients"] as? [[String: Any]] ?? []
                for index in nutrients.indices where nutrients[index]["name"] as? String == "Vitamin D (IU)" {
                    nutrients[index]["name"] = "Vitamin D (mg)"
                    nutrients[index]["uom"] = "mg"
                    nutrients[index]["value"] = value
                    nutrients[index]["value_numeric"] = value
                }
                item["nutrients"] = nutrients
            }
        }
        let parsed = try edited(vitaminD("2.5"), copy: vitaminD("1.1"))
        let first = try nutrient(food(parsed, "13163~burger-accompaniments~1-serving-s"), "vitamin_d")
        let second = try nutrient(food(parsed, "13163~burger-accompaniments~1-serving-s~2"), "vitamin_d")
        #expect(first.amount == 2.5 && first.unit == "mcg" && second.amount == 1.1 && second.unit == "mcg")
        #expect(parsed.problems.contains { $0.hasPrefix("2019-07-08: vitamin_d declared in mg, read in mcg for 2 food(s)") },
                "\(parsed.problems)")

        let odd = try edited(vitaminD("2.5"), copy: vitaminD("100"))
        #expect(try nutrient(food(odd, "13163~burger-accompaniments~1-serving-s"), "vitamin_d").unit == "mcg")
        #expect(!(try food(odd, "13163~burger-accompaniments~1-serving-s~2")).nutrients.contains { $0.key.rawValue == "vitamin_d" })
        #expect(odd.problems.contains { $0.contains("Vitamin D is 100 mg, more than a serving of any food holds in mcg") },
                "\(odd.problems)")
    }

    /// Burger Accompaniments' twelve nutrients: names without their unit, units from `uom`,
    /// "< 1" a bound below 1 (no amount), the rest numbers.
    @Test func everyNutrientOfTheBurgerAccompaniments() throws {
        let burger = try food(parsed(), "13163")
        let expected: [(String, String, Double?, String)] = [
            ("calories", "Calories", 10, "kcal"), ("calories_from_fat", "Calories From Fat", 0, "kcal"),
            ("cholesterol", "Cholesterol", 0, "mg"), ("dietary_fiber", "Dietary Fiber", nil, "g"),
            ("protein", "Protein", 0, "g"), ("saturated_fat", "Saturated Fat", 0, "g"), ("sodium", "Sodium", 170, "mg"),
            ("sugars", "Sugar", nil, "g"), ("total_carbohydrate", "Total Carbohydrates", 2, "g"),
            ("total_fat", "Total Fat", 0, "g"), ("trans_fat", "Trans Fat", 0, "g"), ("vitamin_d", "Vitamin D", 0, "IU"),
        ]
        #expect(burger.nutrients.map(\.key.rawValue) == expected.map(\.0))
        for (key, name, amount, unit) in expected {
            let value = try nutrient(burger, key)
            #expect(value.name == name)
            #expect(value.amount == amount, "\(key)")
            #expect(value.unit == unit)
        }
        let fiber = try nutrient(burger, "dietary_fiber")
        #expect(fiber.printedAmount == "< 1")
        #expect(fiber.amountBelow == 1)
        #expect(burger.calories == 10)
        #expect(burger.labelBasis == .serving)
        #expect(burger.servingSize == "1 serving(s)")
        #expect(burger.codes == ["Tomato", "Mustard*", "Beef*", "Pork*"])
        #expect(burger.allergens == ["Tomato", "Mustard*", "Beef*", "Pork*"])
    }

    /// "0+" is a lower bound, "10+" too, "-" unknown: none of them becomes a number.
    @Test func boundsAndUnknownsAreNeverNumbers() throws {
        let parsed = try parsed()
        let vinaigrette = try food(parsed, "75891")
        let cholesterol = try nutrient(vinaigrette, "cholesterol")
        #expect(cholesterol.amount == nil)
        #expect(cholesterol.amountAtLeast == 0)
        #expect(cholesterol.printedAmount == "0+")
        let trans = try nutrient(vinaigrette, "trans_fat")
        #expect(trans.amount == nil && trans.amountBelow == nil && trans.amountAtLeast == nil)
        #expect(trans.printedAmount == "-")
        let pizza = try food(parsed, "68052")
        #expect(try nutrient(pizza, "sugars").amountAtLeast == 10)
        #expect(try nutrient(pizza, "sugars").amount == nil)
        #expect(pizza.calories == 830)
        #expect(pizza.codes == ["Tomato", "Vegetarian", "Milk", "Garlic", "Soy", "Beef*", "Pork*", "Egg*", "Avoiding Gluten"])
        #expect(PrintedAmount("<1") == .below(1))
        #expect(PrintedAmount("< 5") == .below(5))
        #expect(PrintedAmount("0.5+") == .atLeast(0.5))
        #expect(PrintedAmount("n/a") == .unknown)
        #expect(PrintedAmount("lots") == .unreadable)
    }

    /// Bounds printed as words, on Burger Accompaniments edited to carry them (its real values are
    /// "0", "< 1" and "170"): each a bound like "< 1", in the nutrient's unit (`uom`), converted
    /// when the words name another mass ("less than 1 gram" of sodium, printed in mg, is below
    /// 1000); words in a mass for a nutrient counted in IU give no bound and are reported.
    @Test func boundsInWordsAreBoundsInTheNutrientsUnit() throws {
        let words = ["Dietary Fiber (g)": "less than 1 gram", "Cholesterol (mg)": "less than 5 milligrams",
                     "Protein (g)": "less than 1g", "Sugar (g)": "Less Than 0.5 g",
                     "Saturated Fat (g)": "less than 500 milligrams", "Sodium (mg)": "less than 1 gram",
                     "Vitamin D (IU)": "less than 1 microgram"]
        var answer = try #require(try JSONSerialization.jsonObject(with: SharedData.load(Self.file)) as? [String: Any])
        var menu = try #require(answer["menu"] as? [String: Any])
        var periods = try #require(menu["periods"] as? [[String: Any]])
        var categories = try #require(periods[0]["categories"] as? [[String: Any]])
        var items = try #require(categories[0]["items"] as? [[String: Any]])
        let index = try #require(items.firstIndex { $0["mrn"] as? String == "13163" })
        let nutrients = try #require(items[index]["nutrients"] as? [[String: Any]])
        items[index]["nutrients"] = nutrients.map { nutrient in
            var edited = nutrient
            if let name = nutrient["name"] as? String, let text = words[name] { edited["value"] = text }
            return edited
        }
        categories[0]["items"] = items
        periods[0]["categories"] = categories
        menu["periods"] = periods
        answer["menu"] = menu
        let parsed = try DineOnCampusMenu.parse(JSONSerialization.data(withJSONObject: answer), restaurant: "Wadsworth",
                                                date: nil, location: "edited.json")
        let burger = try food(parsed, "13163")
        let expected: [(String, String, Double)] = [
            ("dietary_fiber", "g", 1), ("cholesterol", "mg", 5), ("protein", "g", 1), ("sugars", "g", 0.5),
            ("saturated_fat", "g", 0.5), ("sodium", "mg", 1000),
        ]
        for (key, unit, bound) in expected {
            let value = try nutrient(burger, key)
            #expect(value.amount == nil, "\(key)")
            #expect(value.amountBelow == bound, "\(key)")
            #expect(value.unit == unit, "\(key)")
        }
        #expect(try nutrient(burger, "dietary_fiber").printedAmount == "less than 1 gram")
        #expect(try nutrient(burger, "sodium").printedAmount == "less than 1 gram")
        #expect(try nutrient(burger, "sugars").printedAmount == "Less Than 0.5 g")
        let vitaminD = try nutrient(burger, "vitamin_d")
        #expect(vitaminD.amount == nil && vitaminD.amountBelow == nil && vitaminD.unit == "IU")
        #expect(vitaminD.printedAmount == "less than 1 microgram")
        #expect(parsed.problems.count == 4)
        #expect(parsed.problems.contains { $0.contains("Vitamin D (IU)") && $0.contains("cannot be expressed in IU") })
        #expect(burger.calories == 10)
    }

    @Test func filtersMeanVocabularyTerms() {
        let legend = Dictionary(uniqueKeysWithValues: DineOnCampusAdapter().legend.map { ($0.code, $0) })
        #expect(legend["Milk"]?.terms == ["milk"])
        #expect(legend["Milk*"]?.terms == ["milk"])
        #expect(legend["Tree Nuts*"]?.terms == ["tree_nuts"])
        #expect(legend["Sesame Seeds"]?.terms == ["sesame"])
        #expect(legend["Vegan"]?.terms == ["vegan"])
        #expect(legend["Balanced U"]?.terms == [])
        #expect(legend["Garlic"]?.kind == .allergen)
    }

    /// The v1 form: `menu.periods` one period, the day's periods listed beside it.
    @Test func theV1FormListsTheDaysPeriods() throws {
        var answer = try #require(try JSONSerialization.jsonObject(with: SharedData.load(Self.file)) as? [String: Any])
        var menu = try #require(answer["menu"] as? [String: Any])
        menu["periods"] = try #require((menu["periods"] as? [Any])?.first)
        answer["menu"] = menu
        answer["periods"] = [["id": "5d23f9384198d409c306186a", "name": "Lunch", "sort_order": 0],
                             ["id": "5d23f9384198d409c3061999", "name": "Dinner", "sort_order": 1]]
        let read = try DineOnCampusMenu.read(JSONSerialization.data(withJSONObject: answer), restaurant: "Wadsworth",
                                             location: "v1.json")
        #expect(read.periods.map(\.name) == ["Lunch", "Dinner"])
        #expect(read.served.map(\.id) == ["5d23f9384198d409c306186a"])
        #expect(read.entries.count == 62)
    }

    @Test func aClosedLocationIsADayWithoutItsMeals() throws {
        let read = try DineOnCampusMenu.read(Data(#"{"status":"success","records":0,"closed":true}"#.utf8),
                                             restaurant: "Wadsworth", location: "closed.json")
        #expect(read.closed)
        #expect(read.entries.isEmpty)
        let day = DineOnCampusMenu.day([("Wadsworth", read)], date: ServiceDate("2019-07-08")!)
        #expect(day.day.meals.isEmpty)
    }

    @Test func anErrorOrAWebPageFailsInOneLine() {
        let url = "https://api.dineoncampus.com/v1/location/abc/periods?platform=0&date=2019-07-08"
        let cases: [(String, String)] = [
            (#"{"status":"error","msg":"Invalid location"}"#, "Invalid location"),
            ("<html><body>Service Unavailable</body></html>", "HTML"),
            (#"{"status":"success","menu":{"date":"2019-07-08","periods":[{"name":"Lunch","categories":[{"na"#, "truncated"),
            (#"{"status":"success"}"#, "expected a menu"),
        ]
        for (body, says) in cases {
            do {
                _ = try DineOnCampusMenu.read(Data(body.utf8), restaurant: "X", location: url)
                Issue.record("read: \(body)")
            } catch {
                #expect("\(error)".contains(url))
                #expect("\(error)".contains(says), "\(error)")
            }
        }
    }
}

/// Other campuses' answers drop optional fields, add fields and write nulls: an item with only a
/// name and a recipe number is a menu item with no label; an item without a number is left out
/// and reported; nothing is invented.
@Suite struct DineOnCampusToleranceTests {
    @Test func nullsMissingAndExtraFieldsCostNothingButThemselves() throws {
        let body = #"""
            {"status": "success", "new_field": {"x": 1}, "periods": null,
             "menu": {"date": "2024-02-01", "periods": {"id": "p1", "name": "Breakfast", "categories": [
               {"name": "Hot Line", "items": [
                 {"name": "Grits", "mrn": "501", "portion": null, "nutrients": null, "filters": null, "calories": null,
                  "custom_allergens": null, "desc": null, "extra": true},
                 {"name": "Toast", "mrn": null, "nutrients": []},
                 {"name": "Oatmeal", "mrn": 502, "nutrients": [{"name": "Sodium (mg)", "value": null, "uom": "mg"},
                                                              {"name": "Protein (g)", "value": "3"}]}
               ]},
               {"name": null, "items": null}
             ]}}}
            """#
        let parsed = try DineOnCampusMenu.parse(Data(body.utf8), restaurant: "Hall", date: nil, location: "other.json")
        #expect(parsed.day.date == ServiceDate("2024-02-01"))
        #expect(parsed.day.menuItems.map(\.name) == ["Grits", "Oatmeal"])
        let grits = try #require(parsed.foods.first { $0.name == "Grits" })
        #expect(grits.nutrients.isEmpty && grits.calories == nil && grits.servingSize == nil && grits.codes.isEmpty)
        #expect(grits.labelBasis == nil)
        let oatmeal = try #require(parsed.foods.first { $0.name == "Oatmeal" })
        #expect(oatmeal.id.recipeId == "502")
        #expect(oatmeal.labelBasis == .serving)
        // A null value is not declared; "Protein (g)" without `uom` takes the unit in its name.
        #expect(oatmeal.nutrients.map(\.key.rawValue) == ["protein"])
        #expect(oatmeal.nutrients.first?.unit == "g")
        #expect(oatmeal.nutrients.first?.amount == 3)
        #expect(parsed.problems == ["other.json: Breakfast, \"Hot Line\", item 2 (Toast) has no recipe number (mrn): left out"])
    }
}

/// A site's locations as the API lists them: at the answer's top and inside its buildings. This
/// answer is built for the test from the shape public client code reads (no real one is saved).
@Suite struct DineOnCampusLocationsTests {
    @Test func locationsAnywhereUnderALocationsListOnceEach() throws {
        let answer = #"""
            {"status": "success",
             "buildings": [{"id": "b1", "name": "Wadsworth Hall", "locations": [{"id": "loc1", "name": "Wadsworth"},
                                                                           {"id": "loc3", "name": "Fast Break"}]}],
             "locations": [{"id": "loc1", "name": "Wadsworth"}, {"id": "loc2", "name": "McNair", "active": true},
                           {"id": "loc4"}]}
            """#
        let places = try DineOnCampusLocations.read(Data(answer.utf8), location: "all.json")
        #expect(places.map(\.id) == ["loc1", "loc3", "loc2"])
        #expect(places.map(\.name) == ["Wadsworth", "Fast Break", "McNair"])
    }

    @Test func noLocationOrAnErrorFailsInOneLine() {
        for (body, says) in [(#"{"status": "success", "buildings": []}"#, "lists no location"),
                             (#"{"status": "error", "msg": "Invalid site"}"#, "Invalid site")] {
            do {
                _ = try DineOnCampusLocations.read(Data(body.utf8), location: "all.json")
                Issue.record("read: \(body)")
            } catch {
                #expect("\(error)".contains(says) && "\(error)".contains("all.json"))
            }
        }
    }
}
