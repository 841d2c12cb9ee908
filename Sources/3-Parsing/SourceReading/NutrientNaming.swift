import FoodModel

/// Maps a label's wording to a canonical nutrient key, so that rows from different sources
/// meet in one row of the `nutrient` table.
public enum NutrientNaming {
    private static let known: [String: NutrientKey] = [
        "calories": .calories,
        "calories from fat": .caloriesFromFat,
        "total fat": .totalFat, "fat": .totalFat,
        "saturated fat": .saturatedFat, "sat. fat": .saturatedFat, "sat fat": .saturatedFat,
        "trans fat": .transFat,
        "cholesterol": .cholesterol,
        "sodium": .sodium,
        "total carbohydrate": .totalCarbohydrate, "total carbohydrates": .totalCarbohydrate,
        "total carb.": .totalCarbohydrate, "tot. carb.": .totalCarbohydrate, "total carb": .totalCarbohydrate,
        "carbohydrate": .totalCarbohydrate, "carbohydrates": .totalCarbohydrate,
        "dietary fiber": .dietaryFiber, "fiber": .dietaryFiber,
        "sugars": .sugars, "total sugars": .sugars, "sugar": .sugars,
        "protein": .protein,
        "vitamin a": .vitaminA, "vitamin c": .vitaminC, "calcium": .calcium, "iron": .iron,
        // NetNutrition labels abbreviate potassium.
        "potas.": NutrientKey("potassium"), "potassium": NutrientKey("potassium"),
    ]

    /// The key for a printed name; a name not in the table still gets a stable key, its
    /// folded words joined by underscores ("Added Sugars" → `added_sugars`).
    public static func key(forLabel name: String) -> NutrientKey {
        let folded = foldedKey(name)
        if let key = known[folded] { return key }
        let words = folded.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        return NutrientKey(words.joined(separator: "_"))
    }
}
