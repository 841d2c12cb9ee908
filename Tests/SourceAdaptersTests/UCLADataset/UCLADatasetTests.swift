import Basics
import FoodModel
import Foundation
@testable import SourceAdapters
import Testing
import TestSupport

/// The real 2016 dataset files, read from `../shared/data` beside the package root.
private let datasetFolder = Paths.sharedData.appendingPathComponent("ucla-dataset-2016")

private func parse(_ name: String) throws -> (day: ServiceDay, foods: [Food], problems: [String]) {
    let url = datasetFolder.appendingPathComponent(name + ".json")
    let date = try #require(ServiceDate(name))
    return try UCLADataset.parseDay(Data(contentsOf: url), date: date, location: url.lastPathComponent)
}

@Suite("UCLA historical dataset")
struct UCLADatasetTests {
    /// Values read by hand from 2016-07-25.json: "b"[0] is Covel Dining, its first kitchen
    /// "Hot Cereals" lists Cream of Wheat, Malt-O-Meal, Oatmeal; Cream of Wheat is type "g" with
    /// ["87","2","0%","0%","0%","41%","0.2g","0%","0.1g","0%","0g","0mg","0%","177.4mg","7%",
    ///  "18.9g","15%","0.7g","3%","0.1g","2.7g"].
    @Test func creamOfWheatCarriesItsTwentyOneLabelValues() throws {
        let (day, foods, _) = try parse("2016-07-25")
        let breakfast = try #require(day.meals.first)
        #expect(breakfast.name == "Breakfast")
        let covel = try #require(breakfast.restaurants.first)
        #expect(covel.name == "Covel Dining")
        let cereals = try #require(covel.sections.first)
        #expect(cereals.name == "Hot Cereals")
        #expect(cereals.foods.map(\.name) == ["Cream of Wheat", "Malt-O-Meal", "Oatmeal"])
        let item = cereals.foods[0]
        #expect(item.codes == ["VG"])
        #expect(item.source == "ucla-dataset")
        #expect(item.recipeId == "cream of wheat")

        let food = try #require(foods.first { $0.id == item.food })
        #expect(food.calories == 87)
        #expect(food.labelBasis == .serving)
        let byKey = Dictionary(uniqueKeysWithValues: food.nutrients.map { ($0.key, $0) })
        func check(_ key: NutrientKey, _ amount: Double?, _ unit: String?, _ percent: Double?) {
            let value = byKey[key]
            #expect(value?.amount == amount, "\(key) amount")
            #expect(value?.unit == unit, "\(key) unit")
            #expect(value?.printedDailyValuePercent == percent, "\(key) %DV")
        }
        check(.calories, 87, "kcal", nil)
        check(.caloriesFromFat, 2, "kcal", nil)
        check(.vitaminA, nil, nil, 0)
        check(.vitaminC, nil, nil, 0)
        check(.calcium, nil, nil, 0)
        check(.iron, nil, nil, 41)
        check(.totalFat, 0.2, "g", 0)
        check(.saturatedFat, 0.1, "g", 0)
        check(.transFat, 0, "g", nil)
        check(.cholesterol, 0, "mg", 0)
        check(.sodium, 177.4, "mg", 7)
        check(.totalCarbohydrate, 18.9, "g", 15)
        check(.dietaryFiber, 0.7, "g", 3)
        check(.sugars, 0.1, "g", nil)
        check(.protein, 2.7, "g", nil)
        #expect(food.nutrients.count == 15)
    }

