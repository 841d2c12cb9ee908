import FoodModel
import Foundation

/// A set of daily values that %DV is computed against (`ucla-label`, `fda-2016`, ...).
///
/// Standards are data, read from `Pipelines/standards/<name>.yml`: labels printed in different
/// years and by different kitchens use different values (UCLA prints carbohydrate against
/// 130 g, the FDA's 2016 rule uses 275 g), and a pipeline names the one its source prints.
public struct DailyValueStandard: Hashable, Sendable, Codable {
    public struct Value: Hashable, Sendable, Codable {
        public var amount: Double
        public var unit: NutrientUnit

        public init(amount: Double, unit: NutrientUnit) {
            self.amount = amount
            self.unit = unit
        }
    }

    /// Why a %DV could not be computed, so that it is reported rather than guessed.
    public enum Unavailable: Hashable, Sendable {
        /// The standard has no daily value for the nutrient (trans fat, sugars).
        case noDailyValue
        /// The amount's unit is unknown, or cannot be converted to the standard's (vitamin E
        /// in mg against a standard in IU).
        case unconvertible(unit: String, standardUnit: NutrientUnit)
    }

    public var name: String
    public var description: String
    public var values: [NutrientKey: Value]
    /// The nutrients whose value is a daily reference value (DRV), whose %DV a label declares to
    /// the nearest 1%; the others are reference daily intakes (vitamins and minerals), declared
    /// in 2/5/10% steps. Potassium is a DRV before the 2016 rule and a mineral after it.
    public var dailyReferenceValues: Set<NutrientKey>

    public init(name: String, description: String, values: [NutrientKey: Value],
                dailyReferenceValues: Set<NutrientKey> = LabelRoundingRule.macronutrients) {
        self.name = name
        self.description = description
        self.values = values
        self.dailyReferenceValues = dailyReferenceValues
    }

    /// The rule this standard's labels declare a nutrient's %DV with.
    public func percentRule(for nutrient: NutrientKey) -> LabelRoundingRule {
        dailyReferenceValues.contains(nutrient) ? .macronutrientPercent : .vitaminMineralPercent
    }

    /// Every rule a label may lawfully declare a nutrient's %DV with: the rule, and for a
    /// vitamin or mineral also its steps without the optional zero below 2%.
    func lawfulPercentRules(for nutrient: NutrientKey) -> [LabelRoundingRule] {
        dailyReferenceValues.contains(nutrient) ? [.macronutrientPercent]
            : [.vitaminMineralPercent, .vitaminMineralPercentStepped]
    }

    /// The %DV of an amount, unrounded, or why there is none.
    public func dailyValuePercent(of nutrient: NutrientKey, amount: Double, unit: String) -> DailyValuePercent {
        guard let value = values[nutrient], value.amount > 0 else { return .unavailable(.noDailyValue) }
        guard let from = NutrientUnit(label: unit),
              let converted = from.convert(amount, to: value.unit, for: nutrient)
        else { return .unavailable(.unconvertible(unit: unit, standardUnit: value.unit)) }
        return .percent(LabelNumber.snapped(100 * converted / value.amount))
    }

    /// The %DV of an amount, unrounded; nil when the standard has no value for the nutrient or
    /// the amount's unit cannot be converted to the standard's (a unit is never guessed).
    public func percent(of nutrient: NutrientKey, amount: Double, unit: String) -> Double? {
        guard case .percent(let percent) = dailyValuePercent(of: nutrient, amount: amount, unit: unit) else { return nil }
        return percent
    }

    /// The %DV a label would print for an amount: rounded by the FDA's %DV steps (nearest 1%
    /// for daily reference values, 2/5/10% steps for vitamins and minerals), half away from zero.
    public func labelPercent(of nutrient: NutrientKey, amount: Double, unit: String) -> Double? {
        labelPercents(of: nutrient, amount: amount, unit: unit, by: [percentRule(for: nutrient)]).first
    }

    /// The %DV a label may print for an amount under each of `rules`, in their order.
    func labelPercents(of nutrient: NutrientKey, amount: Double, unit: String, by rules: [LabelRoundingRule])
        -> [Double] {
        guard let percent = percent(of: nutrient, amount: amount, unit: unit) else { return [] }
        return rules.map { rule in
            switch rule.declare(percent) {
            case .exactly(let value), .lessThan(let value): value
            }
        }
    }

    /// The food with `computedDailyValuePercent` set, as its label would print it, for every
    /// nutrient the standard covers in a unit it can convert: by the FDA's %DV steps on a
    /// per-serving label; to two decimals on a per-100 g one, as kitchen systems print it and so
    /// that scaling it to a serving does not scale a rounding step.
    public func apply(to food: Food) -> Food {
        var food = food
        apply(to: &food)
        return food
    }

    /// `apply(to:)` in place: a run sets every food's %DV where the foods lie, rather than copy
    /// each food and the table of them.
    public func apply(to food: inout Food) {
        for index in food.nutrients.indices {
            let nutrient = food.nutrients[index]
            guard let amount = nutrient.amount, let unit = nutrient.unit,
                  let percent = food.labelBasis == .hundredGrams
                      ? percent(of: nutrient.key, amount: amount, unit: unit).map(Self.kitchenRounded)
                      : labelPercent(of: nutrient.key, amount: amount, unit: unit)
            else { continue }
            food.nutrients[index].computedDailyValuePercent = percent
            food.nutrients[index].dailyValueStandard = name
        }
    }

    /// Nutrients of the food that the standard has a value for but cannot compute, with why.
    public func unconvertible(in food: Food) -> [(nutrient: NutrientValue, reason: Unavailable)] {
        food.nutrients.compactMap { nutrient in
            guard let amount = nutrient.amount, let unit = nutrient.unit,
                  case .unavailable(let reason) = dailyValuePercent(of: nutrient.key, amount: amount, unit: unit),
                  case .unconvertible = reason
            else { return nil }
            return (nutrient, reason)
        }
    }
}

/// The %DV of an amount, or why a standard has none for it: a value, not an error, since a
/// nutrient a standard cannot compute is reported beside the label, never thrown.
public enum DailyValuePercent: Hashable, Sendable {
    case percent(Double)
    case unavailable(DailyValueStandard.Unavailable)
}
