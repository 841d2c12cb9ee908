import FoodModel

/// The allergens a NetNutrition label lists after "Contains:", by the names institutions
/// configure (Duke prints "Egg, Milk"; UIUC "Corn, Eggs, Gluten, Milk, Soy, Wheat"). A name not
/// here is kept as printed and reported by the unknown-code check.
enum NetNutritionCodes {
    static let legend: [DietaryCode] = [
        ("Milk", ["milk"]), ("Egg", ["eggs"]), ("Eggs", ["eggs"]), ("Fish", ["fish"]),
        ("Shellfish", ["crustacean_shellfish"]), ("Crustacean Shellfish", ["crustacean_shellfish"]),
        ("Tree Nuts", ["tree_nuts"]), ("Tree Nut", ["tree_nuts"]), ("Peanuts", ["peanuts"]), ("Peanut", ["peanuts"]),
        ("Wheat", ["wheat"]), ("Soy", ["soybeans"]), ("Sesame", ["sesame"]), ("Gluten", ["gluten"]),
        // An allergen UIUC declares that is none of the vocabulary's: kept, meaning no term.
        ("Corn", []),
    ].map { DietaryCode(code: $0.0, label: $0.0, kind: .allergen, terms: $0.1) }
}
