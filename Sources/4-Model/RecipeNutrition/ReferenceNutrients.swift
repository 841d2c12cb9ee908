import FoodModel

/// The reference's nutrients an estimate carries, under the snapshot's keys and units. SR24
/// names its nutrients its own way ("Carbs", "Fat"; cronometer's names) and states their units
/// apart from the foods; vitamins A and D are left out, since SR24 gives them in IU, which the
/// snapshot's mcg cannot be read from without a factor per form of the vitamin.
enum ReferenceNutrients {
    struct Entry: Sendable {
        let referenceName: String
        let key: NutrientKey
        /// The unit the reference gives and the estimate keeps; the reference is checked to agree.
        let unit: String
    }

    static let all: [Entry] = [
        Entry(referenceName: "Energy", key: .calories, unit: "kcal"),
        Entry(referenceName: "Protein", key: .protein, unit: "g"),
        Entry(referenceName: "Fat", key: .totalFat, unit: "g"),
        Entry(referenceName: "Saturated", key: .saturatedFat, unit: "g"),
        Entry(referenceName: "Trans-Fats", key: .transFat, unit: "g"),
        Entry(referenceName: "Cholesterol", key: .cholesterol, unit: "mg"),
        Entry(referenceName: "Sodium", key: .sodium, unit: "mg"),
        Entry(referenceName: "Carbs", key: .totalCarbohydrate, unit: "g"),
        Entry(referenceName: "Fiber", key: .dietaryFiber, unit: "g"),
        Entry(referenceName: "Sugars", key: .sugars, unit: "g"),
        Entry(referenceName: "Calcium", key: .calcium, unit: "mg"),
        Entry(referenceName: "Iron", key: .iron, unit: "mg"),
        Entry(referenceName: "Potassium", key: NutrientKey("potassium"), unit: "mg"),
        Entry(referenceName: "Vitamin C", key: .vitaminC, unit: "mg"),
    ]
}
