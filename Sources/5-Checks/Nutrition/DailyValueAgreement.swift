import FoodModel

/// Whether a printed %DV agrees with the printed amount under a standard.
///
/// Both lawful ways of computing a %DV count (21 CFR 101.9(c)): from the declared amount, and
/// from the unrounded amount, which the label does not print. So the printed % agrees when some
/// amount that the printed one may stand for gives it: the printed amount ± half a unit of its
/// last printed digit (UCLA prints 0.1 g and computes from the unrounded grams, docs/nutrition.md),
/// and, where the label rounding rules (docs/nutrition.md) have one for the nutrient, every amount the FDA rule declares as printed
/// (a label's "2.5 g" of fat stands for 2.25–2.75 g).
public struct DailyValueAgreement: Hashable, Sendable {
    public var nutrient: NutrientKey
    public var printedPercent: Double
    /// The label %DV of the printed amount.
    public var percentFromDeclared: Double
    /// The unrounded amounts the printed one may stand for.
    public var unroundedAmounts: ClosedRange<Double>
    public var agreesFromDeclared: Bool
    public var agreesFromUnrounded: Bool

    public var agrees: Bool { agreesFromDeclared || agreesFromUnrounded }
}

extension DailyValueStandard {
    /// The agreement of a nutrient's printed %DV with its amount; nil when the label prints no
    /// %, no amount, or the standard cannot compute one. A per-100 g label is a kitchen system's,
    /// which prints amounts and percentages unrounded to two decimals, not by the label rules.
    public func agreement(of nutrient: NutrientValue, basis: LabelBasis? = .serving) -> DailyValueAgreement? {
        if basis == .hundredGrams { return unroundedAgreement(of: nutrient) }
        guard let printed = nutrient.printedDailyValuePercent, let amount = nutrient.amount,
              let unit = nutrient.unit,
              let declared = labelPercent(of: nutrient.key, amount: amount, unit: unit)
        else { return nil }
        let amounts = Self.unroundedAmounts(for: nutrient.key, printed: amount)
        // A vitamin or mineral under 2% may print 0 or its nearest 2% step: both rules count.
        let rules = lawfulPercentRules(for: nutrient.key)
        let lows = labelPercents(of: nutrient.key, amount: amounts.lowerBound, unit: unit, by: rules)
        let highs = labelPercents(of: nutrient.key, amount: amounts.upperBound, unit: unit, by: rules)
        // Each rule's label % is a non-decreasing step function of the amount: over a range of
        // amounts it takes every value it can print between its ends, and only those.
        let agreesFromUnrounded = zip(rules, zip(lows, highs)).contains { rule, ends in
            ends.0 <= printed && printed <= ends.1 && rule.declare(printed) == .exactly(printed)
        }
        let declaredByAnyRule = labelPercents(of: nutrient.key, amount: amount, unit: unit, by: rules)
        return DailyValueAgreement(
            nutrient: nutrient.key, printedPercent: printed, percentFromDeclared: declared,
            unroundedAmounts: amounts, agreesFromDeclared: declaredByAnyRule.contains(printed),
            agreesFromUnrounded: agreesFromUnrounded)
    }

    /// A %DV printed to two decimals against an amount printed to two decimals: it agrees when
    /// the percent of some amount the printed one may stand for rounds to it.
    private func unroundedAgreement(of nutrient: NutrientValue) -> DailyValueAgreement? {
        guard let printed = nutrient.printedDailyValuePercent, let amount = nutrient.amount, let unit = nutrient.unit,
              let exact = percent(of: nutrient.key, amount: amount, unit: unit)
        else { return nil }
        let declared = Self.kitchenRounded(exact)
        let half = 0.005
        let amounts = max(0, amount - half)...(amount + half)
        var agreesFromUnrounded = false
        if let low = percent(of: nutrient.key, amount: amounts.lowerBound, unit: unit),
           let high = percent(of: nutrient.key, amount: amounts.upperBound, unit: unit) {
            agreesFromUnrounded = low - half - 1e-9 <= printed && printed <= high + half + 1e-9
        }
        return DailyValueAgreement(
            nutrient: nutrient.key, printedPercent: printed, percentFromDeclared: declared, unroundedAmounts: amounts,
            agreesFromDeclared: abs(declared - printed) < 1e-9, agreesFromUnrounded: agreesFromUnrounded)
    }

    /// A percent as a kitchen system prints it: to two decimals.
    static func kitchenRounded(_ percent: Double) -> Double {
        (percent * 100).rounded() / 100
    }

    /// The printed amount ± half a unit of its last printed digit, widened to the FDA rule's
    /// range when the amount is one the rule declares.
    static func unroundedAmounts(for nutrient: NutrientKey, printed amount: Double) -> ClosedRange<Double> {
        var scale = 1.0
        for _ in 0..<LabelNumber.decimals(amount) { scale *= 10 }
        let half = 0.5 / scale
        var low = max(0, LabelNumber.snapped(amount - half))
        var high = LabelNumber.snapped(amount + half)
        if let rule = LabelRoundingRule.amountRule(for: nutrient), let range = rule.amounts(declaring: amount) {
            low = min(low, range.lowerBound)
            high = max(high, range.upperBound)
        }
        return low...high
    }
}
