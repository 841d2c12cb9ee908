import FoodModel

/// What UCLA's feed says of a food: its allergen and diet names kept as the feed prints them
/// ("Dairy", "Tree-Nuts", "Vegan"), each with its meaning in the one vocabulary, and its
/// nutrient keys (`energyKcal`, `fibre`) as the snapshot's (`calories`, `dietary_fiber`).
enum JamixCodes {
    /// The names as codes, diets first, each once. A name written with other case, spaces or
    /// hyphens than the legend's ("Tree Nuts") takes the legend's spelling; a name the legend
    /// does not know is kept as printed, so the unknown-code check reports it the night it
    /// appears instead of it being dropped.
    static func codes(allergens: [String], diets: [String]) -> [String] {
        var codes: [String] = []
        for name in diets + allergens {
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            let code = byName[fold(trimmed)]?.code ?? trimmed
            if !codes.contains(code) { codes.append(code) }
        }
        return codes
    }

    /// The names the feed and the hall pages it renders print (seen in the April 2025 feed and
    /// a rendered Bruin Plate page: Dairy, Eggs, Gluten, Peanut, Sesame, Soy, Tree-Nuts, Wheat,
    /// Vegan, Vegetarian, Low-Carbon-Footprint, Alcohol), with what each means. "Alcohol" is
    /// printed as a diet but is no allergen or diet of the vocabulary.
    static let legend: [DietaryCode] = [
        DietaryCode(code: "Vegan", label: "Vegan", kind: .dietary, terms: ["vegan"]),
        DietaryCode(code: "Vegetarian", label: "Vegetarian", kind: .dietary, terms: ["vegetarian"]),
        DietaryCode(code: "Halal", label: "Halal", kind: .dietary, terms: ["halal"]),
        DietaryCode(code: "Alcohol", label: "Contains alcohol", kind: .allergen, terms: ["alcohol"]),
        DietaryCode(code: "Dairy", label: "Dairy", kind: .allergen, terms: ["milk"]),
        DietaryCode(code: "Eggs", label: "Eggs", kind: .allergen, terms: ["eggs"]),
        DietaryCode(code: "Fish", label: "Fish", kind: .allergen, terms: ["fish"]),
        DietaryCode(code: "Crustacean Shellfish", label: "Crustacean Shellfish", kind: .allergen,
                    terms: ["crustacean_shellfish"]),
        DietaryCode(code: "Tree-Nuts", label: "Tree Nuts", kind: .allergen, terms: ["tree_nuts"]),
        DietaryCode(code: "Peanut", label: "Peanuts", kind: .allergen, terms: ["peanuts"]),
        DietaryCode(code: "Wheat", label: "Wheat", kind: .allergen, terms: ["wheat"]),
        DietaryCode(code: "Gluten", label: "Gluten", kind: .allergen, terms: ["gluten"]),
        DietaryCode(code: "Soy", label: "Soy", kind: .allergen, terms: ["soybeans"]),
        DietaryCode(code: "Sesame", label: "Sesame", kind: .allergen, terms: ["sesame"]),
        DietaryCode(code: "Low-Carbon-Footprint", label: "Low Carbon Footprint", kind: .sustainability,
                    terms: ["low_carbon"]),
        DietaryCode(code: "High-Carbon-Footprint", label: "High Carbon Footprint", kind: .sustainability,
                    terms: ["high_carbon"]),
    ]

    /// The short codes of a recipe's `recipeDiet` and the names `recipeDietFull` spells them
    /// out as, read off the 1,078 real recipe documents: every document's codes and names pair up
    /// one to one under this table (the names come in another order than the codes).
    static let dietNames: [String: String] = [
        "VG": "Vegan", "VE": "Vegetarian", "HAL": "Halal", "LC": "Low-Carbon-Footprint", "HC": "High-Carbon-Footprint",
    ]

    /// A recipe's diets as names, from its codes ("LC,VG") and their spelled-out names ("Vegan,
    /// Low-Carbon-Footprint"). A code the table does not know takes the one name its document
    /// spells out that no known code accounts for, when exactly one is left; otherwise it is kept
    /// as printed, so the unknown-code check reports it. A name without a code is kept too.
    static func diets(codes: String?, names: String?) -> [String] {
        func list(_ text: String?) -> [String] {
            (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let codes = list(codes)
        var spelled = list(names)
        var diets: [String] = []
        var unknown: [String] = []
        for code in codes {
            if let name = dietNames[code.uppercased()] {
                diets.append(name)
                spelled.removeAll { fold($0) == fold(name) }
            } else {
                unknown.append(code)
            }
        }
        if unknown.count == 1, spelled.count == 1 {
            diets.append(spelled.removeFirst())
        } else {
            diets += unknown
        }
        return diets + spelled
    }

    private static let byName = Dictionary(legend.map { (fold($0.code), $0) }, uniquingKeysWith: { first, _ in first })

    /// Case, spaces and hyphens folded: "Tree Nuts", "tree-nuts" and "Tree-Nuts" are one name.
    private static func fold(_ name: String) -> String {
        name.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "-" }).joined(separator: " ")
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
