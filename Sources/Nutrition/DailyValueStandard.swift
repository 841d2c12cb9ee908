import Foundation
import FoodModel

/// A set of daily values that %DV is computed against (`ucla-label`, `fda-2016`, ...).
///
/// Standards are data, read from `Pipelines/standards/<name>.yml`: labels printed in different
/// years and by different kitchens use different values (UCLA prints carbohydrate against
/// 130 g, the FDA's 2016 rule uses 275 g), and a pipeline names the one its source prints.
public struct DailyValueStandard: Hashable, Sendable, Codable {
    public struct Value: Hashable, Sendable, Codable {
        public var amount: Double
        public var unit: MassUnit

        public init(amount: Double, unit: MassUnit) {
            self.amount = amount
            self.unit = unit
        }
    }

    public var name: String
    public var description: String
    public var values: [NutrientKey: Value]

    public init(name: String, description: String, values: [NutrientKey: Value]) {
        self.name = name
        self.description = description
        self.values = values
    }

    /// The %DV of an amount, unrounded; nil when the standard has no value for the nutrient or
    /// the amount's unit cannot be converted to the standard's (a unit is never guessed).
    public func percent(of nutrient: NutrientKey, amount: Double, unit: String) -> Double? {
        guard let value = values[nutrient], value.amount > 0,
              let from = MassUnit(label: unit)
        else { return nil }
        return 100 * from.convert(amount, to: value.unit) / value.amount
    }

    /// The food with `computedDailyValuePercent` set, rounded to the nearest whole percent as
    /// labels print macronutrients (21 CFR 101.9(c)), for every nutrient the standard covers.
    public func apply(to food: Food) -> Food {
        var food = food
        for index in food.nutrients.indices {
            let nutrient = food.nutrients[index]
            guard let amount = nutrient.amount, let unit = nutrient.unit,
                  let percent = percent(of: nutrient.key, amount: amount, unit: unit)
            else { continue }
            food.nutrients[index].computedDailyValuePercent = (percent).rounded(.toNearestOrAwayFromZero)
            food.nutrients[index].dailyValueStandard = name
        }
        return food
    }
}

/// The mass units labels use; energy (kcal) and IU have no mass and are not converted here.
public enum MassUnit: String, Hashable, Sendable, Codable, CaseIterable {
    case g, mg, mcg

    /// Reads a unit as printed ("g", "mg", "mcg", "µg").
    public init?(label: String) {
        switch label.trimmingCharacters(in: .whitespaces).lowercased() {
        case "g", "gram", "grams": self = .g
        case "mg": self = .mg
        case "mcg", "µg", "μg", "ug": self = .mcg
        default: return nil
        }
    }

    private var grams: Double {
        switch self {
        case .g: 1
        case .mg: 0.001
        case .mcg: 0.000_001
        }
    }

    public func convert(_ amount: Double, to unit: MassUnit) -> Double {
        amount * grams / unit.grams
    }
}
