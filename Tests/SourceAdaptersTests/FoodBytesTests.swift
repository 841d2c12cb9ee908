import Basics
import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// Foods as the parse cache keeps them come back equal, field for field: every food of the 2016
/// dataset (labels printed per serving), every recipe and ingredient document of UCLA's feed
/// (per 100 g, batches, components, cooking loss), a NetNutrition label, and a food with every
/// optional field set, empty and absent. Bytes it did not write are an error.
@Suite struct FoodBytesTests {
    private func roundTrip(_ foods: [Food], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let decoded = try FoodBytes.decode(FoodBytes.encode(foods))
        #expect(decoded.count == foods.count, sourceLocation: sourceLocation)
        for (got, expected) in zip(decoded, foods) where got != expected {
            Issue.record("\(expected.id) differs after a round trip", sourceLocation: sourceLocation)
        }
    }

    @Test func everyFoodOfTheDatasetComesBackEqual() throws {
        let folder = Paths.sharedData.appendingPathComponent("ucla-dataset-2016")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        let foods = try files.prefix(20).flatMap { name in
            let date = try #require(ServiceDate(String(name.dropLast(5))))
            return try UCLADataset.parseDay(Data(contentsOf: folder.appendingPathComponent(name)), date: date,
                                            location: name).foods
        }
        #expect(foods.contains { !$0.nutrients.isEmpty && $0.labelBasis == .serving })
        try roundTrip(foods)
    }

    @Test func everyRecipeAndIngredientDocumentOfUCLAsFeedComesBackEqual() throws {
        let recipes = UCLAJamixNights.folder.appendingPathComponent("recipes")
        let names = try FileManager.default.contentsOfDirectory(atPath: recipes.path).filter { $0.hasSuffix(".json") }.sorted()
        var foods = try names.compactMap { name in
            try? JamixFoodDocument.parse(Data(contentsOf: recipes.appendingPathComponent(name)),
                                         foodId: "recipe-\(name.dropLast(5))", location: name).food
        }
        let ingredients = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: UCLAJamixNights.folder.appendingPathComponent("ingredients-2025-11-07.json"))) as? [String: Any])
        for (id, document) in ingredients.sorted(by: { $0.key < $1.key }) {
            foods.append(try JamixFoodDocument.parse(JSONSerialization.data(withJSONObject: document),
                                                     foodId: "ingredient-\(id)", location: "\(id).json").food)
        }
        #expect(foods.count > 1000)
        #expect(foods.contains { !$0.components.isEmpty && $0.batchPortions != nil && $0.labelBasis == .hundredGrams })
        #expect(foods.contains { $0.components.contains { $0.food != nil } })
        try roundTrip(foods)
        let label = try NetNutritionLabel.parse(SharedData.load("netnutrition-2025/duke-label-egg-bite.html"),
                                                itemId: "egg-bite", url: "duke-label-egg-bite.html", charset: nil)
        try roundTrip([label])
    }

    private static let everyField: Food = {
        var food = Food(id: FoodID(source: "ucla", recipeId: "recipe-1007"), name: "Tuna ☕", description: "",
                        servingSize: "2.92 oz", calories: 0,
                        nutrients: [
                            NutrientValue(key: .protein, name: "Protein", amount: 12, unit: "g",
                                          printedDailyValuePercent: 24, computedDailyValuePercent: 24.000_000_1,
                                          dailyValueStandard: "fda-2016"),
                            NutrientValue(key: .dietaryFiber, name: "", amount: nil, unit: nil,
                                          printedAmount: "< 1", amountBelow: 1, amountAtLeast: 0),
                        ],
                        ingredients: "", allergens: ["Fish", ""], codes: ["V", "AWHT"], labelBasis: .hundredGrams)
        food.serving = ServingSize(amount: 2.92, unit: "oz")
        food.batchPortions = 742.5
        food.components = [
            FoodComponent(name: "Sauces", isHeading: true),
            FoodComponent(name: "Tuna", amount: 1.5, unit: "lb", food: FoodID(source: "ucla", recipeId: "ingredient-7"),
                          isSubRecipe: false),
            FoodComponent(name: "Hummus", amount: nil, unit: nil, food: nil, isHeading: false, isSubRecipe: true),
        ]
        food.cookingLossPercent = -3
        return food
    }()

    @Test func everyFieldSetEmptyAndAbsentComesBackEqual() throws {
        try roundTrip([Self.everyField, Food(id: FoodID(source: "", recipeId: ""), name: "")])
        try roundTrip([])
    }

    @Test func bytesItDidNotWriteAreAnError() throws {
        let bytes = FoodBytes.encode([Self.everyField])
        for length in 0..<bytes.count {
            #expect(throws: Failure.self) { try FoodBytes.decode(bytes.prefix(length)) }
        }
        #expect(throws: Failure.self) { try FoodBytes.decode(bytes + [0]) }
        // A label basis this build does not know.
        let unknownBasis = FoodBytes.encode([Food(id: FoodID(source: "s", recipeId: "1"), name: "n", labelBasis: .serving)])
        var edited = unknownBasis
        let basis = try #require(edited.range(of: Data("serving".utf8)))
        edited[basis.upperBound - 1] = UInt8(ascii: "G")
        #expect(throws: Failure.self) { try FoodBytes.decode(edited) }
    }
}
