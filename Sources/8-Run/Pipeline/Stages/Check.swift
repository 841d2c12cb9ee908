import FoodModel
import Foundation
import Snapshot

/// The check stage: the review of every label (recorded in staging: a food's flags are data),
/// then the gates, against the policy and the latest snapshot, each told as an event. Every
/// check of a run's whole output is made here; a partition is judged as it finishes, since a
/// refused one is replaced by its last good version (`PartitionJudge`).
struct Check {
    let context: StageContext
    let readsFoodPages: Bool

    struct Output: StageOutput {
        var outcomes: [CheckOutcome]
        /// The snapshot's row counts, with the review's rows.
        var rowCounts: [String: Int]
        /// Whether the nutrition review's rows are the continued snapshot's, kept as they were;
        /// nil for a night that continues no snapshot.
        var reviewKept: Bool?
        /// The outcomes that stop the publication.
        var blocking: [CheckOutcome] { outcomes.filter(\.blocksPublishing) }
        var counts: [String: Int] {
            var counts = ["checks": outcomes.count, "blocking": blocking.count]
            if let reviewKept { counts["review_tables_kept"] = reviewKept ? 1 : 0 }
            return counts
        }
    }

    func run(_ harvest: HarvestOutcome, computed: Compute.Output, menus: MenuDigest, written: Write.Output,
             latest: LatestSnapshot?, staging: StagingSnapshot) throws -> Output {
        let reviewed = try review(computed, menus: menus, staging: staging)
        let counted = written.rowCounts.merging(try staging.rowCounts(of: StagingSnapshot.reviewTables.sorted())) { _, new in new }
        let manifest = context.options.workspace.unpublishedManifest(pipeline: context.spec.name, runId: context.runId)
        let checks = Checks(spec: context.spec, readsFoodPages: readsFoodPages, unpublishedManifest: manifest.path,
                            today: context.options.today)
        let outcomes = checks.evaluate(
            dataset: computed.dataset, menus: menus, counts: written.rowCounts, previous: rowCounts(of: latest),
            failedPartitions: harvest.failed, stale: harvest.stale, staleFoods: harvest.staleFoods,
            staleFoodsSnapshot: harvest.staleFoodsSnapshot, degraded: harvest.degraded, warnings: harvest.warnings)
            + reviewed + written.outcomes
        for check in outcomes {
            context.emit(.check, stage: .check, status: check.passed ? "passed" : "failed", check: check)
        }
        return Output(outcomes: outcomes, rowCounts: counted,
                      reviewKept: staging.continuesPrevious ? staging.reviewTablesKept : nil)
    }

    /// The review's outcomes, its rows recorded in staging: the latest snapshot's when the foods
    /// and everything else it is made from are last night's (`FoodInputs`), else made anew.
    private func review(_ computed: Compute.Output, menus: MenuDigest, staging: StagingSnapshot) throws -> [CheckOutcome] {
        if let kept = try staging.keepReview(outcomeNames: NutritionChecks.outcomeNames) { return kept }
        let review = NutritionChecks().review(Array(computed.dataset.foods.values), standard: context.spec.dailyValues,
                                              unfilled: computed.unfilledLabels,
                                              portions: menus.foods.mapValues(\.portions))
        try staging.write(agreements: review.agreements, flags: review.flags)
        return review.outcomes
    }

    /// The latest snapshot's row counts, to compare against; a latest snapshot that cannot be
    /// read (damaged, emptied) is reported and compared with nothing, so that it cannot stop
    /// the publication that replaces it.
    private func rowCounts(of latest: LatestSnapshot?) -> [String: Int]? {
        guard let latest else { return nil }
        do {
            return try latest.rowCounts()
        } catch {
            context.emit(.warning, stage: .check, message: "the latest snapshot cannot be read, so nothing is compared "
                         + "with it: \(error)", path: latest.url.path)
            return nil
        }
    }
}
