import FoodModel

/// The most of a nutrient that one serving of any real food holds, for judging a unit a source
/// declares wrongly: an amount above it cannot be what a food holds, while the same number in
/// a smaller unit can (Nutrislice's `mg_vitamin_d` holds micrograms: 1.1 for an egg sandwich
/// would be 5,500% of the daily value in mg). A ceiling sits well above the richest food, so
/// that no real amount is ever read in another unit; a nutrient is listed once a source has
/// been seen to get its unit wrong (docs/nutrition.md).
public enum PlausibleAmount {
    public struct Ceiling: Hashable, Sendable {
        public var amount: Double
        public var unit: NutrientUnit
    }

    static let ceilings: [NutrientKey: Ceiling] = [
        // The richest food is cod liver oil, 34 mcg a tablespoon; a 3-oz fillet of rainbow trout
        // holds 16 mcg, of sockeye salmon 14 mcg (NIH Office of Dietary Supplements), so even an
        // 8-oz portion stays under 45 mcg. 50 mcg is 250% of the 2016 daily value (20 mcg); in
        // mg it is 0.05, below the 0.1 that a label rounded to a tenth prints first.
        NutrientKey("vitamin_d"): Ceiling(amount: 50, unit: .mcg),
    ]

    public static func ceiling(of nutrient: NutrientKey) -> Ceiling? { ceilings[nutrient] }

    /// Mass units from the largest: a unit declared wrongly is read in one of those after it.
    private static let massUnits: [NutrientUnit] = [.g, .mg, .mcg]

    /// How to read the amounts one source declared of a nutrient under one unit.
    public struct Judgement: Hashable, Sendable {
        /// The unit every amount is read in.
        public var unit: NutrientUnit
        /// The most a serving holds in `unit`; nil when nothing is known of the nutrient.
        public var limit: Double?

        /// Whether `amount`, read in `unit`, is an amount a serving can hold.
        public func admits(_ amount: Double) -> Bool { limit.map { amount <= $0 } ?? true }
    }

    /// How to read `amounts` of `nutrient` declared in `unit`: in `unit` itself when every amount
    /// is plausible in it (or nothing is known of the nutrient); otherwise in the unit, of it and
    /// the smaller mass units, in which the most of them are plausible (the larger of two that
    /// tie). All the amounts one source declared under one key go together, so that one key is
    /// never read in two units, and one odd value cannot send the rest back to a unit none of
    /// them fits: an amount the unit chosen does not admit (a value typed in IU among
    /// micrograms) cannot be right, and its reader leaves it out and says so.
    public static func judge(_ amounts: [Double], of nutrient: NutrientKey, declaredIn unit: NutrientUnit) -> Judgement {
        guard let ceiling = ceilings[nutrient], let declared = massUnits.firstIndex(of: unit) else {
            return Judgement(unit: unit, limit: nil)
        }
        var best: (judgement: Judgement, plausible: Int)?
        for candidate in massUnits[declared...] {
            guard let limit = ceiling.unit.convert(ceiling.amount, to: candidate, for: nutrient) else { continue }
            let plausible = amounts.filter { $0 <= limit }.count
            if plausible > best?.plausible ?? -1 { best = (Judgement(unit: candidate, limit: limit), plausible) }
        }
        return best?.judgement ?? Judgement(unit: unit, limit: nil)
    }
}
