import Basics
import FoodModel
import Snapshot
import SourceAdapters

/// The check stage: data-quality gates. An `error` outcome that fails blocks publishing and
/// the last good snapshot stays `latest`; a `warning` is recorded in `_checks` and the summary.
struct Checks {
    let spec: PipelineSpec
    /// Whether any source of the run reads a page per food, so that a food without one is reported.
    let readsFoodPages: Bool
    /// Where the run's manifest goes if a check blocks the publication: a long list of failed
    /// partitions names the first few and points there for the rest.
    var unpublishedManifest = "state/runs/"
    /// The run's today, from which the term calendars' end is counted.
    var today = ServiceDate(daysSinceEpoch: 0)

    private var policy: CheckPolicy { spec.checks }

    func evaluate(dataset: Dataset, menus: MenuDigest, counts: [String: Int], previous: [String: Int]?,
                  failedPartitions: [String], stale: [StalePartition], staleFoods: [StalePartition],
                  staleFoodsSnapshot: String, degraded: [String], warnings: [String]) -> [CheckOutcome] {
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
        outcomes.append(minimum("min_menu_items", items, "menu items", policy.minMenuItems))
        outcomes.append(minimum("min_recipes", recipes, "recipes", policy.minRecipes))

        outcomes.append(contentsOf: drops(counts, previous: previous))
        outcomes.append(contentsOf: requiredRestaurants(menus))

        if let swipes = spec.swipes {
            outcomes.append(contentsOf: SwipeTermChecks(settings: swipes, today: today).outcomes(menuDays: menus.mealsByDay.keys))
        }
        outcomes.append(contentsOf: unknownCodes(dataset, menus: menus))
        outcomes.append(contentsOf: labelledShares(dataset, menus: menus))

        let withoutPage = menus.foodsWithoutPage(in: dataset).count
        if readsFoodPages {
            outcomes.append(CheckOutcome(
                name: "foods_have_pages", severity: .warning, passed: withoutPage == 0,
                value: Double(withoutPage),
                message: withoutPage == 0 ? "every food on the menus has its page"
                    : "\(withoutPage) food(s) on the menus have no page read"))
        }
        for sign in degraded {
            outcomes.append(CheckOutcome(name: "degraded_day", severity: .warning, passed: false, message: sign))
        }
        for warning in warnings {
            outcomes.append(CheckOutcome(name: "partition_warning", severity: .warning, passed: false,
                                         message: warning))
        }
        return outcomes
    }

    /// A count against the pipeline's minimum; with none set, the count and the key that would set one.
    private func minimum(_ name: String, _ count: Int, _ noun: String, _ required: Int?) -> CheckOutcome {
        CheckOutcome(name: name, severity: .error, passed: count >= (required ?? 0), value: Double(count),
                     message: "\(count) \(noun) ("
                        + (required.map { "at least \($0) required" } ?? "no minimum set: checks.\(name)") + ")")
    }

    /// No table of the guarded ones may fall past `max_drop_from_previous` against the latest snapshot.
    private func drops(_ counts: [String: Int], previous: [String: Int]?) -> [CheckOutcome] {
        guard let previous else { return [] }
        return ["menu_item", "food_nutrient", "recipe"].compactMap { table in
            let before = previous[table] ?? 0
            let now = counts[table] ?? 0
            guard before > 0 else { return nil }
            let floor = Double(before) * (1 - policy.maxDropFromPrevious)
            return CheckOutcome(
                name: "no_drop_\(table)", severity: .error, passed: Double(now) >= floor,
                value: Double(now) / Double(before),
                message: "\(now) \(table) rows against \(before) in the previous snapshot"
                    + " (a fall past \(Int(policy.maxDropFromPrevious * 100))% blocks publishing)")
        }
    }

    /// Each day, every hall `required_restaurants` names has a menu.
    private func requiredRestaurants(_ menus: MenuDigest) -> [CheckOutcome] {
        guard !policy.requiredRestaurants.isEmpty else { return [] }
        return menus.restaurantsByDay.sorted(by: { $0.key < $1.key }).map { date, present in
            let missing = policy.requiredRestaurants.filter { !present.contains($0) }
            return CheckOutcome(
                name: "required_restaurants", severity: .error, passed: missing.isEmpty,
                value: Double(missing.count),
                message: missing.isEmpty ? "\(date): every required restaurant has a menu"
                    : "\(date): no menu for \(missing.joined(separator: ", "))")
        }
    }

