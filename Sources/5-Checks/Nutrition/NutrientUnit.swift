import FoodModel

/// The units labels and daily-value tables use. Mass units convert among themselves; energy
/// only to itself; International Units only for the nutrients whose IU has one agreed mass.
public enum NutrientUnit: String, Hashable, Sendable, Codable, CaseIterable {
    case g, mg, mcg, kcal
    case internationalUnit = "IU"

    /// Reads a unit as printed ("g", "mg", "mcg", "µg", "kcal", "IU").
    public init?(label: String) {
        // The spellings the pipeline itself writes, taken as they are: this is asked for every
        // nutrient of every food, and trimming with Foundation's character sets and folding case
        // cost a twentieth of a rerun.
        switch label {
        case "g": self = .g
        case "mg": self = .mg
        case "mcg": self = .mcg
        case "kcal": self = .kcal
        case "IU": self = .internationalUnit
        default: self.init(printed: label)
        }
    }

    /// A unit as a source may print it: with spaces around it, in any case, in other spellings.
    private init?(printed label: String) {
        switch label.trimmingCharacters(in: .whitespaces).lowercased() {
        case "g", "gram", "grams": self = .g
        case "mg": self = .mg
        case "mcg", "µg", "μg", "ug": self = .mcg
        case "kcal", "cal", "calories": self = .kcal
        case "iu": self = .internationalUnit
        default: return nil
        }
    }

    private var grams: Double? {
        switch self {
        case .g: 1
        case .mg: 0.001
        case .mcg: gramsPerMicrogram
        case .kcal, .internationalUnit: nil
        }
    }

    /// Micrograms in one IU (NIH Office of Dietary Supplements, docs/nutrition.md): vitamin D
    /// 0.025 mcg, vitamin A 0.3 mcg RAE (as retinol). Vitamin E's IU differs between the natural
    /// and the synthetic form, so it has no entry: its IU is never converted.
    static let microgramsPerIU: [NutrientKey: Double] = [
        NutrientKey("vitamin_d"): 0.025,
        .vitaminA: 0.3,
    ]

    private var gramsPerMicrogram: Double { 0.000_001 }

    /// `amount` of `nutrient` in this unit expressed in `unit`; nil when no conversion is known.
    public func convert(_ amount: Double, to unit: NutrientUnit, for nutrient: NutrientKey) -> Double? {
        if self == unit { return amount }
        if let from = grams, let to = unit.grams { return amount * from / to }
        if self == .internationalUnit, let to = unit.grams, let mcg = Self.microgramsPerIU[nutrient] {
            return amount * mcg * gramsPerMicrogram / to
        }
        if unit == .internationalUnit, let from = grams, let mcg = Self.microgramsPerIU[nutrient] {
            return amount * from / gramsPerMicrogram / mcg
        }
        return nil
    }
}
