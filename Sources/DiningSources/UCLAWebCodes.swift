import FoodModel

/// The web codes UCLA's menu site prints beside items, as images whose `alt` is the code.
///
/// The 2019 page's legend lists V, VG, the allergen codes, HAL and LC; ASES and HC appear on the
/// 2021 pages and in other scrapers. Labels follow the legend's wording, shortened to the thing
/// itself ("Contains Eggs" → "Eggs"), because the kind already says it is an allergen.
public enum UCLAWebCodes {
    public static let all: [DietaryCode] = [
        DietaryCode(code: "V", label: "Vegetarian", kind: .dietary),
        DietaryCode(code: "VG", label: "Vegan", kind: .dietary),
        DietaryCode(code: "HAL", label: "Halal", kind: .dietary),
        DietaryCode(code: "APNT", label: "Peanuts", kind: .allergen),
        DietaryCode(code: "ATNT", label: "Tree Nuts", kind: .allergen),
        DietaryCode(code: "AWHT", label: "Wheat", kind: .allergen),
        DietaryCode(code: "AGTN", label: "Gluten", kind: .allergen),
        DietaryCode(code: "ASOY", label: "Soy", kind: .allergen),
        DietaryCode(code: "ASES", label: "Sesame", kind: .allergen),
        DietaryCode(code: "AMLK", label: "Dairy", kind: .allergen),
        DietaryCode(code: "AEGG", label: "Eggs", kind: .allergen),
        DietaryCode(code: "ACSF", label: "Crustacean Shellfish", kind: .allergen),
        DietaryCode(code: "AFSH", label: "Fish", kind: .allergen),
        DietaryCode(code: "LC", label: "Low Carbon Footprint", kind: .sustainability),
        DietaryCode(code: "HC", label: "High Carbon Footprint", kind: .sustainability),
    ]

    private static let byCode = Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0) })

    /// The meaning of a code as printed; nil for a code this table does not know, which the
    /// pipeline reports as a warning rather than guessing.
    public static func lookup(_ code: String) -> DietaryCode? {
        byCode[code]
    }
}