    /// Failed partitions block publishing beyond `max_failed_partitions`; within it the run
    /// publishes what the other partitions produced and says which ones it went without, as a
    /// warning, so that one day's broken page does not cost the other days their menus. The
    /// count and size checks still guard what is published.
    private func partitionsComplete(_ failed: [String]) -> CheckOutcome {
        let allowed = policy.maxFailedPartitions
        let manifest = failed.count <= allowed ? "beside the snapshot" : unpublishedManifest
        let list = abridged(failed, separator: "; ", rest: { "and \($0) more: see the manifest \(manifest)" })
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

    /// Per source, the share of its menu items whose food carries a label, day by day: a night
    /// whose food documents all failed must not publish menus whose foods silently have no
    /// nutrition. Always reported (the lowest day named); `min_labelled_share` makes a day
    /// below it a warning or a blocking error.
    private func labelledShares(_ dataset: Dataset, menus: MenuDigest) -> [CheckOutcome] {
        let labelled = menus.foodOrder.map { dataset.foods[$0].map(LabelledShare.carriesLabel) ?? false }
        var shares: [String: [(date: ServiceDate, labelled: Int, items: Int)]] = [:]
        for (date, sources) in menus.servings {
            for (source, foods) in sources {
                let items = foods.reduce(0) { $0 + Int($1.items) }
                let withLabel = foods.reduce(0) { $0 + (labelled[Int($1.food)] ? Int($1.items) : 0) }
                shares[source, default: []].append((date, withLabel, items))
            }
        }
        return shares.sorted { $0.key < $1.key }.map { source, days in
            let days = days.sorted { $0.date < $1.date }
            let share = LabelledShare(source: source, days: days)
            return share.outcome(under: policy.minLabelledShare)
        }
    }
}

/// One source's labelled menu items over the run's days.
struct LabelledShare {
    var source: String
    var days: [(date: ServiceDate, labelled: Int, items: Int)]

    /// A food carries a label when any nutrient states something: an amount, a bound or a %DV.
    static func carriesLabel(_ food: Food) -> Bool {
        food.nutrients.contains {
            $0.amount != nil || $0.amountBelow != nil || $0.amountAtLeast != nil || $0.printedDailyValuePercent != nil
        }
    }

    private static func share(_ day: (date: ServiceDate, labelled: Int, items: Int)) -> Double {
        day.items == 0 ? 1 : Double(day.labelled) / Double(day.items)
    }

    private static func percent(_ share: Double) -> String {
        String(format: "%.1f%%", share * 100)
    }

    func outcome(under limits: LabelledShareLimits?) -> CheckOutcome {
        let labelled = days.reduce(0) { $0 + $1.labelled }
        let items = days.reduce(0) { $0 + $1.items }
        let overall = items == 0 ? 1 : Double(labelled) / Double(items)
        var message = "\(source): \(labelled) of \(items) menu item(s) carry a label (\(Self.percent(overall))), "
            + "\(items - labelled) without"
        if days.count > 1, let lowest = days.min(by: { Self.share($0) < Self.share($1) }) {
            message += "; lowest day \(lowest.date) (\(Self.percent(Self.share(lowest))))"
        }
        func below(_ limit: Double?) -> [String] {
            guard let limit else { return [] }
            return days.filter { Self.share($0) < limit }.map { "\($0.date) \(Self.percent(Self.share($0)))" }
        }
        let blocking = below(limits?.block)
        let warning = below(limits?.warn)
        let (severity, failing, limit): (CheckOutcome.Severity, [String], Double?) =
            !blocking.isEmpty ? (.error, blocking, limits?.block)
            : !warning.isEmpty ? (.warning, warning, limits?.warn)
            : (limits == nil ? .info : .warning, [], nil)
        if let limit {
            message += "; below checks.min_labelled_share (\(Self.percent(limit))) on \(abridged(failing))"
        }
        return CheckOutcome(name: "labelled_share", severity: severity, passed: failing.isEmpty, value: overall,
                            message: message, source: source)
    }
}
