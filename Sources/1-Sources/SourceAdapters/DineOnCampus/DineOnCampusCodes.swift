import FoodModel

/// DineOnCampus filters: allergens and labels by the names the kitchen's system prints. A name
/// with an asterisk ("Milk*") is printed beside the plain one on the same menus; the vendor does
/// not document the difference, so both stand for the allergen: an analyst avoiding it must see
/// both. A name not here is kept as printed and reported by the unknown-code check.
enum DineOnCampusCodes {
    static let legend: [DietaryCode] = diets + allergens.flatMap { name, label, terms in
        [DietaryCode(code: name, label: label, kind: .allergen, terms: terms),
         DietaryCode(code: name + "*", label: label + " (marked *)", kind: .allergen, terms: terms)]
    }

    private static let diets: [DietaryCode] = [
        DietaryCode(code: "Vegan", label: "Vegan", kind: .dietary, terms: ["vegan"]),
        DietaryCode(code: "Vegetarian", label: "Vegetarian", kind: .dietary, terms: ["vegetarian"]),
        DietaryCode(code: "Halal", label: "Halal", kind: .dietary, terms: ["halal"]),
        DietaryCode(code: "Kosher", label: "Kosher", kind: .dietary, terms: ["kosher"]),
        // A campus's own programme label and a "made without gluten" label: no term says either.
        DietaryCode(code: "Balanced U", label: "Balanced U", kind: .dietary),
        DietaryCode(code: "Avoiding Gluten", label: "Avoiding Gluten", kind: .dietary),
    ]

    /// The nine major allergens and gluten under the names seen, then what kitchens add.
    private static let allergens: [(String, String, [String])] = [
        ("Milk", "Milk", ["milk"]), ("Egg", "Egg", ["eggs"]), ("Eggs", "Eggs", ["eggs"]), ("Fish", "Fish", ["fish"]),
        ("Shellfish", "Shellfish", ["crustacean_shellfish"]), ("Tree Nuts", "Tree Nuts", ["tree_nuts"]),
        ("Peanuts", "Peanuts", ["peanuts"]), ("Wheat", "Wheat", ["wheat"]), ("Soy", "Soy", ["soybeans"]),
        ("Sesame", "Sesame", ["sesame"]), ("Sesame Seeds", "Sesame Seeds", ["sesame"]), ("Gluten", "Gluten", ["gluten"]),
        ("Alcohol", "Alcohol", ["alcohol"]), ("Beef", "Beef", []), ("Pork", "Pork", []), ("Poultry", "Poultry", []),
        ("Celery", "Celery", []), ("Garlic", "Garlic", []), ("Onion", "Onion", []), ("Tomato", "Tomato", []),
        ("Mustard", "Mustard", []), ("MSG", "MSG", []), ("Sulphites", "Sulphites", []), ("Mushroom", "Mushroom", []),
        ("Orange", "Orange", []),
    ]
}
