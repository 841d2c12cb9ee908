import FoodModel

/// A measure in grams: a weight as it is, a volume through the reference food's household
/// measures (a cup of flour is 125 g, of honey 339 g: a density per food, never one for all), a
/// count or an item ("2 cloves", "3 large") through the measure that names it. What cannot be
/// converted says why; nothing is guessed.
public enum MeasureGrams {
    public struct Conversion: Sendable, Hashable {
        public let grams: Double
        /// How: "weight", or the reference measure used ("1 tbsp = 13.5 g").
        public let how: String
    }

    static let gramsPerMass: [String: Double] = [
        "g": 1, "kg": 1000, "mg": 0.001, "oz": 28.349523125, "lb": 453.59237,
    ]

    /// US measures (TheMealDB marks spoons and cups `us`; a metric spoon differs by under 2%).
    /// A pinch is 1/16 and a dash 1/8 of a teaspoon, as US cookbooks define them.
    static let millilitresPerVolume: [String: Double] = [
        "ml": 1, "cl": 10, "dl": 100, "l": 1000, "fl oz": 29.5735295625, "cup": 236.5882365, "pint": 473.176473,
        "quart": 946.352946, "gallon": 3785.411784, "tsp": 4.92892159375, "tbsp": 14.78676478125,
        "pinch": 4.92892159375 / 16, "dash": 4.92892159375 / 8,
    ]

    /// How the reference's measure names begin, for the volumes among them.
    static let referenceVolumeWords: [String: String] = [
        "cup": "cup", "tbsp": "tbsp", "tablespoon": "tbsp", "tsp": "tsp", "teaspoon": "tsp", "fl oz": "fl oz",
        "pint": "pint", "quart": "quart", "dash": "dash", "pinch": "pinch",
    ]

    /// What a recipe's item unit is called among the reference's measures.
    /// SR writes "leaves" (read as "leave" by the plural rule) and "slice" of bacon.
    static let itemSpellings: [String: [String]] = [
        "rasher": ["slice"], "pack": ["package", "packet"], "leaf": ["leaf", "leave"], "piece": ["piece", "pieces"],
    ]

    /// Reference measures a bare count may mean, best first (a "2 onions" is two medium ones).
    static let countSizes = ["medium", "large", "small", "whole", "fruit", "each", "item", "piece"]

    /// A weight in `unit` (UCLA's rows: lb, oz, kg, g).
    public static func weight(_ amount: Double, unit: String) -> Result<Conversion, Unconverted> {
        guard let factor = gramsPerMass[unit.lowercased()] else {
            return .failure(Unconverted(.unconvertibleUnit, "\(unit) is not a weight"))
        }
        return checked(amount * factor, how: "weight")
    }

    /// A measure that is a weight, without a food: what an unmatched line weighs, so that its
    /// weight counts against the matched share.
    public static func weighedAlone(_ measure: Measure) -> Result<Conversion, Unconverted> {
        guard let quantity = measure.quantity, let unit = measure.unit, let factor = gramsPerMass[unit] else {
            return .failure(Unconverted(.unconvertibleUnit, "not a weight"))
        }
        let amount = measure.maximum.map { (quantity.doubleValue + $0.doubleValue) / 2 } ?? quantity.doubleValue
        return checked(amount * factor, how: "weight")
    }

    /// A parsed recipe measure, through `food`'s household measures when it is not a weight.
    public static func grams(of measure: Measure, food: NutritionReference.Food) -> Result<Conversion, Unconverted> {
        guard let quantity = measure.quantity else {
            return .failure(Unconverted(.noAmount, measure.kind == .unquantified ? "no amount (\(measure.raw ?? "none"))"
                                        : "no amount could be read from \"\(measure.raw ?? "")\""))
        }
        let amount = measure.maximum.map { (quantity.doubleValue + $0.doubleValue) / 2 } ?? quantity.doubleValue
        guard let unit = measure.unit else { return count(amount, raw: measure.raw ?? "", food: food) }
        if let factor = gramsPerMass[unit] { return checked(amount * factor, how: "weight") }
        if let millilitres = millilitresPerVolume[unit] { return volume(amount * millilitres, unit: unit, food: food) }
        return item(amount, unit: unit, food: food)
    }

    private static func volume(_ millilitres: Double, unit: String, food: NutritionReference.Food)
        -> Result<Conversion, Unconverted> {
        let volumes = food.measures.compactMap { measure -> (HouseholdVolume)? in
            guard let word = leadingVolumeWord(measure.name), let perUnit = millilitresPerVolume[word],
                  measure.amount > 0 else { return nil }
            return HouseholdVolume(measure: measure, unit: word, gramsPerMillilitre: measure.grams / (measure.amount * perUnit))
        }
        guard let chosen = volumes.first(where: { $0.unit == unit }) ?? volumes.first else {
            return .failure(Unconverted(.unconvertibleUnit, "\(food.name) has no household volume to weigh a \(unit) by"))
        }
        return checked(millilitres * chosen.gramsPerMillilitre, how: describe(chosen.measure))
    }

    private struct HouseholdVolume {
        let measure: NutritionReference.HouseholdMeasure
        let unit: String
        let gramsPerMillilitre: Double
    }

    private static func count(_ amount: Double, raw: String, food: NutritionReference.Food)
        -> Result<Conversion, Unconverted> {
        let rawWords = Set(IngredientWords.of(raw, keepDescriptors: true))
        let sizes = countSizes.filter(rawWords.contains) + countSizes
        for size in sizes {
            if let measure = food.measures.first(where: { leadingWord($0.name) == size && $0.amount > 0 }) {
                return checked(amount * measure.grams / measure.amount, how: describe(measure))
            }
        }
        return .failure(Unconverted(.unconvertibleUnit, "\(food.name) has no weight for one item (\(raw))"))
    }

    private static func item(_ amount: Double, unit: String, food: NutritionReference.Food)
        -> Result<Conversion, Unconverted> {
        let names = itemSpellings[unit] ?? [unit]
        guard let measure = food.measures.first(where: { names.contains(IngredientWords.singular(leadingWord($0.name)))
                                                          && $0.amount > 0 }) else {
            return .failure(Unconverted(.unconvertibleUnit, "\(food.name) has no weight for a \(unit)"))
        }
        return checked(amount * measure.grams / measure.amount, how: describe(measure))
    }

    /// The first word of a measure's name ("cup" of "cup, chopped", "large" of "large whole (3\" dia)").
    static func leadingWord(_ name: String) -> String {
        String(name.lowercased().prefix { $0.isLetter })
    }

    static func leadingVolumeWord(_ name: String) -> String? {
        let lowered = name.lowercased()
        if lowered.hasPrefix("fl oz") { return "fl oz" }
        return referenceVolumeWords[leadingWord(lowered)]
    }

    static func describe(_ measure: NutritionReference.HouseholdMeasure) -> String {
        "\(IngredientMatcher.rounded(measure.amount)) \(measure.name) = \(IngredientMatcher.rounded(measure.grams)) g"
    }

    private static func checked(_ grams: Double, how: String) -> Result<Conversion, Unconverted> {
        guard grams.isFinite, grams > 0 else { return .failure(Unconverted(.noAmount, "no weight (\(grams) g)")) }
        return .success(Conversion(grams: grams, how: how))
    }
}

/// Why a line has no weight.
public struct Unconverted: Error, Sendable, Hashable {
    /// `unconvertible_unit` or `no_amount`.
    public let code: EstimateLine.Code
    public let reason: String

    init(_ code: EstimateLine.Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
