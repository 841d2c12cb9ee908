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

    /// recipes/2823.json, Polish Sausage Sandwich: two sub-recipe rows whose documents were not
    /// saved (1510, 2817), so each is matched by its English name like an ingredient, and says so.
    /// Smoked Polish Sausage 0.513 lb (232.6929 g; SR 07916 by synonym: 301 kcal, 848 mg sodium
    /// per 100 g), Red Roasted Potatoes 0.375 lb (170.0971 g; 11355: 70 kcal, 18 mg): 402.7900 g.
    /// Per 100 g: (232.6929 × 301 + 170.0971 × 70) / 402.7900 = 203.45 kcal (the document prints
    /// 223.17); sodium (232.6929 × 848 + 170.0971 × 18) / 402.7900 = 497.49 mg.
    @Test func aSubRecipeWithoutItsDocumentIsMatchedByItsNameAndSaysSo() throws {
        let estimate = try estimate("2823")
        #expect(estimate.lines.map(\.matchId) == ["07916", "11355"])
        #expect(estimate.lines.map(\.matchedBy) == ["sub-recipe matched by name, synonym", "sub-recipe matched by name, synonym"])
        #expect(estimate.matchedShare == 1)
        #expect(abs(try #require(estimate.amountPer100g(.calories)) - 203.45) < 0.01)
        #expect(abs(try #require(estimate.amountPer100g(.sodium)) - 497.49) < 0.01)
    }

    /// recipes/2814.json, Chicken Sausage Sandwich: one row, the sub-recipe Hungarian Chicken
    /// Sausage (1513, not saved), 0.938 lb = 425.4696 g, which no food of SR24 names: the line is
    /// weighed but counts for nothing, says it was a sub-recipe its name did not match either,
    /// and the recipe has no estimate, with the reason.
    @Test func aSubRecipeNeitherReadNorNamedSaysWhy() throws {
        let estimate = try estimate("2814")
        let sausage = try #require(estimate.lines.first)
        #expect(estimate.lines.count == 1 && sausage.matchId == nil)
        #expect(abs(try #require(sausage.grams) - 0.938 * 453.59237) < 0.001)
        #expect(sausage.reason == "a sub-recipe with no document, label or whole estimate to count by, and by its name: "
                + "no food of usda-sr24 names every word (hungarian chicken sausage)")
        #expect(sausage.code == .subRecipeUnmatched)
        #expect(estimate.matchedGrams == 0 && estimate.reasonCode == .nothingCounted)
        #expect(estimate.reason?.hasPrefix("no line could be both matched and weighed (1 line(s): a sub-recipe with no") == true)
    }

    /// recipes/1001.json, French Toast, row by row in `ingredientRowOrder`: the six "Assembly"
    /// rows and the olive oil spray weigh 0 lb (no amount); Egg Yolks (1002), Whole Wheat Bread
    /// (1106) are sub-recipes whose documents were not saved, matched by name; Pistachio Butter
    /// (1000) is one too, whose name the override file keeps unknown (its last word would read it
    /// as dairy butter); Grilled Pineapple (999) is one whose document was saved with its label;
    /// Cocoa Nibs and Agave Nectar have no food in SR24; the rest, Quinoa Flakes among them (the
    /// seeds rolled flat), are synonyms.
    @Test func everyLineCarriesTheCodeOfWhatBecameOfIt() throws {
        let estimate = try estimate("1001")
        let expected: [(String, EstimateLine.Code)] = [
            ("Assembly 1", .noAmount), ("Lowfat milk", .matched), ("Granulated Sugar", .matched),
            ("Egg Liquid", .matched), ("Egg Yolks", .subRecipeByName), ("Assembly 2", .noAmount),
            ("Quinoa Flakes", .matched), ("Cocoa Nibs", .unmatchedName), ("Assembly 3", .noAmount),
            ("Grilled Pineapple", .subRecipeDocument), ("Jalapeno Peppers", .matched), ("Lime Juice", .matched),
            ("Agave Nectar", .unmatchedName), ("Granulated Sugar", .matched), ("Assembly 4", .noAmount),
            ("Whole Wheat Bread", .subRecipeByName), ("Assembly 5", .noAmount), ("Extra Virgin Olive Oil Spray", .noAmount),
            ("Assembly 6", .noAmount), ("Pistachio Butter", .unknownByOverride),
        ]
        #expect(estimate.lines.map(\.name) == expected.map(\.0))
        #expect(estimate.lines.map(\.code) == expected.map(\.1))
        // The codes agree with the wording: a line counts exactly when its code is a counted one.
        let counted: Set<EstimateLine.Code> = [.matched, .override, .subRecipeDocument, .subRecipeByName]
        #expect(estimate.lines.allSatisfy { $0.counts == counted.contains($0.code) })
        #expect(estimate.reasonCode == nil)
    }

    /// Coverage and error over every saved document, as `commissary-bench estimates` prints them
    /// (docs/nutrition-estimates.md); the floors are the measured figures, rounded down.
    @Test func estimatesAgreeWithTheLabelsTheKitchenPrinted() throws {
        let accuracy = EstimateAccuracy(foods: try Self.foods(), estimator: try Reference.loaded())
        #expect(accuracy.recipes == 1078)
        // Measured: 760 of 1,078 (70.5%), energy error median 5.38% and p90 40.2% over 756. Issue 54
        // asks 90% at a median of 5%: what SR24 can honestly name stops short (the docs list why).
        #expect(accuracy.coveredShare >= 0.70)
        let energy = try #require(accuracy.errors.first { $0.key == .calories })
        #expect(energy.median <= 0.054)
        // No worse than before issue 54's matches (41.5%).
        #expect(energy.p90 <= 0.415)
        #expect(energy.count >= 750)
    }
}
