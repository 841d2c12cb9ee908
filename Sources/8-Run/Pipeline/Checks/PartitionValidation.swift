import Basics
import FoodModel
import Nutrition
import Snapshot
import SourceAdapters

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
    /// The meals each restaurant serves, across the partition's days, sorted.
    public var mealsByRestaurant: [String: [String]] = [:]
    /// Menu items the adapter placed under a section name it made up, the source naming none.
    public var itemsInUnnamedSections = 0
    /// Menu items whose name is only their food's id: the source printed no name for them.
    public var itemsNamedByID = 0
    /// Labels the partition read (foods with a label), and those of them that print only zeros.
    public var labels = 0
    public var zeroedLabels = 0

    public init() {}

    public init(_ result: PartitionResult) {
        let dataset = result.dataset
        for day in dataset.serviceDays {
            for meal in day.meals {
                var count = 0
                for restaurant in meal.restaurants {
                    var served = false
                    for section in restaurant.sections {
                        count += section.foods.count
                        served = served || !section.foods.isEmpty
                        for item in section.foods {
                            if !item.codes.isEmpty { itemsWithCodes += 1 }
                            if item.name == item.recipeId { itemsNamedByID += 1 }
                        }
                    }
                    if served, !(mealsByRestaurant[restaurant.name]?.contains(meal.name) ?? false) {
                        mealsByRestaurant[restaurant.name, default: []].append(meal.name)
                    }
                }
                itemsByMeal[meal.name, default: 0] += count
                menuItems += count
            }
        }
        mealsByRestaurant = mealsByRestaurant.mapValues { $0.sorted() }
        recipes = dataset.recipes.count + dataset.recipeSpools.reduce(0) { $0 + $1.count }
        itemsInUnnamedSections = result.counts[PartitionResult.itemsInUnnamedSections] ?? 0
        var labelled: [FoodID: Food] = dataset.foods.filter { $0.value.labelBasis != nil || !$0.value.nutrients.isEmpty }
        for food in result.labels ?? [] where labelled[food.id] == nil { labelled[food.id] = food }
        labels = labelled.count
        zeroedLabels = labelled.values.filter(UnfilledLabel.isUnfilled).count
    }

    /// Summaries kept in the ledger before a figure was counted read it as 0 (or none).
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        menuItems = try values.decode(Int.self, forKey: .menuItems)
        itemsByMeal = try values.decode([String: Int].self, forKey: .itemsByMeal)
        itemsWithCodes = try values.decode(Int.self, forKey: .itemsWithCodes)
        recipes = try values.decode(Int.self, forKey: .recipes)
        mealsByRestaurant = try values.decodeIfPresent([String: [String]].self, forKey: .mealsByRestaurant) ?? [:]
        itemsInUnnamedSections = try values.decodeIfPresent(Int.self, forKey: .itemsInUnnamedSections) ?? 0
        itemsNamedByID = try values.decodeIfPresent(Int.self, forKey: .itemsNamedByID) ?? 0
        labels = try values.decodeIfPresent(Int.self, forKey: .labels) ?? 0
        zeroedLabels = try values.decodeIfPresent(Int.self, forKey: .zeroedLabels) ?? 0
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
        // More than the snapshot's ids can number: no real day comes near (a large hall prints
        // five meals and a few hundred items), so the day is damaged, not large.
        if summary.itemsByMeal.count > MenuIdLimits.mealsPerDay {
            problems.append("\(summary.itemsByMeal.count) meals in a day, more than the \(MenuIdLimits.mealsPerDay) a day may have")
        }
        for (meal, count) in summary.itemsByMeal.sorted(by: { $0.key < $1.key }) where count > MenuIdLimits.itemsPerMeal {
            problems.append("\(meal) has \(count) menu item(s), more than the \(MenuIdLimits.itemsPerMeal) a meal may have")
        }
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

    /// The largest share of a partition's items a source may leave without their section's or
    /// their own name before the day is judged degraded: real days name every station and row,
    /// and a renamed key unnames all of them.
    static let largestPlaceholderShare = 0.1
    /// The largest share of a partition's labels that may print only zeros: real days have a
    /// few such labels nobody filled in (at most 8% of a day's foods in UCLA's 2016 dataset).
    static let largestZeroedLabelShare = 0.5
    /// Fewest labels that share is judged over. A day reads only the foods no earlier day of the
    /// run claimed, often a handful, and four unfilled labels of seven are chance, not a site
    /// that zeroed its labels; a food whose published label turns to zeros is caught one by
    /// one instead (`LastGoodFoods`).
    static let smallestLabelSample = 20

    /// Signs that the source's structure changed under the reader, the ones `checks.degraded_day`
    /// refuses apart from the ones it only warns of.
    func degradation(_ summary: PartitionSummary, lastGood: PartitionSummary?)
        -> (refusals: [String], warnings: [String]) {
        let policy = policy.degradedDay
        var signs: [(DegradedDayPolicy.Response, String)] = []
        if summary.menuItems >= Self.smallestSample {
            let largest = Double(summary.menuItems) * Self.largestPlaceholderShare
            if Double(summary.itemsInUnnamedSections) > largest {
                signs.append((policy.placeholderNames, "\(summary.itemsInUnnamedSections) of \(summary.menuItems) menu "
                              + "item(s) are in sections the source did not name (placeholder_names)"))
            }
            if Double(summary.itemsNamedByID) > largest {
                signs.append((policy.placeholderNames, "\(summary.itemsNamedByID) of \(summary.menuItems) menu item(s) "
                              + "are named only by their id (placeholder_names)"))
            }
        }
        if let lastGood {
            var missing: [String: [String]] = [:]
            for (restaurant, meals) in lastGood.mealsByRestaurant.sorted(by: { $0.key < $1.key }) {
                guard let now = summary.mealsByRestaurant[restaurant] else { continue }
                for meal in meals where !now.contains(meal) { missing[meal, default: []].append(restaurant) }
            }
            for (meal, restaurants) in missing.sorted(by: { $0.key < $1.key }) {
                signs.append((policy.missingMeals, "\(meal) is gone from \(restaurants.joined(separator: ", ")), "
                              + "which served it in the last good fetch (missing_meals)"))
            }
        }
        if summary.labels >= Self.smallestLabelSample,
           Double(summary.zeroedLabels) > Double(summary.labels) * Self.largestZeroedLabelShare {
            signs.append((policy.zeroedLabels, "\(summary.zeroedLabels) of \(summary.labels) label(s) read print only "
                          + "zeros (zeroed_labels)"))
        }
        return (signs.filter { $0.0 == .refuse }.map(\.1), signs.filter { $0.0 == .warn }.map(\.1))
    }

    private func fall(_ what: String, from before: Int, to now: Int) -> [String] {
        guard before > 0, Double(now) < Double(before) * (1 - policy.maxDayDrop) else { return [] }
        return ["\(now) \(what) against \(before) in the last good fetch"]
    }

    /// Formatted rather than converted to Int, which traps on a share the ledger holds damaged.
    private static func percent(_ value: Double) -> String { String(format: "%.0f%%", value * 100) }
}

extension Failure {
    /// A partition's new fetch that validation refused, with no last good version to publish
    /// instead: it fails as a partition whose page could not be read.
    static func partitionRefused(_ problems: [String]) -> Failure {
        Failure(.refusedPartition, "refused: " + problems.joined(separator: "; "))
    }

    /// A partition whose new fetch was refused or failed, and whose last good version could not
    /// be read back from the raw store either.
    static func staleReplayFailed(refusal: String, replay: any Error) -> Failure {
        Failure(.refusedPartition, "\(refusal); its last good version could not be replayed either (\(replay))",
                cause: replay)
    }
}
