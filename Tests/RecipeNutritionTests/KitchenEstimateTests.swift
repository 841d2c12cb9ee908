import BenchmarkCorpus
import FoodModel
import Foundation
import RecipeNutrition
import Testing
import TestSupport

/// UCLA's recipe documents give both the weighed rows and the label the kitchen computed from
/// them: estimates checked by hand on two, and measured on all 1,078.
@Suite struct KitchenEstimateTests {
    static let folder = Paths.sharedData.appendingPathComponent("ucla-jamix-2025/recipes")

    static func foods() throws -> [FoodID: Food] { try KitchenRecipes.read(folder: folder) }

    func estimate(_ document: String) throws -> NutritionEstimate {
        let foods = try Self.foods()
        let food = try #require(foods[FoodID(source: "ucla-jamix", recipeId: "recipe-\(document)")])
        return try #require(try Reference.loaded().estimate(food, among: foods))
    }

    /// recipes/1180.json, Roasted Eggplant: Eggplant 2.125 lb, Canola Oil 0.089 lb, Sea Salt
    /// 0.02 lb, no cooking loss. In grams (lb × 453.59237): 963.8838, 40.3697, 9.0718; 1,013.3254
    /// in all. SR24: eggplant (11209) 24 kcal and 2 mg sodium, canola oil (04582) 884 kcal, table
    /// salt (02047) 38,758 mg sodium per 100 g. Per 100 g: (963.8838 × 24 + 40.3697 × 884) /
    /// 1,013.3254 = 58.05 kcal; (963.8838 × 2 + 9.0718 × 38,758) / 1,013.3254 = 348.89 mg sodium.
    /// The document prints 59.0 kcal.
    @Test func aRecipeOfWeighedRowsIsTheSumOverItsWeight() throws {
        let estimate = try estimate("1180")
        #expect(estimate.lines.map(\.matchId) == ["11209", "04582", "02047"])
        #expect(abs(try #require(estimate.lines[0].grams) - 963.8838) < 0.001)
        #expect(abs(estimate.matchedGrams - 1013.3254) < 0.001)
        #expect(estimate.matchedShare == 1)
        #expect(abs(try #require(estimate.amountPer100g(.calories)) - 58.05) < 0.01)
        #expect(abs(try #require(estimate.amountPer100g(.sodium)) - 348.89) < 0.01)
        // The serving is the document's 2.98 oz portion: 84.4816 g.
        #expect(abs(try #require(estimate.servingGrams) - 2.98 * 28.349523125) < 0.001)
    }

    /// recipes/2836.json, Tangerine Marmalade, `cookingLossPercentage` 28.85: Clementine Tangerine
    /// 3.89 lb (1,764.4743 g; SR 09218, 53 kcal, 2 mg sodium), Water 0.52 lb (235.8680 g; 14411,
    /// 0 kcal, 4 mg), Granulated Sugar 0.03 lb (13.6078 g; 19335, 387 kcal, 1 mg): 2,013.9501 g
    /// raw, 2,013.9501 × (1 − 0.2885) = 1,432.9255 g cooked. Per 100 g: (1,764.4743 × 53 +
    /// 13.6078 × 387) / 1,432.9255 = 68.94 kcal (the document prints 69.19); sodium (1,764.4743 ×
    /// 2 + 235.8680 × 4 + 13.6078 × 1) / 1,432.9255 = 3.13 mg.
    @Test func theCookingLossTheDocumentStatesConcentratesTheDish() throws {
        let estimate = try estimate("2836")
        #expect(estimate.cookingLossPercent == 28.85)
        #expect(abs(try #require(estimate.amountPer100g(.calories)) - 68.94) < 0.01)
        #expect(abs(try #require(estimate.amountPer100g(.sodium)) - 3.13) < 0.01)
    }

    /// Coverage and error over every saved document, as `commissary-bench estimates` prints them
    /// (docs/nutrition-estimates.md); the floors are the measured figures, rounded down.
    @Test func estimatesAgreeWithTheLabelsTheKitchenPrinted() throws {
        let accuracy = EstimateAccuracy(foods: try Self.foods(), estimator: try Reference.loaded())
        #expect(accuracy.recipes == 1078)
        // Measured: 722 of 1,078 (67.0%), median energy error 5.7% over 718.
        #expect(accuracy.coveredShare >= 0.66)
        let energy = try #require(accuracy.errors.first { $0.key == .calories })
        #expect(energy.median <= 0.15)
        #expect(energy.count >= 700)
    }
}
