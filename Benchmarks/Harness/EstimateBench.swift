import BenchmarkCorpus
import Foundation
import RecipeNutrition

/// `commissary-bench estimates`: the nutrition estimates measured against the labels UCLA's
/// kitchen printed from the same recipes (docs/nutrition-estimates.md, "Measured"): coverage,
/// and the median and 90th percentile of the absolute relative error per nutrient.
enum EstimateBench {
    static func run(_ settings: Settings) throws {
        let reference = try NutritionReference.load("usda-sr24")
        let tables = try MatchingTables.load(for: reference, beside: settings.repository.appendingPathComponent("Pipelines"))
        let estimator = RecipeEstimator(matcher: IngredientMatcher(reference: reference, tables: tables))
        let foods = try KitchenRecipes.read(folder: settings.kitchenRecipes)
        let accuracy = EstimateAccuracy(foods: foods, estimator: estimator)
        print(report(accuracy, folder: settings.kitchenRecipes.path))
    }

    /// The names listed under the figures: the first synonyms, overrides or documents to look at.
    static let shownShortfalls = 25

    static func report(_ accuracy: EstimateAccuracy, folder: String) -> String {
        func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }
        var lines = [
            "Nutrition estimates (usda-sr24) against UCLA's printed labels per 100 g, \(folder)",
            "recipes: \(accuracy.recipes); with weighed rows: \(accuracy.estimated); "
                + "≥ \(percent(EstimateAccuracy.coveredShare)) of weight matched: \(accuracy.covered) "
                + "(\(percent(accuracy.coveredShare)))",
            "nutrient            recipes   median error   p90 error",
        ]
        func right(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
        for error in accuracy.errors {
            lines.append(error.key.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0) + right("\(error.count)", 7)
                + right(percent(error.median), 15) + right(percent(error.p90), 12))
        }
        let shown = accuracy.shortfalls.prefix(shownShortfalls)
        if !shown.isEmpty {
            lines.append("names that count for nothing in the recipes under \(percent(EstimateAccuracy.coveredShare)), "
                         + "the \(shown.count) most frequent (recipes, kg):")
            lines += shown.map { "  \($0.name): \($0.recipes), " + String(format: "%.1f", $0.grams / 1000) }
        }
        return lines.joined(separator: "\n")
    }
}
