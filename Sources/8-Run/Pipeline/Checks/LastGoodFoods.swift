import FoodModel
import Foundation
import Nutrition
import Snapshot

/// A food's label belongs to the food, not to a day: one page serves every day the dish is on,
/// and the run reads it once, for whichever day claims it first. So labels are kept at the
/// food's level: a food on tonight's menus whose page could not be read, whose label lost most
/// of its rows, or whose label prints only zeros where the published one had amounts (unless
/// `checks.degraded_day` lets zeroed labels through), keeps the label the latest snapshot
/// published, marked stale. A food that never had a label has nothing to keep.
struct LastGoodFoods {
    let policy: CheckPolicy

    /// Replaces, in `dataset`, the labels that got worse tonight with the latest snapshot's, and
    /// says which. Reads only the foods concerned from the snapshot.
    func carry(into dataset: inout Dataset, menus: MenuDigest, latest: LatestSnapshot) throws -> [StalePartition] {
        try latest.readLabels { published in
            // Rows fewer than the fall allows, against the snapshot's usual label.
            let typical = try published.typicalRowCount()
            let reasons = reasons(in: dataset, menus: menus, thin: typical * (1 - policy.maxDayDrop), typical: typical)
            guard !reasons.isEmpty else { return [] }
            let kept = try published.foods(reasons.keys.sorted())
            let meta = try published.meta()
            var stale: [StalePartition] = []
            for (id, food) in kept.sorted(by: { $0.key < $1.key }) {
                // A label as thin as tonight's, or as empty of amounts, was not lost tonight.
                if let tonight = dataset.foods[id],
                   tonight.nutrients.count >= food.nutrients.count,
                   !UnfilledLabel.isUnfilled(tonight) || UnfilledLabel.isUnfilled(food) { continue }
                dataset.foods[id] = food
                stale.append(StalePartition(source: id.source, partition: Self.partition(of: id),
                                            keptFetchedAt: meta["built_at"] ?? "", keptRunId: meta["run_id"] ?? "",
                                            reason: reasons[id] ?? ""))
            }
            return stale
        }
    }

    /// Why each food of tonight's menus whose label got worse might keep the published one.
    private func reasons(in dataset: Dataset, menus: MenuDigest, thin: Double, typical: Double) -> [FoodID: String] {
        var reasons: [FoodID: String] = [:]
        for id in menus.foodOrder {
            let rows = dataset.foods[id]?.nutrients.count ?? 0
            if dataset.foods[id] == nil {
                reasons[id] = "its page was not read tonight"
            } else if Double(rows) < thin {
                reasons[id] = "tonight's label has \(rows) row(s) where labels usually have \(String(format: "%.1f", typical))"
            } else if policy.degradedDay.zeroedLabels == .refuse, let food = dataset.foods[id],
                      UnfilledLabel.isUnfilled(food) {
                reasons[id] = "tonight's label prints only zeros"
            }
        }
        return reasons
    }

    /// How a food's row in `_stale` is named, apart from partition keys.
    static func partition(of food: FoodID) -> String { partitionPrefix + food.description }
    static let partitionPrefix = "food "

    /// One line per source for the foods kept: a site whose pages all fail tonight has hundreds.
    static func summaries(_ foods: [StalePartition], snapshot: String) -> [String] {
        Dictionary(grouping: foods, by: \.source).sorted { $0.key < $1.key }.map { source, kept in
            let names = kept.prefix(5).map { String($0.partition.dropFirst(partitionPrefix.count)) }
                .joined(separator: ", ")
            let more = kept.count > 5 ? " and \(kept.count - 5) more" : ""
            return "\(source): \(kept.count) food label(s) kept as published in \(snapshot), because tonight's page "
                + "was not read, lost most of its rows or printed only zeros: \(names)\(more)"
        }
    }
}
