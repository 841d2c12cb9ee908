import FoodModel

/// The most of a daily value one serving of any real food reaches, per nutrient: a %DV per
/// serving above its ceiling is a label read in the wrong unit or for the wrong portion (a µg
/// value published as mg is 1,000× too high), and is flagged rather than published silently.
///
/// Each ceiling sits well above the richest ordinary foods (USDA's Standard Reference, per
/// serving): vitamin D peaks near 1,000% in a tablespoon of cod liver oil (34 µg of 20) and is
/// below 100% in any dish; vitamin A near 800% in 3 oz of beef liver; sodium near 300% in a
/// large salted dish; a whole cake may reach 600% of fat or sugars. A nutrient not listed gets
/// `otherwise`, since vitamins such as B12 (clams: 3,500%) run far above any macronutrient.
public enum DailyValueCeiling {
    public static let percentPerServing: [NutrientKey: Double] = [
        NutrientKey("vitamin_d"): 1_000,
        .vitaminA: 1_000,
        .vitaminC: 1_500,
        .calcium: 500,
        .iron: 500,
        NutrientKey("potassium"): 500,
        .sodium: 800,
        .totalFat: 800,
        .saturatedFat: 800,
        .cholesterol: 800,
        .totalCarbohydrate: 800,
        .dietaryFiber: 800,
        .sugars: 800,
        NutrientKey("added_sugars"): 800,
        .protein: 800,
    ]

    public static let otherwise = 5_000.0

    public static func percent(for key: NutrientKey) -> Double {
        percentPerServing[key] ?? otherwise
    }

    /// What one unit of a label amount is worth per serving: 1 on a per-serving label (and on one
    /// whose basis no source stated: a ceiling checked too strictly beats one not checked), the
    /// serving's grams / 100 on a per-100 g one; nil when the serving has no weight.
    public static func perServing(_ food: Food) -> Double? {
        switch food.labelBasis {
        case .serving, nil: 1
        case .hundredGrams: food.servingGrams.map { $0 / 100 }
        }
    }

    /// The nutrients of `food` whose %DV per serving passes its ceiling, with that %DV.
    public static func exceeded(in food: Food) -> [(nutrient: NutrientValue, percentPerServing: Double)] {
        guard let factor = perServing(food) else { return [] }
        return food.nutrients.compactMap { nutrient in
            guard let percent = nutrient.computedDailyValuePercent.map({ $0 * factor }),
                  percent > Self.percent(for: nutrient.key) else { return nil }
            return (nutrient, percent)
        }
    }

    /// A `dv_ceiling` flag for each nutrient of `food` past its ceiling.
    public static func flags(for food: Food) -> [FoodFlag] {
        exceeded(in: food).map { nutrient, perServing in
            FoodFlag(food: food.id, check: "dv_ceiling", nutrient: nutrient.key,
                     message: "\(nutrient.name) is \(LabelNumber.text(perServing.rounded()))% of its daily value per "
                         + "serving (\(LabelNumber.text(nutrient.amount ?? 0)) \(nutrient.unit ?? "") per "
                         + "\(food.labelBasis?.rawValue ?? "serving")), more than any real food reaches "
                         + "(\(LabelNumber.text(percent(for: nutrient.key)))%): a unit or a portion is wrong")
        }
    }
}
