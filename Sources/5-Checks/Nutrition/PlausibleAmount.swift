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

    /// The unit in which to read `amounts` of `nutrient` declared in `unit`: `unit` itself when
    /// every amount is plausible in it (or nothing is known of the nutrient), otherwise the first
    /// smaller mass unit in which every one is; nil when no unit makes them all plausible. All
    /// the amounts one source declared under one key go together, so that one key is never
    /// read in two units.
    public static func unit(reading amounts: [Double], of nutrient: NutrientKey,
                            declaredIn unit: NutrientUnit) -> NutrientUnit? {
        guard let ceiling = ceilings[nutrient], let largest = amounts.max(),
              let declared = massUnits.firstIndex(of: unit)
        else { return unit }
        return massUnits[declared...].first { candidate in
            guard let limit = ceiling.unit.convert(ceiling.amount, to: candidate, for: nutrient) else { return false }
            return largest <= limit
        }
    }
}
