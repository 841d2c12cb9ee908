import Foundation
import FoodModel

/// Bon Appétit's menu icons (`cor_icon`), by the label the platform prints for them, lower-cased:
/// the label is what every café's answer spells the same way, while an icon's number is only
/// meaningful within the answer's own `cor_icons` table. An icon not here is kept as printed and
/// reported by the unknown-code check.
enum BonAppetitCodes {
    static let legend: [DietaryCode] = [
        DietaryCode(code: "vegan", label: "Vegan", kind: .dietary, terms: ["vegan"]),
        DietaryCode(code: "vegetarian", label: "Vegetarian", kind: .dietary, terms: ["vegetarian"]),
        DietaryCode(code: "halal", label: "Halal", kind: .dietary, terms: ["halal"]),
        DietaryCode(code: "kosher", label: "Kosher", kind: .dietary, terms: ["kosher"]),
        // Made in kitchens that handle gluten, so a claim about the recipe, not the absence the
        // vocabulary's gluten term would need: no term says it.
        DietaryCode(code: "made without gluten-containing ingredients",
                    label: "Made without gluten-containing ingredients", kind: .dietary),
        // The platform's sourcing and balance programmes: facts about the ingredients' origin,
        // which no term of the vocabulary (allergens, diets, carbon footprint) expresses.
        DietaryCode(code: "seafood watch", label: "Seafood Watch (Monterey Bay Aquarium)", kind: .sustainability),
        DietaryCode(code: "farm to fork", label: "Farm to Fork", kind: .sustainability),
        DietaryCode(code: "humane", label: "Humanely raised", kind: .sustainability),
        DietaryCode(code: "locally crafted", label: "Locally crafted", kind: .sustainability),
        DietaryCode(code: "in balance", label: "In Balance", kind: .dietary),
    ]

    /// The code of an icon label as printed ("Vegan", " vegan "): trimmed and lower-cased.
    static func code(of label: String) -> String {
        label.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}
