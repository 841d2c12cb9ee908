import FoodModel

/// What one partition produced, counted the way validation compares a new fetch with the last
/// good one. Kept in the ledger beside the last good version's documents.
///
/// Food pages are not counted here: a run reads each page once, for whichever day claims it
/// first, so a day's share of labels says more about the claims than about the site. Labels are
/// judged food by food instead (`LastGoodFoods`).
public struct PartitionSummary: Hashable, Sendable, Codable {
    public var menuItems = 0
    /// Menu items per meal name, across the partition's days and restaurants.
    public var itemsByMeal: [String: Int] = [:]
    /// Menu items that carry at least one dietary or allergen code.
    public var itemsWithCodes = 0
    public var recipes = 0

    public init() {}

    public init(_ dataset: Dataset) {
        for day in dataset.serviceDays {
            for meal in day.meals {
                var count = 0
                for restaurant in meal.restaurants {
                    for section in restaurant.sections {
                        count += section.foods.count
                        itemsWithCodes += section.foods.reduce(0) { $0 + ($1.codes.isEmpty ? 0 : 1) }
                    }
                }
                itemsByMeal[meal.name, default: 0] += count
                menuItems += count
            }
        }
        recipes = dataset.recipes.count + dataset.recipeSpools.reduce(0) { $0 + $1.count }
    }

    /// Several partitions' counts added up: a source's usual share of items with codes, for a
    /// day fetched the first time, which has no earlier version of its own to be compared with.
    static func total(_ summaries: [PartitionSummary]) -> PartitionSummary {
        var total = PartitionSummary()
        for summary in summaries {
            total.menuItems += summary.menuItems
            total.itemsWithCodes += summary.itemsWithCodes
            total.recipes += summary.recipes
        }
        return total
    }

    /// The share of items with codes, over `PartitionJudge.smallestSample` items at least.
    var codeShare: Double? {
        menuItems >= PartitionJudge.smallestSample ? Double(itemsWithCodes) / Double(menuItems) : nil
    }
}

/// Judges one partition's new fetch on its own: against absolute floors, against the same
/// partition's last good version, and, for the share of items with codes, against the source's
/// usual figure when the partition has no good version yet. What it finds is why the fetch is
/// refused.
struct PartitionJudge {
    /// Fewest cases a share is compared over.
    static let smallestSample = 5

    let policy: CheckPolicy

    func problems(_ summary: PartitionSummary, lastGood: PartitionSummary?, usual: PartitionSummary?) -> [String] {
        var problems: [String] = []
        for (meal, count) in summary.itemsByMeal.sorted(by: { $0.key < $1.key }) where count < policy.minItemsPerMeal {
            problems.append("\(meal) has \(count) menu item(s) (a served meal needs at least \(policy.minItemsPerMeal))")
        }
        if let lastGood {
            problems += fall("menu items", from: lastGood.menuItems, to: summary.menuItems)
            for (meal, before) in lastGood.itemsByMeal.sorted(by: { $0.key < $1.key }) {
                guard let now = summary.itemsByMeal[meal] else { continue }
                problems += fall("\(meal) menu items", from: before, to: now)
            }
            problems += fall("recipes", from: lastGood.recipes, to: summary.recipes)
        }
        // Against the partition's last good fetch when that had enough items, else the source's
        // usual share (counts are not compared across days: a Sunday is smaller than a Monday).
        let reference = [(lastGood, "the last good fetch's"), (usual, "the source's usual")]
            .first { $0.0?.codeShare != nil }
        if let (reference, basis) = reference, let before = reference?.codeShare, let now = summary.codeShare,
           before > 0, now < before * (1 - policy.maxDayDrop) {
            problems.append("share of menu items with codes \(Self.percent(now)) against \(basis) \(Self.percent(before))")
        }
        return problems
    }

    private func fall(_ what: String, from before: Int, to now: Int) -> [String] {
        guard before > 0, Double(now) < Double(before) * (1 - policy.maxDayDrop) else { return [] }
        return ["\(now) \(what) against \(before) in the last good fetch"]
    }

    /// Formatted rather than converted to Int, which traps on a share the ledger holds damaged.
    private static func percent(_ value: Double) -> String { String(format: "%.0f%%", value * 100) }
}

/// A partition's new fetch that validation refused, with no last good version to publish
/// instead: it fails as a partition whose page could not be read.
struct PartitionRefused: Error, CustomStringConvertible {
    var problems: [String]
    var description: String { "refused: " + problems.joined(separator: "; ") }
}

/// A partition whose new fetch was refused or failed, and whose last good version could not be
/// read back from the raw store either.
struct StaleReplayFailed: Error, CustomStringConvertible {
    var refusal: String
    var replay: String
    var description: String { "\(refusal); its last good version could not be replayed either (\(replay))" }
}
