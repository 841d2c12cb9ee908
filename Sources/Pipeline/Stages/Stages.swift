import FoodModel
import Foundation
import Nutrition
import Snapshot
import SourceAdapters

/// The stages of a run, in order. Names are what events, manifests and progress lines show.
public enum StageName: String, Hashable, Sendable, Codable, CaseIterable {
    /// Fetching again only what can change, to learn whether anything did.
    case revalidate
    /// Documents fetched (or replayed from the raw store) for the partitions.
    case fetch
    /// Documents turned into values by the adapters; days streamed into staging as they come.
    case parse
    /// %DV under the pipeline's standard, swipe-balance tables.
    case compute
    /// The staging database completed: foods, codes, recipes, swipes, label reviews.
    case write
    /// The gates a snapshot must pass.
    case check
    /// The staging database made a verified, read-only snapshot, and `latest` moved to it.
    case publish
}

/// How a run ended.
public enum RunStatus: String, Hashable, Sendable, Codable {
    case published
    /// A blocking check failed: the last good snapshot stays `latest`.
    case notPublished = "not_published"
    /// Every input was what the latest snapshot was built from: nothing to publish.
    case unchanged
    /// Stopped on request (a signal) before publishing; the next run resumes it.
    case interrupted
}

/// What became of one partition in a run.
public enum PartitionStatus: String, Hashable, Sendable, Codable {
    case fetched
    /// Replayed from the raw store (a resumed run, `--only-missing`).
    case reused
    case failed
    /// Revalidated: the same bytes as the latest snapshot's, so not parsed.
    case unchanged
    /// Revalidated: something it reads differs from what the ledger recorded.
    case changed
    /// The new fetch was refused or failed; the last good version was published instead.
    case stale
}

/// A stage's time and what it counted, as the manifest records it.
struct StageTimer {
    let name: StageName
    let started = Date()

    func finish(counts: [String: Int], extraSeconds: Double = 0) -> RunManifest.Stage {
        RunManifest.Stage(name: name, seconds: Date().timeIntervalSince(started) + extraSeconds, counts: counts)
    }
}

/// The compute stage: %DV under the pipeline's standard and the swipe-balance tables.
struct ComputeStage {
    let spec: PipelineSpec

    struct Output {
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

/// The write stage: everything but the days (which went in as partitions finished) into the
/// staging database, in one transaction, with the review of every label.
struct WriteStage {
    let spec: PipelineSpec

    struct Output {
        var rowCounts: [String: Int]
        /// The review of every label, and what writing found (ids a dump read more than once).
        var outcomes: [CheckOutcome]
    }

    func run(_ computed: ComputeStage.Output, menus: MenuDigest, into staging: StagingSnapshot) throws -> Output {
        let warnings = try staging.finish(computed.dataset, menus: menus, codes: spec.legend)
        if let swipes = computed.swipes { try staging.writeSwipes(plans: swipes.plans, balances: swipes.balances) }
        let nutrition = NutritionChecks().review(Array(computed.dataset.foods.values), standard: spec.dailyValues,
                                                 unfilled: computed.unfilledLabels)
        try staging.write(agreements: nutrition.agreements, flags: nutrition.flags)
        if let places = spec.places { try staging.write(places: places.places) }
        let changing = computed.labels.changing
        try staging.write(labelVersions: changing.flatMap { id, versions in
            versions.enumerated().map { index, version in
                LabelVersionRow(food: id, version: index + 1, label: version.food, firstDate: version.first,
                                lastDate: version.last, days: version.days)
            }
        })
        let written = warnings.map {
            CheckOutcome(name: "partition_warning", severity: .warning, passed: false, message: $0)
        }
        return Output(rowCounts: try staging.rowCounts(),
                      outcomes: nutrition.outcomes + [labelVersionsOutcome(computed.labels)].compactMap { $0 } + written)
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

/// The check stage: the gates, against the policy and the previous snapshot.
struct CheckStage {
    let spec: PipelineSpec
    let readsFoodPages: Bool

    func run(_ harvest: HarvestOutcome, dataset: Dataset, menus: MenuDigest, written: WriteStage.Output,
             previous: [String: Int]?) -> [CheckOutcome] {
        Checks(spec: spec, readsFoodPages: readsFoodPages).evaluate(
            dataset: dataset, menus: menus, counts: written.rowCounts, previous: previous,
            failedPartitions: harvest.failed, stale: harvest.stale, staleFoods: harvest.staleFoods,
            staleFoodsSnapshot: harvest.staleFoodsSnapshot, degraded: harvest.degraded, warnings: harvest.warnings)
            + written.outcomes
    }
}
