import Basics
import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// Every value of the cheeseburger page, as listed in Sources/1-Sources/SourceAdapters/UCLAMenuSite/README.md and read on the page.
@Suite struct UCLARecipeTests {
    static let path = "ucla-menu-2021/recipe-400317-bruin-cheeseburger-fragment.html"

    static func parse() throws -> Food {
        try UCLAMenuSite.parseRecipe(SharedData.load(path), url: path, charset: nil, recipeId: "400317")
    }

    @Test func readsNameDescriptionCodesAndServing() throws {
        let food = try Self.parse()
        #expect(food.id == FoodID(source: "ucla-menu", recipeId: "400317"))
        #expect(food.name == "Bruin Cheeseburger")
        #expect(food.description
            == "Blended Patty, American Cheese, Lettuce, Tomato, Pickle, Red Onion, Mayo, House-made Bun")
        #expect(food.codes == ["AWHT", "AGTN", "ASOY", "AMLK", "AEGG", "HC"])
        #expect(food.servingSize == "1 each")
        #expect(food.calories == 459)
        #expect(food.labelBasis == .serving)
    }

    @Test func readsEveryNutrientRowWithItsPrintedPercent() throws {
        let food = try Self.parse()
        let expected: [NutrientValue] = [
            NutrientValue(key: .totalFat, name: "Total Fat", amount: 21.3, unit: "g", printedDailyValuePercent: 33),
            NutrientValue(key: .saturatedFat, name: "Saturated Fat", amount: 8.8, unit: "g", printedDailyValuePercent: 44),
            NutrientValue(key: .transFat, name: "Trans Fat", amount: 1.1, unit: "g"),
            NutrientValue(key: .cholesterol, name: "Cholesterol", amount: 65.7, unit: "mg", printedDailyValuePercent: 22),
            NutrientValue(key: .sodium, name: "Sodium", amount: 1014.9, unit: "mg", printedDailyValuePercent: 42),
            NutrientValue(key: .totalCarbohydrate, name: "Total Carbohydrate", amount: 43.9, unit: "g", printedDailyValuePercent: 34),
            NutrientValue(key: .dietaryFiber, name: "Dietary Fiber", amount: 1.6, unit: "g", printedDailyValuePercent: 6),
            NutrientValue(key: .sugars, name: "Sugars", amount: 4.3, unit: "g"),
            NutrientValue(key: .protein, name: "Protein", amount: 21.7, unit: "g"),
            NutrientValue(key: .vitaminA, name: "Vitamin A", amount: nil, unit: nil, printedDailyValuePercent: 11),
            NutrientValue(key: .vitaminC, name: "Vitamin C", amount: nil, unit: nil, printedDailyValuePercent: 13),
            NutrientValue(key: .calcium, name: "Calcium", amount: nil, unit: nil, printedDailyValuePercent: 18),
            NutrientValue(key: .iron, name: "Iron", amount: nil, unit: nil, printedDailyValuePercent: 30),
        ]
        #expect(food.nutrients == expected)
    }

    @Test func readsIngredientsAndAllergens() throws {
        let food = try Self.parse()
        #expect(food.ingredients == "Blended Burger Patty (Halal Ground Beef, Onion, Roasted Mushroom, Quinoa, Garlic Salt, Pepper), Vegan Hamburger Bun (Water, Flour, Whole Wheat Flour, Vital Wheat Gluten, Sugar, Canola Oil, Sea Salt, Yeast), Tomato, American Cheese, Red Onion, Green Leaf Lettuce, Pickles, Butter, Mayonnaise, Kosher Salt, Pepper")
        #expect(food.allergens == ["Milk", "Eggs", "Wheat", "Soybeans", "Gluten"])
    }

    @Test func unknownRowsGetAKeyFromTheirName() throws {
        var page = try String(decoding: SharedData.load(Self.path), as: UTF8.self)
        page = page.replacingOccurrences(
            of: "<p class=\"nfnutrient\"><span class=\"nfmajornutrient\">Protein</span> 21.7g </p>",
            with: "<p class=\"nfnutrient\"><span class=\"nfmajornutrient\">Protein</span> 21.7g </p>\n<p class=\"nfnutrient\">Added Sugars 2.5 g <span class=\"nfdvval\"><span class=\"nfdvvalnum\">5</span>%</span></p>")
        let food = try UCLAMenuSite.parseRecipe(Data(page.utf8), url: "edited", charset: nil,
                                                recipeId: "400317")
        #expect(food.nutrients.first { $0.name == "Added Sugars" }
            == NutrientValue(key: NutrientKey("added_sugars"), name: "Added Sugars", amount: 2.5,
                             unit: "g", printedDailyValuePercent: 5))
    }

    @Test func optionalPartsMayBeMissing() throws {
        let page = "<div class=\"recipecontainer\"><h2>Plain Rice</h2></div>"
        let food = try UCLAMenuSite.parseRecipe(Data(page.utf8), url: "plain", charset: nil,
                                                recipeId: "000123")
        #expect(food == Food(id: FoodID(source: "ucla-menu", recipeId: "000123"), name: "Plain Rice"))
        #expect(food.labelBasis == nil)
    }

    @Test func aPageWithoutARecipeNameIsAnInputError() throws {
        let error = #expect(throws: Failure.self) {
            try UCLAMenuSite.parseRecipe(Data("<html><body><p>Not found</p></body></html>".utf8),
                                         url: "http://menu.dining.ucla.edu/Recipes/999999/1",
                                         charset: nil, recipeId: "999999")
        }
        #expect(error?.place?.location == "http://menu.dining.ucla.edu/Recipes/999999/1")
    }
}
