import FoodModel
import Foundation
import Nutrition
@testable import SourceAdapters
import Testing

private let datasetFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/data/ucla-dataset-2016")

private func food(named name: String, on day: String) throws -> Food {
    let url = datasetFolder.appendingPathComponent(day + ".json")
    let parsed = try UCLADataset.parseDay(Data(contentsOf: url), date: try #require(ServiceDate(day)),
                                          location: url.lastPathComponent)
    return try #require(parsed.foods.first { $0.name == name })
}

@Suite struct FoodReviewTests {
    /// 2016-08-01, Tomato & Wild Rice Soup: 51 kcal printed, but protein 1.1 g, carbohydrate
    /// 13.9 g and fat 1.1 g give 4 × 1.1 + 4 × 13.9 + 9 × 1.1 = 69.9 kcal, 27% more.
    @Test func caloriesFarFromTheMacronutrientsFlagTheFood() throws {
        let soup = try food(named: "Tomato & Wild Rice Soup", on: "2016-08-01")
        let flag = try #require(FoodReview.energySanity(of: soup))
        #expect(flag.check == "energy_sanity")
        #expect(flag.message.contains("51 kcal printed"))
        #expect(flag.message.contains("= 69.9 kcal"))
        // Within 20% it would pass: widen the tolerance to 30%.
        #expect(FoodReview.energySanity(of: soup, limits: NutritionLimits(energyTolerance: 0.3)) == nil)
    }

    /// 2016-12-09, Sweet Potato Fries: Total Fat "3g" but Saturated Fat "5g".
    @Test func aPartLargerThanItsWholeIsImplausible() throws {
        let fries = try food(named: "Sweet Potato Fries", on: "2016-12-09")
        let flags = FoodReview.implausibleValues(in: fries)
        #expect(flags.count == 1)
        #expect(flags.first?.nutrient == .saturatedFat)
        #expect(flags.first?.message == "Saturated Fat (5 g) exceeds Total Fat (3 g)")
    }

    /// 2016-08-31, Tres Leches Cake: a whole cake, 7,505 kcal, whose macronutrients agree
    /// (4 × 107.6 + 4 × 796.3 + 9 × 436.5 = 7,544 kcal): large, but not flagged.
    @Test func aLargeButConsistentLabelIsNotFlagged() throws {
        let cake = try food(named: "Tres Leches Cake", on: "2016-08-31")
        #expect(FoodReview.flags(for: cake).isEmpty)
        #expect(FoodReview.flags(for: cake, limits: NutritionLimits(maximumCalories: 5000)).map(\.check)
            == ["implausible_value"])
    }

    @Test func negativeAmountsAndPercentagesAreFlagged() {
        let food = Food(id: FoodID(source: "t", recipeId: "1"), name: "t", nutrients: [
            NutrientValue(key: .sodium, name: "Sodium", amount: -5, unit: "mg", printedDailyValuePercent: -1),
        ])
        #expect(FoodReview.implausibleValues(in: food).count == 2)
    }
}
