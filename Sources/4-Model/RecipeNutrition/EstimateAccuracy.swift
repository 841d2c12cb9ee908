import FoodModel

/// How well estimates agree with labels a kitchen printed from the same recipes (UCLA's
/// documents carry both the weighed rows and the label per 100 g): the share of recipes whose
/// weight is nearly all matched, and on those the absolute relative error of each nutrient.
public struct EstimateAccuracy: Sendable {
    /// A recipe counts as covered when at least this share of its weighed rows is matched.
    public static let coveredShare = 0.9
    /// The nutrients compared, as the issue names them.
    public static let compared: [NutrientKey] = [.calories, .protein, .totalFat, .totalCarbohydrate, .sodium]

    public struct NutrientError: Sendable, Hashable {
        public let key: NutrientKey
        /// Recipes compared: covered, with the nutrient printed above 0.
        public let count: Int
        public let median: Double
        public let p90: Double
    }

    /// An ingredient name that weighs in the recipes short of `coveredShare`: how many of them
    /// name it and the grams of its lines that count for nothing there.
    public struct Shortfall: Sendable, Hashable {
        public let name: String
        public let recipes: Int
        public let grams: Double
    }

    public let recipes: Int
    /// Recipes with weighed rows, whatever was matched.
    public let estimated: Int
    public let covered: Int
    public let errors: [NutrientError]
    /// The names that keep recipes under `coveredShare`, the most frequent first: where a synonym, an
    /// override or a sub-recipe's document would raise the coverage.
    public let shortfalls: [Shortfall]

    public var coveredShare: Double { recipes > 0 ? Double(covered) / Double(recipes) : 0 }

    /// Compares each food's estimate with its printed label per 100 g.
    public init(foods: [FoodID: Food], estimator: RecipeEstimator) {
        var estimated = 0
        var covered = 0
        var relative: [NutrientKey: [Double]] = [:]
        var short: [String: (recipes: Int, grams: Double)] = [:]
        for food in foods.values {
            guard let estimate = estimator.estimate(food, among: foods) else { continue }
            estimated += 1
            guard estimate.reason == nil, estimate.matchedShare >= Self.coveredShare else {
                for line in estimate.lines where !line.counts {
                    guard let grams = line.grams else { continue }
                    short[line.name, default: (0, 0)].recipes += 1
                    short[line.name, default: (0, 0)].grams += grams
                }
                continue
            }
            covered += 1
            guard food.labelBasis == .hundredGrams else { continue }
            for key in Self.compared {
                guard let printed = food.nutrients.first(where: { $0.key == key })?.amount, printed > 0,
                      let estimatedAmount = estimate.amountPer100g(key) else { continue }
                relative[key, default: []].append(abs(estimatedAmount - printed) / printed)
            }
        }
        recipes = foods.count
        shortfalls = short.map { Shortfall(name: $0.key, recipes: $0.value.recipes, grams: $0.value.grams) }
            .sorted { ($0.recipes, $0.grams, $1.name) > ($1.recipes, $1.grams, $0.name) }
        self.estimated = estimated
        self.covered = covered
        errors = Self.compared.compactMap { key in
            guard let values = relative[key]?.sorted(), !values.isEmpty else { return nil }
            return NutrientError(key: key, count: values.count, median: Self.quantile(values, 0.5),
                                 p90: Self.quantile(values, 0.9))
        }
    }

    /// The `q` quantile of sorted values, interpolated between the two nearest ranks.
    static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }
}
