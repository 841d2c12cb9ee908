import FoodModel

/// A declaration as a label prints it: an amount, or "less than" an amount.
public enum LabelAmount: Hashable, Sendable, CustomStringConvertible {
    case exactly(Double)
    case lessThan(Double)

    public var description: String {
        switch self {
        case .exactly(let value): LabelNumber.text(value)
        case .lessThan(let value): "less than \(LabelNumber.text(value))"
        }
    }
}

/// One of the FDA's label rounding rules (21 CFR 101.9(c); Food Labeling Guide, Appendix H;
/// docs/nutrition.md), as tiers: each tier covers the amounts up to its bound and says how
/// they are declared.
///
/// Rules are values rather than functions so that the same table answers both directions: how
/// an amount is declared, and which unrounded amounts a declared value can stand for.
public struct LabelRoundingRule: Hashable, Sendable {
    public enum Declaration: Hashable, Sendable {
        case zero
        case nearest(Double)
        case lessThan(Double)
    }

    public struct Tier: Hashable, Sendable {
        /// The tier covers amounts below this bound (or up to it, with `includesBound`); nil
        /// for the last tier.
        public var bound: Double?
        public var includesBound: Bool
        public var declaration: Declaration

        public init(below bound: Double?, includesBound: Bool = false, _ declaration: Declaration) {
            self.bound = bound
            self.includesBound = includesBound
            self.declaration = declaration
        }
    }

    public var tiers: [Tier]

    public init(_ tiers: [Tier]) {
        self.tiers = tiers
    }

    /// How a label declares `amount`. Negative amounts are declared by the first tier.
    public func declare(_ amount: Double) -> LabelAmount {
        let value = LabelNumber.snapped(amount)
        let covering = tiers.first { tier in
            guard let bound = tier.bound else { return true }
            return tier.includesBound ? value <= bound : value < bound
        }
        guard let tier = covering ?? tiers.last else { return .exactly(value) }
        switch tier.declaration {
        case .zero: return .exactly(0)
        case .nearest(let step): return .exactly(LabelNumber.round(value, toMultipleOf: step))
        case .lessThan(let limit): return .lessThan(limit)
        }
    }

    /// Every amount (≥ 0) that this rule declares as exactly `value`, as a closed range; nil
    /// when the rule never declares `value` (2.3 g of fat: fats are declared in 0.5 g steps).
    public func amounts(declaring value: Double) -> ClosedRange<Double>? {
        var lower = 0.0
        var found: ClosedRange<Double>?
        for tier in tiers {
            let upper = tier.bound ?? .greatestFiniteMagnitude
            var range: ClosedRange<Double>?
            switch tier.declaration {
            case .zero where value == 0:
                range = lower...upper
            case .nearest(let step) where LabelNumber.isMultiple(value, of: step):
                let low = max(lower, value - step / 2)
                let high = min(upper, value + step / 2)
                range = low <= high ? low...high : nil
            default:
                range = nil
            }
            if let range {
                found = found.map { min($0.lowerBound, range.lowerBound)...max($0.upperBound, range.upperBound) }
                    ?? range
            }
            lower = upper
        }
        return found
    }
}

extension LabelRoundingRule {
    /// Calories: < 5 → 0; ≤ 50 → nearest 5; > 50 → nearest 10.
    public static let calories = LabelRoundingRule([
        Tier(below: 5, .zero), Tier(below: 50, includesBound: true, .nearest(5)), Tier(below: nil, .nearest(10)),
    ])
    /// Total, saturated and trans fat: < 0.5 g → 0; < 5 g → nearest 0.5 g; ≥ 5 g → nearest 1 g.
    public static let fats = LabelRoundingRule([
        Tier(below: 0.5, .zero), Tier(below: 5, .nearest(0.5)), Tier(below: nil, .nearest(1)),
    ])
    /// Cholesterol: < 2 mg → 0; 2–5 mg → "less than 5 mg"; > 5 mg → nearest 5 mg.
    public static let cholesterol = LabelRoundingRule([
        Tier(below: 2, .zero), Tier(below: 5, includesBound: true, .lessThan(5)), Tier(below: nil, .nearest(5)),
    ])
    /// Sodium: < 5 mg → 0; 5–140 mg → nearest 5 mg; > 140 mg → nearest 10 mg.
    public static let sodium = LabelRoundingRule([
        Tier(below: 5, .zero), Tier(below: 140, includesBound: true, .nearest(5)), Tier(below: nil, .nearest(10)),
    ])
    /// Carbohydrate, fiber, sugars, added sugars, protein: < 0.5 g → 0; < 1 g → "less than 1 g";
    /// else nearest 1 g.
    public static let carbohydrates = LabelRoundingRule([
        Tier(below: 0.5, .zero), Tier(below: 1, .lessThan(1)), Tier(below: nil, .nearest(1)),
    ])
    /// %DV of the macronutrients: nearest 1%.
    public static let macronutrientPercent = LabelRoundingRule([Tier(below: nil, .nearest(1))])
    /// %DV of vitamins and minerals: < 2% → 0; ≤ 10% → nearest 2%; ≤ 50% → nearest 5%;
    /// > 50% → nearest 10%.
    public static let vitaminMineralPercent = LabelRoundingRule([
        Tier(below: 2, .zero), Tier(below: 10, includesBound: true, .nearest(2)),
        Tier(below: 50, includesBound: true, .nearest(5)), Tier(below: nil, .nearest(10)),
    ])

    /// The rule a label declares a nutrient's amount with; nil for nutrients the rounding rules do not cover.
    public static func amountRule(for nutrient: NutrientKey) -> LabelRoundingRule? {
        switch nutrient {
        case .calories, .caloriesFromFat: .calories
        case .totalFat, .saturatedFat, .transFat: .fats
        case .cholesterol: .cholesterol
        case .sodium: .sodium
        case .totalCarbohydrate, .dietaryFiber, .sugars, .protein, .addedSugars: .carbohydrates
        default: nil
        }
    }

    /// The same steps without the zero below 2%: a vitamin or mineral under 2% "may be" declared
    /// as zero (21 CFR 101.9(c)(8)(iii)), so its nearest 2% step is lawful too (1.54% as 2%).
    public static let vitaminMineralPercentStepped = LabelRoundingRule([
        Tier(below: 10, includesBound: true, .nearest(2)), Tier(below: 50, includesBound: true, .nearest(5)),
        Tier(below: nil, .nearest(10)),
    ])

    /// The nutrients whose %DV a label declares to the nearest 1% when a standard does not say
    /// which of its values are daily reference values (`DailyValueStandard.dailyReferenceValues`).
    public static let macronutrients: Set<NutrientKey> = [
        .totalFat, .saturatedFat, .transFat, .cholesterol, .sodium, .totalCarbohydrate, .dietaryFiber,
        .sugars, .addedSugars, .protein,
    ]
}

extension NutrientKey {
    /// Added sugars, declared with a %DV since the 2016 rule.
    public static let addedSugars = NutrientKey("added_sugars")
}
