import FoodModel
import Snapshot
import SourceAdapters

/// The check stage: data-quality gates. An `error` outcome that fails blocks publishing and
/// the last good snapshot stays `latest`; a `warning` is recorded in `_checks` and the summary.
struct Checks {
    let spec: PipelineSpec
    /// Whether any source of the run reads a page per food, so that a food without one is reported.
    let readsFoodPages: Bool

    private var policy: CheckPolicy { spec.checks }

    func evaluate(dataset: Dataset, menus: MenuDigest, counts: [String: Int], previous: [String: Int]?,
                  failedPartitions: [String], stale: [StalePartition], staleFoods: [StalePartition],
                  staleFoodsSnapshot: String, warnings: [String]) -> [CheckOutcome] {
        var outcomes: [CheckOutcome] = []
        outcomes.append(partitionsComplete(failedPartitions))
        for partition in stale {
            outcomes.append(CheckOutcome(name: "stale_partition", severity: .stale, passed: false,
                                         message: partition.line))
        }
        for line in LastGoodFoods.summaries(staleFoods, snapshot: staleFoodsSnapshot) {
            outcomes.append(CheckOutcome(name: "stale_labels", severity: .stale, passed: false, message: line))
        }

        let items = counts["menu_item"] ?? 0
        let recipes = counts["recipe"] ?? 0
        outcomes.append(CheckOutcome(
            name: "min_menu_items", severity: .error, passed: items >= policy.minMenuItems,
            value: Double(items), message: "\(items) menu items (at least \(policy.minMenuItems) required)"))
        outcomes.append(CheckOutcome(
            name: "min_recipes", severity: .error, passed: recipes >= policy.minRecipes,
            value: Double(recipes), message: "\(recipes) recipes (at least \(policy.minRecipes) required)"))

        if let previous {
            for table in ["menu_item", "food_nutrient", "recipe"] {
                let before = previous[table] ?? 0
                let now = counts[table] ?? 0
                guard before > 0 else { continue }
                let floor = Double(before) * (1 - policy.maxDropFromPrevious)
                outcomes.append(CheckOutcome(
                    name: "no_drop_\(table)", severity: .error, passed: Double(now) >= floor,
                    value: Double(now) / Double(before),
                    message: "\(now) \(table) rows against \(before) in the previous snapshot"
                        + " (a fall past \(Int(policy.maxDropFromPrevious * 100))% blocks publishing)"))
            }
        }

        for (date, present) in menus.restaurantsByDay.sorted(by: { $0.key < $1.key })
        where !policy.requiredRestaurants.isEmpty {
            let missing = policy.requiredRestaurants.filter { !present.contains($0) }
            outcomes.append(CheckOutcome(
                name: "required_restaurants", severity: .error, passed: missing.isEmpty,
                value: Double(missing.count),
                message: missing.isEmpty ? "\(date): every required restaurant has a menu"
                    : "\(date): no menu for \(missing.joined(separator: ", "))"))
        }

        outcomes.append(contentsOf: unknownCodes(dataset, menus: menus))

        let withoutPage = menus.foodsWithoutPage(in: dataset).count
        if readsFoodPages {
            outcomes.append(CheckOutcome(
                name: "foods_have_pages", severity: .warning, passed: withoutPage == 0,
                value: Double(withoutPage),
                message: withoutPage == 0 ? "every food on the menus has its page"
                    : "\(withoutPage) food(s) on the menus have no page read"))
        }
        for warning in warnings {
            outcomes.append(CheckOutcome(name: "partition_warning", severity: .warning, passed: false,
                                         message: warning))
        }
        return outcomes
    }

    /// Failed partitions block publishing beyond `max_failed_partitions`; within it the run
    /// publishes what the other partitions produced and says which ones it went without, as a
    /// warning, so that one day's broken page does not cost the other days their menus. The
    /// count and size checks still guard what is published.
    private func partitionsComplete(_ failed: [String]) -> CheckOutcome {
        let allowed = policy.maxFailedPartitions
        let list = failed.joined(separator: "; ")
        if failed.isEmpty {
            return CheckOutcome(name: "partitions_complete", severity: .error, passed: true, value: 0,
                                message: "every partition was fetched and parsed")
        }
        if failed.count <= allowed {
            return CheckOutcome(
                name: "partitions_complete", severity: .warning, passed: false, value: Double(failed.count),
                message: "\(failed.count) partition(s) failed, within checks.max_failed_partitions (\(allowed)); "
                    + "published without them: \(list)")
        }
        return CheckOutcome(
            name: "partitions_complete", severity: .error, passed: false, value: Double(failed.count),
            message: "\(failed.count) partition(s) failed, more than checks.max_failed_partitions (\(allowed)) "
                + "allows: \(list)")
    }

    /// Codes that no legend of the run's sources knows are kept raw; each one is reported once
    /// with where it was seen, so that a new code on the site is noticed the night it appears.
    private func unknownCodes(_ dataset: Dataset, menus: MenuDigest) -> [CheckOutcome] {
        let known = Set(spec.legend.map(\.code))
        var seen: [String: (count: Int, example: String)] = [:]
        for (code, sighting) in menus.codes where !known.contains(code) {
            seen[code] = (sighting.count, sighting.example)
        }
        for food in dataset.foods.values.sorted(by: { $0.id < $1.id }) {
            for code in food.codes where !known.contains(code) && seen[code] == nil {
                seen[code] = (1, "\(food.name) (\(food.id)) page")
            }
        }
        return seen.sorted { $0.key < $1.key }.map { code, info in
            CheckOutcome(name: "unknown_code", severity: .warning, passed: false, value: Double(info.count),
                         message: "unknown web code \"\(code)\" kept raw, seen \(info.count) time(s), first on \(info.example)")
        }
    }
}
