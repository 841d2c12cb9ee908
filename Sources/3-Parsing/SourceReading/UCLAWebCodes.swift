import FoodModel

/// The web codes UCLA's menu site prints beside items, as images whose `alt` is the code.
///
/// The 2019 page's legend lists V, VG, the allergen codes, HAL and LC; ASES and HC appear on the
/// 2021 pages and in other scrapers. Labels follow the legend's wording, shortened to the thing
/// itself ("Contains Eggs" → "Eggs"), because the kind already says it is an allergen.
public enum UCLAWebCodes {
    ///
    /// Each code's term in the one vocabulary is the legend's own meaning ("Contains Dairy" is
    /// milk, "Soy" soybeans); wheat is not taken to mean gluten, nor vegan vegetarian, because
    /// the site prints those apart. A high-carbon label has no term.
    public static let all: [DietaryCode] = [
        DietaryCode(code: "V", label: "Vegetarian", kind: .dietary, terms: ["vegetarian"]),
        DietaryCode(code: "VG", label: "Vegan", kind: .dietary, terms: ["vegan"]),
        DietaryCode(code: "HAL", label: "Halal", kind: .dietary, terms: ["halal"]),
        DietaryCode(code: "APNT", label: "Peanuts", kind: .allergen, terms: ["peanuts"]),
        DietaryCode(code: "ATNT", label: "Tree Nuts", kind: .allergen, terms: ["tree_nuts"]),
        DietaryCode(code: "AWHT", label: "Wheat", kind: .allergen, terms: ["wheat"]),
        DietaryCode(code: "AGTN", label: "Gluten", kind: .allergen, terms: ["gluten"]),
        DietaryCode(code: "ASOY", label: "Soy", kind: .allergen, terms: ["soybeans"]),
        DietaryCode(code: "ASES", label: "Sesame", kind: .allergen, terms: ["sesame"]),
        DietaryCode(code: "AMLK", label: "Dairy", kind: .allergen, terms: ["milk"]),
        DietaryCode(code: "AEGG", label: "Eggs", kind: .allergen, terms: ["eggs"]),
        DietaryCode(code: "ACSF", label: "Crustacean Shellfish", kind: .allergen, terms: ["crustacean_shellfish"]),
        DietaryCode(code: "AFSH", label: "Fish", kind: .allergen, terms: ["fish"]),
        DietaryCode(code: "LC", label: "Low Carbon Footprint", kind: .sustainability, terms: ["low_carbon"]),
        DietaryCode(code: "HC", label: "High Carbon Footprint", kind: .sustainability, terms: ["high_carbon"]),
    ]

    private static let byCode = Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0) })

    /// The meaning of a code as printed; nil for a code this table does not know, which the
    /// pipeline reports as a warning rather than guessing.
    public static func lookup(_ code: String) -> DietaryCode? {
        byCode[code]
    }
}
