import DiningSources
import FoodModel

/// What UCLA's feed says of a food, in the snapshot's vocabulary: its allergen and diet names
/// ("Dairy", "Vegan") as the UCLA web codes they mean (`AMLK`, `VG`), and its nutrient keys
/// (`energyKcal`, `fibre`) as the snapshot's (`calories`, `dietary_fiber`).
enum JamixCodes {
    /// A name the table does not know is kept as it is, as a code of its own, so that the
    /// unknown-code check reports it the night it appears instead of it being dropped.
    static func codes(allergens: [String], diets: [String]) -> [String] {
        var codes: [String] = []
        for name in diets + allergens {
            let code = byName[fold(name)] ?? name
            if !codes.contains(code) { codes.append(code) }
        }
        return codes
    }

    /// UCLA's legend by its wording, with the feed's other spellings of the same things.
    private static let byName: [String: String] = {
        var table = Dictionary(UCLAWebCodes.all.map { (fold($0.label), $0.code) }, uniquingKeysWith: { first, _ in first })
        let spellings = [
            "milk": "AMLK", "egg": "AEGG", "peanut": "APNT", "tree nut": "ATNT", "nuts": "ATNT",
            "shellfish": "ACSF", "crustacean": "ACSF", "sesame seeds": "ASES",
            "vegetarian": "V", "vegan": "VG", "halal": "HAL",
        ]
        table.merge(spellings) { current, _ in current }
        return table
    }()

    private static func fold(_ name: String) -> String {
        name.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A nutrient of the feed and what the snapshot calls it.
    struct Nutrient {
        var feedKey: String
        var key: NutrientKey
        var name: String
        /// The feed's unit for it, used when a document does not say.
        var unit: String
    }

    /// The label's nutrients, in label order. The feed's other values (water, starch, trace
    /// elements) are not label lines and are left out.
    static let nutrients: [Nutrient] = [
        Nutrient(feedKey: "energyKcal", key: .calories, name: "Calories", unit: "kcal"),
        Nutrient(feedKey: "fat", key: .totalFat, name: "Total Fat", unit: "g"),
        Nutrient(feedKey: "saturatedFat", key: .saturatedFat, name: "Saturated Fat", unit: "g"),
        Nutrient(feedKey: "transFattyAcids", key: .transFat, name: "Trans Fat", unit: "g"),
        Nutrient(feedKey: "cholesterol", key: .cholesterol, name: "Cholesterol", unit: "mg"),
        Nutrient(feedKey: "sodium", key: .sodium, name: "Sodium", unit: "mg"),
        Nutrient(feedKey: "carbohydrate", key: .totalCarbohydrate, name: "Total Carbohydrate", unit: "g"),
        Nutrient(feedKey: "fibre", key: .dietaryFiber, name: "Dietary Fiber", unit: "g"),
        Nutrient(feedKey: "sugars", key: .sugars, name: "Sugars", unit: "g"),
        Nutrient(feedKey: "addedSugar", key: NutrientKey("added_sugars"), name: "Added Sugars", unit: "g"),
        Nutrient(feedKey: "protein", key: .protein, name: "Protein", unit: "g"),
        Nutrient(feedKey: "vitaminD", key: NutrientKey("vitamin_d"), name: "Vitamin D", unit: "mcg"),
        Nutrient(feedKey: "calcium", key: .calcium, name: "Calcium", unit: "mg"),
        Nutrient(feedKey: "iron", key: .iron, name: "Iron", unit: "mg"),
        Nutrient(feedKey: "potassium", key: NutrientKey("potassium"), name: "Potassium", unit: "mg"),
        Nutrient(feedKey: "vitaminA", key: .vitaminA, name: "Vitamin A", unit: "mcg"),
        Nutrient(feedKey: "vitaminC", key: .vitaminC, name: "Vitamin C", unit: "mg"),
    ]
}
