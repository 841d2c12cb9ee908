import DiningSources
import FoodModel
import Foundation
import Testing
import TestSupport

/// The NetNutrition label reader on Duke's real label (`../shared/data/netnutrition-2025`,
/// "Bacon Swiss and Arugula Egg Bite"). Every expected value was read off the HTML by hand.
@Suite struct NetNutritionLabelTests {
    static let file = "netnutrition-2025/duke-label-egg-bite.html"

    private func label() throws -> Food {
        try NetNutritionLabel.parse(SharedData.load(Self.file), itemId: "egg-bite", url: Self.file, charset: nil)
    }

    @Test func nameServingCaloriesIngredientsAllergens() throws {
        let food = try label()
        #expect(food.id == FoodID(source: "netnutrition", recipeId: "egg-bite"))
        #expect(food.name == "Bacon Swiss and Arugula Egg Bite")
        #expect(food.servingSize == "2.7 oz Portion (77g)")
        #expect(food.serving == ServingSize(amount: 2.7, unit: "oz Portion"))
        #expect(food.calories == 180)
        #expect(food.ingredients?.hasPrefix("Large White Eggs, Heavy Whipping Cream (HEAVY CREAM (MILK), MILK,") == true)
        #expect(food.ingredients?.hasSuffix("Seasoning Salt Kosher (SALT, YELLOW PRUSSIATE OF SODA)") == true)
        #expect(food.allergens == ["Egg", "Milk"])
        #expect(food.codes == ["Egg", "Milk"])
    }

    /// Every row of the label, in label order, with the amount, unit and printed %DV beside it;
    /// "NA" is kept as printed, with no amount; the added-sugars line reads as its own row.
    @Test func everyNutrientWithItsPrintedDailyValue() throws {
        let food = try label()
        let expected: [(String, String, Double?, String?, Double?)] = [
            ("calories", "Calories", 180, "kcal", nil),
            ("total_fat", "Total Fat", 15, "g", 23), ("saturated_fat", "Saturated Fat", 7, "g", 34),
            ("trans_fat", "Trans Fat", nil, nil, nil), ("cholesterol", "Cholesterol", 220, "mg", 73),
            ("sodium", "Sodium", 390, "mg", 16), ("total_carbohydrate", "Total Carbohydrate", 2, "g", 1),
            ("dietary_fiber", "Dietary Fiber", 0, "g", 0), ("sugars", "Total Sugars", 0, "g", 1),
            ("added_sugars", "Added Sugars", nil, nil, nil), ("protein", "Protein", 9, "g", nil),
            ("calcium", "Calcium", 50, "mg", 6), ("iron", "Iron", 0.96, "mg", 6), ("potassium", "Potas.", 120, "mg", 3),
        ]
        #expect(food.nutrients.map(\.key.rawValue) == expected.map(\.0))
        for (value, (key, name, amount, unit, percent)) in zip(food.nutrients, expected) {
            #expect(value.name == name, "\(key)")
            #expect(value.amount == amount, "\(key)")
            #expect(value.unit == unit, "\(key)")
            #expect(value.printedDailyValuePercent == percent, "\(key)")
        }
        #expect(food.nutrients[3].printedAmount == "NA")
        #expect(food.nutrients[9].printedAmount == "NA")
    }

    @Test func aPageThatIsNotALabelSaysSo() throws {
        do {
            _ = try NetNutritionLabel.parse(Data("<html><body><p>Session expired</p></body></html>".utf8), itemId: "1",
                                            url: "https://example.edu/NetNutrition/1", charset: nil)
            Issue.record("a page without a label was read")
        } catch {
            #expect("\(error)".contains("not a NetNutrition label"))
            #expect("\(error)".contains("https://example.edu/NetNutrition/1"))
        }
    }
}