    /// 364 items on 2016-07-25, 156 distinct folded names (both counted with python as well).
    @Test func aWholeDayKeepsEveryItemAndOneFoodPerName() throws {
        let url = datasetFolder.appendingPathComponent("2016-07-25.json")
        let json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var count = 0
        var names: Set<String> = []
        for meal in json.values {
            for restaurant in try #require(meal as? [[String: Any]]) {
                for kitchen in try #require(restaurant["rk"] as? [[String: Any]]) {
                    for item in try #require(kitchen["i"] as? [[String: Any]]) {
                        count += 1
                        let entree = try #require(item["e"] as? String)
                        names.insert(entree.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " "))
                    }
                }
            }
        }
        #expect(count == 364)
        #expect(names.count == 156)

        let (day, foods, _) = try parse("2016-07-25")
        #expect(day.date == ServiceDate(year: 2016, month: 7, day: 25))
        #expect(day.meals.map(\.name) == ["Breakfast", "Lunch", "Dinner"])
        #expect(day.menuItems.count == count)
        #expect(foods.count == names.count)
        #expect(Set(day.menuItems.map(\.food)) == Set(foods.map(\.id)))
    }

    /// Weekends list brunch under "l" and an empty "b" (2016-09-18 is the first such day).
    @Test func anEmptyMealIsLeftOut() throws {
        let (day, _, _) = try parse("2016-09-18")
        #expect(day.meals.map(\.name) == ["Lunch", "Dinner"])
    }

    /// Rieber Dining's Flour Tortilla (2016-07-25 breakfast) prints "%" for all four vitamins.
    @Test func aBarePercentIsAnAbsentValue() throws {
        let (day, foods, _) = try parse("2016-07-25")
        let item = try #require(day.menuItems.first { $0.name == "Flour Tortilla" })
        let food = try #require(foods.first { $0.id == item.food })
        let keys = Set(food.nutrients.map(\.key))
        #expect(!keys.contains(.vitaminA) && !keys.contains(.iron))
        #expect(food.calories == 100)
        #expect(food.nutrients.count == 11)
    }

    /// 2016-07-25.json, breakfast, Hot Cereals: Oatmeal prints ["159","26",…,"202.8mg",…] at Covel,
    /// Sproul and Rendezvous, and ["378","26",…,"1423.2mg",…,"83.3g",…] at Rieber (read by hand).
    /// The food is one, with the first label; Rieber's item carries its own.
    @Test func anItemWhoseHallPrintedAnotherLabelCarriesItsOwn() throws {
        let (day, foods, _) = try parse("2016-07-25")
        let breakfast = try #require(day.meals.first { $0.name == "Breakfast" })
        func oatmeal(at hall: String) throws -> MenuItem {
            let restaurant = try #require(breakfast.restaurants.first { $0.name == hall })
            return try #require(restaurant.sections.first { $0.name == "Hot Cereals" }?.foods.first { $0.name == "Oatmeal" })
        }
        let food = try #require(foods.first { $0.id.recipeId == "oatmeal" })
        #expect(food.calories == 159)
        #expect(food.nutrients.first { $0.key == .sodium }?.amount == 202.8)
        for hall in ["Covel Dining", "Sproul Dining", "Rendezvous"] {
            #expect(try oatmeal(at: hall).label == nil, "\(hall)")
        }
        let rieber = try #require(try oatmeal(at: "Rieber Dining").label)
        #expect(rieber.calories == 378)
        #expect(rieber.basis == .serving)
        #expect(rieber.nutrients.first { $0.key == .sodium }?.amount == 1423.2)
        #expect(rieber.nutrients.first { $0.key == .totalCarbohydrate }?.amount == 83.3)
        // Every other item of the day with a label of its own prints one its food does not.
        let labels = Dictionary(foods.map { ($0.id, PrintedLabel(of: $0)) }, uniquingKeysWith: { first, _ in first })
        #expect(day.menuItems.allSatisfy { item in item.label.map { $0 != labels[item.food] } ?? true })
    }

    /// 2016-11-21 has two Bruin Plate "Sweet Bites" entries with an empty name and one label.
    @Test func unnamedEntreesGetAStableLabelBasedIdentity() throws {
        let (day, foods, _) = try parse("2016-11-21")
        let unnamed = day.menuItems.filter { $0.name.isEmpty }
        #expect(unnamed.count == 2)
        #expect(Set(unnamed.map(\.recipeId)).count == 1)
        let recipeId = try #require(unnamed.first?.recipeId)
        #expect(recipeId.hasPrefix("unnamed-") && recipeId.count == "unnamed-".count + 16)
        let (again, _, _) = try parse("2016-11-21")
        #expect(again.menuItems.filter { $0.name.isEmpty }.first?.recipeId == recipeId)
        #expect(foods.contains { $0.id.recipeId == recipeId })
    }

    /// 134 files, 37,037 items (Sources/1-Sources/SourceAdapters/UCLADataset/README.md; recounted with python).
    @Test func everyFileOfTheDatasetParses() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: datasetFolder.path)
            .filter { $0.hasSuffix(".json") }
            .sorted()
        #expect(files.count == 134)
        var items = 0
        for file in files {
            items += try parse(String(file.dropLast(".json".count))).day.menuItems.count
        }
        #expect(items == 37_037)
    }

    @Test func aMalformedLabelStringCostsOnlyItsDishAndNamesFileMealRestaurantAndItem() throws {
        let url = datasetFolder.appendingPathComponent("2016-07-25.json")
        var json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var breakfast = try #require(json["b"] as? [[String: Any]])
        var kitchens = try #require(breakfast[0]["rk"] as? [[String: Any]])
        var items = try #require(kitchens[0]["i"] as? [[String: Any]])
        var label = try #require(items[0]["n"] as? [String])
        #expect(label[13] == "177.4mg")
        label[13] = "177.4kg"
        items[0]["n"] = label
        kitchens[0]["i"] = items
        breakfast[0]["rk"] = kitchens
        json["b"] = breakfast
        let data = try JSONSerialization.data(withJSONObject: json)

        // The dish stays on the menu without its label; the day and every other label are kept.
        let parsed = try UCLADataset.parseDay(data, date: #require(ServiceDate("2016-07-25")), location: "2016-07-25.json")
        let problem = try #require(parsed.problems.first { $0.contains("177.4kg") })
        for part in ["2016-07-25.json", "Breakfast", "Covel Dining", "Hot Cereals", "Cream of Wheat", "Sodium",
                     "kept without its label"] {
            #expect(problem.contains(part), "\(problem) lacks \(part)")
        }
        let whole = try parse("2016-07-25")
        #expect(parsed.day.menuItemCount == whole.day.menuItemCount)
        #expect(parsed.foods.count == whole.foods.count)
        // Rieber's Cream of Wheat prints the same label, 87 kcal and 177.4 mg of sodium, unbroken:
        // the first label that reads is the food's, and Rieber's item is served with it. Covel's
        // item keeps what it printed: no label that could be read, so no nutrients of its own.
        let cream = try #require(parsed.foods.first { $0.name == "Cream of Wheat" })
        #expect(cream.calories == 87 && cream.labelBasis == .serving)
        #expect(cream.nutrients.first { $0.key == .sodium }?.amount == 177.4)
        #expect(parsed.foods.allSatisfy { $0.labelBasis != nil })
        let creams = parsed.day.meals[0].restaurants.compactMap { hall in
            hall.sections.first { $0.name == "Hot Cereals" }?.foods.first { $0.name == "Cream of Wheat" }.map { (hall.name, $0) }
        }
        #expect(creams.map(\.0) == ["Covel Dining", "Rieber Dining"])
        #expect(creams.first?.1.label?.nutrients.isEmpty == true)
        #expect(creams.first?.1.label?.basis == nil)
        #expect(creams.last?.1.label == nil)

        // With Rieber's broken too, the dish has no label to keep, and is still on both menus.
        var everywhere = json
        for meal in ["b", "l", "d"] {
            guard var halls = everywhere[meal] as? [[String: Any]] else { continue }
            for hall in halls.indices {
                var kitchens = halls[hall]["rk"] as? [[String: Any]] ?? []
                for kitchen in kitchens.indices {
                    var items = kitchens[kitchen]["i"] as? [[String: Any]] ?? []
                    for item in items.indices where (items[item]["e"] as? String)?.contains("Cream of Wheat") == true {
                        var label = items[item]["n"] as? [String] ?? []
                        label[13] = "177.4kg"
                        items[item]["n"] = label
                    }
                    kitchens[kitchen]["i"] = items
                }
                halls[hall]["rk"] = kitchens
            }
            everywhere[meal] = halls
        }
        let unlabelled = try UCLADataset.parseDay(JSONSerialization.data(withJSONObject: everywhere),
                                                  date: #require(ServiceDate("2016-07-25")), location: "2016-07-25.json")
        #expect(unlabelled.problems.filter { $0.contains("177.4kg") }.count == 2)
        #expect(unlabelled.day.menuItemCount == whole.day.menuItemCount)
        #expect(unlabelled.foods.filter { $0.labelBasis == nil }.map(\.name) == ["Cream of Wheat"])
        #expect(unlabelled.foods.first { $0.name == "Cream of Wheat" }?.nutrients.isEmpty == true)
    }

    /// The v2 format (2017) writes the entree type as letters, per the dataset's README (the
    /// table in Sources/1-Sources/SourceAdapters/UCLADataset/README.md): made here on a real 2016 day, whose first lunch kitchen (Covel Dining, Soups) gets
    /// every letter, an empty type, a mixed order, and a letter outside the table.
    @Test func v2LettersBecomeWebCodesAndAnUnknownLetterIsKeptAndReported() throws {
        let url = datasetFolder.appendingPathComponent("2016-07-25.json")
        var json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var lunch = try #require(json["l"] as? [[String: Any]])
        var kitchens = try #require(lunch[0]["rk"] as? [[String: Any]])
        var items = try #require(kitchens[0]["i"] as? [[String: Any]])
        #expect(items.count >= 3)
        items[0]["t"] = "vpwsdeltfgc"
        items[1]["t"] = ""
        items[2]["t"] = "dexv"
        kitchens[0]["i"] = items
        lunch[0]["rk"] = kitchens
        json["l"] = lunch
        let parsed = try UCLADataset.parseDay(JSONSerialization.data(withJSONObject: json),
                                              date: #require(ServiceDate("2016-07-25")), location: "2017-style.json")
        let soups = try #require(parsed.day.meals.first { $0.name == "Lunch" }?.restaurants.first?.sections.first)
        #expect(soups.foods[0].name == "Bean Fasoulatha")
        #expect(soups.foods[0].codes == ["V", "APNT", "AWHT", "ASOY", "AMLK", "AEGG", "ACSF", "ATNT", "AFSH", "VG", "LC"])
        #expect(soups.foods[1].codes == [])
        #expect(soups.foods[2].codes == ["AMLK", "AEGG", "x", "V"])
        #expect(parsed.problems.count == 1)
        #expect(parsed.problems[0].contains("Italian Minestrone Soup") && parsed.problems[0].contains("\"dexv\""))
        // Every other day and item is as in v1: the day's item count is unchanged.
        let v1 = try parse("2016-07-25")
        #expect(parsed.day.menuItemCount == v1.day.menuItemCount)
        #expect(v1.problems.isEmpty)
    }

    @Test func aFileThatIsNotADayIsAnInputErrorNamingTheFile() throws {
        let date = try #require(ServiceDate("2016-07-25"))
        let notJSON = try #require(throws: Failure.self) {
            try UCLADataset.parseDay(Data("<html>".utf8), date: date, location: "broken.json")
        }
        #expect(notJSON.place?.location == "broken.json")
        let missingKey = try #require(throws: Failure.self) {
            try UCLADataset.parseDay(Data(#"{"l":[{"r":"Covel Dining"}]}"#.utf8), date: date, location: "short.json")
        }
        #expect(missingKey.place?.location == "short.json")
        #expect(missingKey.message.contains("rk") && missingKey.message.contains("l[0]"))
    }

    @Test func labelNumbersMustBePlainDecimals() throws {
        let place = ItemPlace(file: "f.json", meal: "Lunch", restaurant: "R", kitchen: "K", index: 1, entree: "E")
        var label = ["87", "2", "0%", "0%", "0%", "41%", "0.2g", "0%", "0.1g", "0%", "0g", "0mg", "0%",
                     "177.4mg", "7%", "18.9g", "15%", "0.7g", "3%", "0.1g", "2.7g"]
        #expect(try DatasetLabel.nutrients(from: label, at: place).count == 15)
        for bad in ["inf", "1e3", "-2", "", "1.2.3", ".5"] {
            label[0] = bad
            #expect(throws: Failure.self) { try DatasetLabel.nutrients(from: label, at: place) }
        }
        #expect(throws: Failure.self) { try DatasetLabel.nutrients(from: Array(label.prefix(20)), at: place) }
    }
}
