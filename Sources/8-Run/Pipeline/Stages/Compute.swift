import Basics
import FoodModel
import Foundation
import Nutrition
import Snapshot

/// The compute stage: %DV under the pipeline's standard, the swipe-balance tables, and the
/// `hours:` file's rows for the run's days.
struct Compute {
    let spec: PipelineSpec
    /// The service days the run's sources cover (a source without dates covers the days its
    /// menus bring, which the menu digest adds).
    var days: Set<ServiceDate> = []

    struct Output: StageOutput {
        var dataset: Dataset
        var swipes: (plans: [MealPlanRow], balances: [SwipeBalanceRow])?
        var counts: [String: Int]
        /// Foods whose label printed only zeros, kept without amounts (`UnfilledLabel`).
        var unfilledLabels: [FoodID]
        /// Every label of a food that printed more than one, with the same treatment as the foods.
        var labels: LabelVersions
    }

    /// `dataset` and `labels` are taken, not borrowed: every food is changed where it lies, which
    /// copies nothing only when no one else holds them (`HarvestOutcome.handOverFoods`).
    func run(_ dataset: consuming Dataset, labels: consuming LabelVersions, menus: MenuDigest) -> Output {
        let typedHours = addHoursFile(to: &dataset, menuDays: menus.mealsByDay.keys)
        labels.setFirstLabels(in: &dataset.foods)
        let unfilled = dataset.foods.values.filter(UnfilledLabel.isUnfilled).map(\.id).sorted()
        for id in unfilled {
            dataset.foods[id] = dataset.foods[id].map(UnfilledLabel.cleared)
        }
        labels.mapLabels { UnfilledLabel.isUnfilled($0) ? UnfilledLabel.cleared($0) : $0 }
        if let standard = spec.dailyValues {
            dataset.foods.updateEachValue { standard.apply(to: &$0) }
            labels.mapLabels(standard.apply)
        }
        let computed = dataset.foods.values.reduce(0) { total, food in
            total + food.nutrients.filter { $0.computedDailyValuePercent != nil }.count
        }
        let swipes = spec.swipes.map { $0.rows($0.balances(menus: menus.mealsByDay)) }
        return Output(dataset: dataset, swipes: swipes,
                      counts: ["dv_computed": computed, "swipe_balances": swipes?.balances.count ?? 0,
                               "unfilled_labels": unfilled.count, "hours_file_rows": typedHours],
                      unfilledLabels: unfilled, labels: labels)
    }

    /// The `hours:` file's rows for the run's days and its restaurants as places, under the
    /// places file's names; how many rows it added.
    private func addHoursFile(to dataset: inout Dataset, menuDays: some Sequence<ServiceDate>) -> Int {
        guard let file = spec.hours else { return 0 }
        let rename = { (name: String) in spec.places?.canonicalName(of: name) ?? name }
        let entries = file.entries(on: Array(days.union(menuDays)), renaming: rename,
                                   besides: dataset.hours)
        dataset.hours += entries
        dataset.places += file.places.map { place in
            var place = place
            place.name = rename(place.name)
            return place
        }
        return entries.count
    }
}
