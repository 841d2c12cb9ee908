import FoodModel
import Foundation
import Snapshot

/// The write stage: everything but the days (which went in as partitions finished) into the
/// staging database. The review of every label is the check stage's, which records it.
struct Write {
    let spec: PipelineSpec

    struct Output: StageOutput {
        var rowCounts: [String: Int]
        /// The row counts, and the days (and whether the food tables) were kept from the latest
        /// snapshot when it was continued.
        var counts: [String: Int]
        /// What writing found (ids a dump read more than once, label versions, estimates skipped).
        var outcomes: [CheckOutcome]
    }

    func run(_ computed: Compute.Output, menus: MenuDigest, into staging: StagingSnapshot) throws -> Output {
        let foodInputs = FoodInputs.digest(foods: computed.dataset.foods, menus: menus, legend: spec.legend,
                                           standard: spec.dailyValues, unfilled: computed.unfilledLabels)
        let warnings = try staging.finish(computed.dataset, menus: menus, codes: spec.legend, foodInputs: foodInputs)
        if let swipes = computed.swipes { try staging.writeSwipes(plans: swipes.plans, balances: swipes.balances) }
        // The places file first: what someone checked by hand wins over a platform's answer.
        try staging.write(places: Place.merged((spec.places?.places ?? []) + computed.dataset.places))
        if let estimator = spec.estimator {
            try Estimates.write(computed.dataset, estimator: estimator.estimator(), into: staging)
        }
        let changing = computed.labels.changing
        try staging.write(labelVersions: changing.flatMap { id, versions in
            versions.enumerated().map { index, version in
                LabelVersionRow(food: id, version: index + 1, label: version.food, firstDate: version.first,
                                lastDate: version.last, days: version.days)
            }
        })
        let written = warnings.map {
            CheckOutcome(name: "partition_warning", severity: .warning, passed: false, message: $0)
        } + [spec.estimatesSkipped].compactMap { $0 }.map {
            CheckOutcome(name: "nutrition_estimates", severity: .warning, passed: false, message: $0)
        }
        let rowCounts = try staging.rowCounts()
        let kept = staging.continuesPrevious
            ? ["days_kept": staging.keptDays, "food_tables_kept": staging.foodTablesKept ? 1 : 0,
               "food_inputs_kept": staging.foodInputsKept ? 1 : 0] : [:]
        return Output(rowCounts: rowCounts, counts: rowCounts.merging(kept) { table, _ in table },
                      outcomes: [labelVersionsOutcome(computed.labels)].compactMap { $0 } + written)
    }

    /// How many foods printed more than one label, and how many items were served with a later
    /// one: a label that changed is kept, not hidden, and the run says how much of it there was.
    private func labelVersionsOutcome(_ labels: LabelVersions) -> CheckOutcome? {
        let changing = labels.changing
        guard let first = changing.first else { return nil }
        let versions = changing.reduce(0) { $0 + $1.versions.count }
        return CheckOutcome(
            name: "label_versions", severity: .warning, passed: true, value: Double(labels.itemsOnLaterVersions),
            message: "\(changing.count) food(s) printed more than one label (\(versions) versions kept); "
                + "\(labels.itemsOnLaterVersions) menu item(s) were served with a label other than their food's first "
                + "(first: \(first.id), \(first.versions.count) versions)")
    }
}
