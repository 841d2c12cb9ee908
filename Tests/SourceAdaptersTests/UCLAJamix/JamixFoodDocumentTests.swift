import Basics
import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// A food's own document of UCLA's feed (an ingredient or a recipe) read from the real ones saved
/// in `../shared/data/ucla-jamix-2025`, with values read by hand or by the tests from the files.
@Suite struct JamixFoodDocumentTests {
    /// The real ingredient documents read into foods: name, ingredients, allergens as codes (raw
    /// kept), and a label only where the document has one that is not all zeros.
    @Test func realIngredientDocumentsBecomeFoods() throws {
        let all = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: UCLAJamixNights.folder.appendingPathComponent("ingredients-2025-11-07.json"))) as? [String: Any])
        #expect(all.count == 19)
        for (id, document) in all {
            let data = try JSONSerialization.data(withJSONObject: document)
            let food = try JamixFoodDocument.parse(data, foodId: "ingredient-\(id)", location: "\(id).json").food
            let fields = try #require(document as? [String: Any])
            #expect(food.name == (fields["ingredientName"] as? String)?.trimmingCharacters(in: .whitespaces))
            #expect(food.allergens == (fields["ingredientAllergens"] as? [String] ?? []))
            let values = fields["ingredientNutritiveValues"] as? [String: Any]
            let kcal = (values?["energyKcal"] as? NSNumber)?.doubleValue
            if let kcal, kcal > 0 {
                // Per 100 g (the document's `portion`), which is no serving: only a menu row states one.
                #expect(food.calories == kcal)
                #expect(food.labelBasis == .hundredGrams && food.servingSize == nil)
            }
        }
        // Bagel Everything Jalapeno Cheese (7808): five allergens as UCLA's codes, its label all zeros.
        let bagel = try JamixFoodDocument.parse(
            JSONSerialization.data(withJSONObject: try #require(all["7808"])), foodId: "ingredient-7808", location: "7808.json").food
        // The document's allergens, as printed and in its order.
        #expect(bagel.codes == ["Soy", "Gluten", "Wheat", "Sesame", "Dairy"])
        #expect(bagel.nutrients.isEmpty && bagel.calories == nil && bagel.labelBasis == nil)
    }

    /// A real recipe document (`recipes/1007.json`, Tuna & Lentil Hummus Stacker), with values
    /// read by hand from the file: the serving is the portion (2.92 oz), not the batch (742); the
    /// nutrients are per 100 g with the printed %DV of that amount; the diets come from the short
    /// codes; a field that cannot be read costs only itself; a null label keeps the dish.
    @Test func aRealRecipeDocumentIsReadAsItIs() throws {
        let url = UCLAJamixNights.folder.appendingPathComponent("recipes/1007.json")
        let reading = try JamixFoodDocument.parse(Data(contentsOf: url), foodId: "recipe-1007", location: "recipes/1007.json")
        let food = reading.food
        #expect(reading.problems.isEmpty)
        #expect(food.name == "Tuna & Lentil Hummus Stacker")
        #expect(food.servingSize == "2.92 oz" && food.serving == ServingSize(amount: 2.92, unit: "oz"))
        #expect(food.batchPortions == 742)
        #expect(abs((food.servingGrams ?? 0) - 2.92 * 28.349523125) < 1e-9)
        #expect(food.labelBasis == .hundredGrams)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let values = try #require(fields["recipeNutritiveValues"] as? [String: Any])
        let energy = try #require((values["energyKcal"] as? [String: Any])?["value"] as? NSNumber).doubleValue
        #expect(food.calories == energy)
        #expect(food.codes.contains("Alcohol") == false)
        let dv = try #require(fields["dailyValues"] as? [String: Any])
        let fatPercent = try #require((dv["fat"] as? [String: Any])?["value"] as? NSNumber).doubleValue
        #expect(food.nutrients.first { $0.key == .totalFat }?.printedDailyValuePercent == fatPercent)

        var edited = fields
        edited["recipeAllergens"] = [["allergenName": "Fish"], 17]
        edited["recipeDiet"] = "VG,XY"
        edited["recipeDietFull"] = "Vegan, Extra Yummy"
        edited["recipeNutritiveValues"] = NSNull()
        let odd = try JamixFoodDocument.parse(JSONSerialization.data(withJSONObject: edited), foodId: "recipe-1007",
                                              location: "recipes/1007.json")
        #expect(odd.problems == ["recipes/1007.json: recipeAllergens[1] has no allergenName, left out"])
        // An unknown code takes the one spelled-out name no known code accounts for.
        #expect(odd.food.codes == ["Vegan", "Extra Yummy", "Fish"])
        #expect(odd.food.nutrients.isEmpty && odd.food.labelBasis == nil && odd.food.calories == nil)
        #expect(odd.food.name == food.name && odd.food.components == food.components && !food.components.isEmpty)

        // A block whose every name is new to the reader is a label that gave nothing: it keeps its
        // basis, so the checks name it (label_without_nutrients), instead of a dish without a label.
        var renamed: [String: Any] = [:]
        for (key, value) in values { renamed[["portionSize", "portitionSizeUnit"].contains(key) ? key : "x_" + key] = value }
        edited["recipeNutritiveValues"] = renamed
        let unknownNames = try JamixFoodDocument.parse(JSONSerialization.data(withJSONObject: edited), foodId: "recipe-1007",
                                                       location: "recipes/1007.json")
        #expect(unknownNames.food.nutrients.isEmpty && unknownNames.food.labelBasis == .hundredGrams)

        edited["recipeNutritiveValues"] = ["portionSize": 1, "portitionSizeUnit": "portion", "energyKcal": 310]
        let perPortion = try JamixFoodDocument.parse(JSONSerialization.data(withJSONObject: edited), foodId: "recipe-1007",
                                                     location: "recipes/1007.json")
        #expect(perPortion.food.nutrients.isEmpty && perPortion.food.labelBasis == nil)
        #expect(perPortion.problems.contains { $0.contains("not per 100 g") })

        edited["recipeNutritiveValues"] = ["energyKcal": "lots"]
        let error = #expect(throws: Failure.self) {
            try JamixFoodDocument.parse(JSONSerialization.data(withJSONObject: edited), foodId: "recipe-1007",
                                        location: "recipes/1007.json")
        }
        #expect(error?.description == "recipes/1007.json: recipeNutritiveValues.energyKcal: expected a number or an object with a numeric value, found text")
    }

    /// Each short diet code of the 1,078 real documents means what its document spells out.
    @Test func dietCodesMeanWhatTheirDocumentsSpellOut() throws {
        let folder = UCLAJamixNights.folder.appendingPathComponent("recipes")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".json") {
            let fields = try #require(try JSONSerialization.jsonObject(
                with: Data(contentsOf: folder.appendingPathComponent(file))) as? [String: Any])
            let food = try JamixFoodDocument.parse(Data(contentsOf: folder.appendingPathComponent(file)),
                                                   foodId: "recipe-\(file.dropLast(5))", location: file).food
            let spelled = (fields["recipeDietFull"] as? String ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(Set(food.codes).isSuperset(of: spelled), "\(file)")
        }
    }
}
