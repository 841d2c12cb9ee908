import FoodModel
import Foundation
import Nutrition
import Snapshot

/// The compute stage: %DV under the pipeline's standard and the swipe-balance tables.
struct Compute {
    let spec: PipelineSpec

    struct Output: StageOutput {
        var dataset: Dataset
        var swipes: (plans: [MealPlanRow], balances: [SwipeBalanceRow])?
        var counts: [String: Int]
        /// Foods whose label printed only zeros, kept without amounts (`UnfilledLabel`).
        var unfilledLabels: [FoodID]
        /// Every label of a food that printed more than one, with the same treatment as the foods.
        var labels: LabelVersions
    }

    func run(_ dataset: Dataset, labels: LabelVersions, menus: MenuDigest) -> Output {
        var dataset = dataset
        var labels = labels
        dataset.foods = labels.firstLabels(of: dataset.foods)
        let unfilled = dataset.foods.values.filter(UnfilledLabel.isUnfilled).map(\.id).sorted()
        for id in unfilled {
            dataset.foods[id] = dataset.foods[id].map(UnfilledLabel.cleared)
        }
        labels.mapLabels { UnfilledLabel.isUnfilled($0) ? UnfilledLabel.cleared($0) : $0 }
        if let standard = spec.dailyValues {
            dataset.foods = dataset.foods.mapValues(standard.apply)
            labels.mapLabels(standard.apply)
        }
        let computed = dataset.foods.values.reduce(0) { total, food in
            total + food.nutrients.filter { $0.computedDailyValuePercent != nil }.count
        }
        let swipes = spec.swipes.map { $0.rows($0.balances(menus: menus.mealsByDay)) }
        return Output(dataset: dataset, swipes: swipes,
                      counts: ["dv_computed": computed, "swipe_balances": swipes?.balances.count ?? 0,
                               "unfilled_labels": unfilled.count],
                      unfilledLabels: unfilled, labels: labels)
    }
}
