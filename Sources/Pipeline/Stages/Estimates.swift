import FoodModel
import RecipeNutrition

/// The nutrition estimates a run writes: every catalogue recipe (held, and set aside in spools,
/// a later one with the same id replacing an earlier one, as the recipes themselves are written)
/// and every food whose recipe document gives weighed rows.
enum Estimates {
    static func of(_ dataset: Dataset, estimator: RecipeEstimator) throws -> [(kind: String, estimate: NutritionEstimate)] {
        var recipes: [String: NutritionEstimate] = [:]
        for spool in dataset.recipeSpools {
            try spool.forEachBatch { batch in
                for recipe in batch { recipes[recipe.id.description] = estimator.estimate(recipe) }
            }
        }
        for recipe in dataset.recipes.values { recipes[recipe.id.description] = estimator.estimate(recipe) }
        let foods = dataset.foods.values.sorted { $0.id < $1.id }.compactMap { estimator.estimate($0, among: dataset.foods) }
        return recipes.keys.sorted().compactMap { id in recipes[id].map { ("recipe", $0) } } + foods.map { ("food", $0) }
    }
}
