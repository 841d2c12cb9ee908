import FoodModel
import SourceReading

/// What Nutrislice prints: food icons by slug, with their meaning in the one vocabulary, and
/// nutrient keys that carry their unit as a prefix (`g_fat`, `mg_sodium`, `iu_vitamin_a`).
enum NutrisliceCodes {
    /// The icons seen on real menus (UW–Madison, 2026) and the platform's common allergen and
    /// diet slugs. An organisation may define its own icons: a slug not here is kept as it is
    /// and reported by the unknown-code check.
    static let legend: [DietaryCode] = [
        DietaryCode(code: "vegan", label: "Vegan", kind: .dietary, terms: ["vegan"]),
        DietaryCode(code: "vegetarian", label: "Vegetarian", kind: .dietary, terms: ["vegetarian"]),
        DietaryCode(code: "halal", label: "Halal", kind: .dietary, terms: ["halal"]),
        DietaryCode(code: "kosher", label: "Kosher", kind: .dietary, terms: ["kosher"]),
        // "Free of the nine major allergens": a claim of absence, which no term of the
        // vocabulary (each a "contains") expresses.
        DietaryCode(code: "top-9-free", label: "Top 9 Free", kind: .dietary),
        DietaryCode(code: "gluten-free", label: "Gluten Free", kind: .dietary),
        DietaryCode(code: "dairy", label: "Milk", kind: .allergen, terms: ["milk"]),
        DietaryCode(code: "milk", label: "Milk", kind: .allergen, terms: ["milk"]),
        DietaryCode(code: "egg", label: "Egg", kind: .allergen, terms: ["eggs"]),
        DietaryCode(code: "eggs", label: "Eggs", kind: .allergen, terms: ["eggs"]),
        DietaryCode(code: "fish", label: "Fish", kind: .allergen, terms: ["fish"]),
        DietaryCode(code: "shellfish", label: "Shellfish", kind: .allergen, terms: ["crustacean_shellfish"]),
        DietaryCode(code: "tree-nuts", label: "Tree Nuts", kind: .allergen, terms: ["tree_nuts"]),
        DietaryCode(code: "treenuts", label: "Tree Nuts", kind: .allergen, terms: ["tree_nuts"]),
        DietaryCode(code: "peanuts", label: "Peanuts", kind: .allergen, terms: ["peanuts"]),
        DietaryCode(code: "peanut", label: "Peanut", kind: .allergen, terms: ["peanuts"]),
        DietaryCode(code: "wheat", label: "Wheat", kind: .allergen, terms: ["wheat"]),
        DietaryCode(code: "gluten", label: "Gluten", kind: .allergen, terms: ["gluten"]),
        DietaryCode(code: "soy", label: "Soy", kind: .allergen, terms: ["soybeans"]),
        DietaryCode(code: "sesame", label: "Sesame", kind: .allergen, terms: ["sesame"]),
        // Allergens some campuses print that are not among the nine (coconut left the FDA's
        // tree-nut list in 2025).
        DietaryCode(code: "corn", label: "Corn", kind: .allergen),
        DietaryCode(code: "coconut", label: "Coconut", kind: .allergen),
    ]

    private static let kinds = Dictionary(legend.map { ($0.code, $0.kind) }, uniquingKeysWith: { first, _ in first })

    static func kind(of code: String) -> DietaryCode.Kind? { kinds[code] }

    /// A nutrient key's unit prefix and what the snapshot calls the rest.
    struct Nutrient {
        var key: NutrientKey
        var name: String
        var unit: String
    }

    /// The unit prefixes of the label's keys, in the order one is preferred when a nutrient is
    /// declared in several (`re` is retinol equivalents, an older unit of vitamin A).
    static let unitPreference = ["kcal", "g", "mg", "mcg", "iu", "re"]

    private static let printedUnits = ["iu": "IU", "re": "RE"]

    /// Names the platform abbreviates, as a label prints them.
    private static let names: [String: String] = [
        "fat": "Total Fat", "carbs": "Total Carbohydrate", "sugar": "Sugars", "added_sugar": "Added Sugars",
        "fiber": "Dietary Fiber",
    ]

    static func nutrient(_ field: String) -> Nutrient? {
        if field == "calories" { return Nutrient(key: .calories, name: "Calories", unit: "kcal") }
        guard let separator = field.firstIndex(of: "_") else { return nil }
        let prefix = String(field[..<separator])
        guard unitPreference.contains(prefix), prefix != "kcal" else { return nil }
        let rest = String(field[field.index(after: separator)...])
        guard !rest.isEmpty else { return nil }
        let name = names[rest] ?? rest.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined(separator: " ")
        return Nutrient(key: NutrientNaming.key(forLabel: name), name: name, unit: printedUnits[prefix] ?? prefix)
    }

    private static let order: [NutrientKey] = [
        .calories, .totalFat, .saturatedFat, .transFat, .cholesterol, .sodium, .totalCarbohydrate, .dietaryFiber,
        .sugars, NutrientKey("added_sugars"), .protein,
    ]

    /// Label order for the nutrients a label prints first; the rest after them by key.
    static func labelOrder(_ key: NutrientKey) -> Int { order.firstIndex(of: key) ?? order.count }
}
