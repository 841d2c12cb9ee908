import FoodModel
import RecipeNutrition
import Snapshot

/// The nutrition estimates a run writes: every catalogue recipe, batch by batch as the spools
/// give them back (a dump of a million recipes is never held whole, and neither are its
/// estimates), then the recipes held in memory, each replacing an earlier estimate of the same id
/// as the recipes themselves replace one another; then every food whose recipe document gives
/// weighed rows.
enum Estimates {
    static func write(_ dataset: Dataset, estimator: RecipeEstimator, into staging: StagingSnapshot) throws {
        for spool in dataset.recipeSpools {
            try spool.forEachBatch { batch in
                try staging.write(estimates: batch.map { ("recipe", estimator.estimate($0)) })
            }
        }
        let held = dataset.recipes.values.sorted { $0.id < $1.id }
        try staging.write(estimates: held.map { ("recipe", estimator.estimate($0)) })
        let foods = dataset.foods.values.sorted { $0.id < $1.id }
        try staging.write(estimates: foods.compactMap { food in estimator.estimate(food, among: dataset.foods).map { ("food", $0) } })
    }
}
