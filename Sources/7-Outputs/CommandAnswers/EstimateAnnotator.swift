import FoodModel
import Foundation
import RecipeNutrition
import SourceAdapters

/// What `commissary parse --nutrition-reference` adds: the estimates a run would write for the
/// page's recipes and recipe documents, printed beside the page under `nutrition_estimates`.
public struct EstimateAnnotator {
    let estimator: RecipeEstimator

    /// The reference by name, with its synonyms and overrides from `Pipelines/nutrition/` under
    /// the current folder, else the installed ones.
    public init(reference name: String,
         pipelinesFolder: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
             .appendingPathComponent("Pipelines")) throws {
        let reference = try NutritionReference.load(name)
        let tables = try MatchingTables.load(for: reference, beside: pipelinesFolder)
        estimator = RecipeEstimator(matcher: IngredientMatcher(reference: reference, tables: tables))
    }

    /// A recipe document's sub-recipes are not on the page: they are matched by name.
    func estimates(of page: ParsedPage) -> [NutritionEstimate] {
        switch page {
        case .recipes(let recipes): return recipes.map(estimator.estimate)
        case .food(let food): return estimator.estimate(food, among: [food.id: food]).map { [$0] } ?? []
        case .dayWithFoods(_, let foods):
            let byId = Dictionary(foods.map { ($0.id, $0) }, uniquingKeysWith: { _, later in later })
            return foods.compactMap { estimator.estimate($0, among: byId) }
        case .day, .sections, .hours: return []
        }
    }

    /// The page as parse prints it, with the estimates beside it.
    public struct Annotated: Encodable {
        let page: ParsedPage
        let nutritionEstimates: [NutritionEstimate]
    }

    public func annotated(_ page: ParsedPage) -> Annotated {
        Annotated(page: page, nutritionEstimates: estimates(of: page))
    }
}
