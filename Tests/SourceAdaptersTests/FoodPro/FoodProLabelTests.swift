import Basics
import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// Berkeley's FoodPro label for Brown Rice; values read on the page (and listed in
/// Sources/1-Sources/SourceAdapters/FoodPro/README.md from the spec that saved it).
@Suite struct FoodProLabelTests {
    static let path = "foodpro-berkeley-2016/label-153002.html"

    static func parse() throws -> Food {
        try FoodPro.parseLabel(SharedData.load(path), url: path, charset: nil, recipeId: "153002")
    }

    @Test func readsNameServingAndCalories() throws {
        let food = try Self.parse()
        #expect(food.id == FoodID(source: "foodpro", recipeId: "153002"))
        #expect(food.name == "Brown Rice")
        #expect(food.servingSize == "4 OZ")
        #expect(food.calories == 127)
        #expect(food.labelBasis == .serving)
    }

    @Test func readsNutrientsWithTheirPrintedPercent() throws {
        let food = try Self.parse()
        func nutrient(_ key: NutrientKey) -> NutrientValue? { food.nutrients.first { $0.key == key } }
        #expect(nutrient(.totalFat) == NutrientValue(key: .totalFat, name: "Total Fat", amount: 0.9,
                                                     unit: "g", printedDailyValuePercent: 1))
        #expect(nutrient(.totalCarbohydrate) == NutrientValue(
            key: .totalCarbohydrate, name: "Tot. Carb.", amount: 26.7, unit: "g", printedDailyValuePercent: 9))
        #expect(nutrient(.saturatedFat)?.amount == 0.2)
        #expect(nutrient(.dietaryFiber) == NutrientValue(key: .dietaryFiber, name: "Dietary Fiber",
                                                         amount: 2, unit: "g", printedDailyValuePercent: 8))
        #expect(nutrient(.transFat) == NutrientValue(key: .transFat, name: "Trans Fat", amount: 0, unit: "g"))
        #expect(nutrient(.sugars)?.printedDailyValuePercent == nil)
        #expect(nutrient(.cholesterol) == NutrientValue(key: .cholesterol, name: "Cholesterol", amount: 0,
                                                        unit: "mg", printedDailyValuePercent: 0))
        #expect(nutrient(.protein) == NutrientValue(key: .protein, name: "Protein", amount: 2.6, unit: "g"))
        #expect(nutrient(.sodium) == NutrientValue(key: .sodium, name: "Sodium", amount: 1.5, unit: "mg",
                                                   printedDailyValuePercent: 0))
        #expect(nutrient(.calcium)?.printedDailyValuePercent == 1)
        #expect(nutrient(.iron)?.printedDailyValuePercent == 4)
        #expect(nutrient(.vitaminC)?.printedDailyValuePercent == 0)
        #expect(nutrient(.caloriesFromFat) == NutrientValue(key: .caloriesFromFat, name: "Calories from Fat",
                                                            amount: 8, unit: "kcal"))
        #expect(food.nutrients.count == 13)
    }

    @Test func readsIngredientsAndAnEmptyAllergenLine() throws {
        let food = try Self.parse()
        #expect(food.ingredients == "Brown Rice, Water")
        #expect(food.allergens.isEmpty)
    }

    @Test func aPageWithoutTheLabelLayoutIsAnInputError() {
        let error = #expect(throws: Failure.self) {
            try FoodPro.parseLabel(Data("<html><body>Label not found</body></html>".utf8),
                                   url: "label.asp?RecNumAndPort=1*1", charset: nil, recipeId: "1")
        }
        #expect(error?.place?.location == "label.asp?RecNumAndPort=1*1")
    }
}
