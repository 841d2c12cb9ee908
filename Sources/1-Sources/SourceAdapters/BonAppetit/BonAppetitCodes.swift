import Foundation
import FoodModel
import SourceReading

/// Bon Appétit's menu icons (`cor_icon`), by the label the platform prints for them, lower-cased:
/// the label is what every café's answer spells the same way, while an icon's number is only
/// meaningful within the answer's own `cor_icons` table. An icon not here is kept as printed and
/// reported by the unknown-code check.
///
/// The platform's allergen icons do not say a dish contains the allergen: its legend marks them
/// `allergen: "1"` and describes each as "May contain peanuts. All menu items are prepared in an
/// open kitchen that handles all major allergens". Their codes therefore say so ("may contain
/// peanut"), and mean the allergen as `may_contain`; the same label under a legend entry that
/// does not say "may contain" is the plain label, meaning `contains`. The codes differ, not only
/// their meanings, because one snapshot may hold another platform's "peanut", which is a
/// "contains".
enum BonAppetitCodes {
    /// The allergen icons of the platform's legend (Penn's cafés answer, 2022), with their terms.
    static let allergenIcons: [(label: String, terms: [String])] = [
        ("Peanut", ["peanuts"]), ("Tree Nut", ["tree_nuts"]), ("Fish", ["fish"]),
        ("Shellfish", ["crustacean_shellfish"]), ("Wheat/Gluten", ["wheat", "gluten"]), ("Soy", ["soybeans"]),
        ("Milk", ["milk"]), ("Egg", ["eggs"]),
    ]

    static let legend: [DietaryCode] = allergenIcons.flatMap { icon in
        [DietaryCode(code: mayContain + code(of: icon.label), label: "May contain " + icon.label.lowercased(),
                     kind: .allergen, terms: icon.terms, presence: .mayContain),
         DietaryCode(code: code(of: icon.label), label: icon.label, kind: .allergen, terms: icon.terms)]
    } + [
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
        DietaryCode(code: "jain", label: "Jain", kind: .dietary, terms: ["jain"]),
        DietaryCode(code: "organic", label: "Organic (95% of ingredients by weight, USDA certified)", kind: .sustainability),
        DietaryCode(code: "garden grown", label: "Garden grown (the café's own garden)", kind: .sustainability),
        // The Food Code's consumer advisory on raw or undercooked animal foods: a food-safety
        // warning, not an allergen or a diet.
        DietaryCode(code: "raw/undercooked", label: "Raw or undercooked", kind: .dietary),
        // An allergen icon that names no allergen: the kitchen answers for the item.
        DietaryCode(code: "ask us", label: "Ask us (ingredients and allergens from the kitchen)", kind: .allergen),
    ]

    private static let mayContain = "may contain "

    /// The code of an icon label as printed ("Vegan", " vegan "): trimmed and lower-cased.
    static func code(of label: String) -> String {
        label.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// The code of an icon printed as `label`, read by its legend `entry` where the answer has
    /// one: an allergen icon (`allergen: "1"`) whose description says "may contain" gets the
    /// "may contain" code, one whose description does not gets its plain label. Without an entry,
    /// or one that does not say whether it is an allergen, a label of the platform's allergen
    /// icons is read as its legend reads it everywhere it is published: may contain.
    static func code(of label: String, entry: [String: Any]?) -> String {
        let plain = code(of: label)
        switch entry.flatMap({ JSONFields.text($0["allergen"]) }) {
        case "1":
            let description = entry.flatMap { JSONFields.text($0["description"]) } ?? ""
            return description.range(of: "may contain", options: .caseInsensitive) != nil ? mayContain + plain : plain
        case "0":
            return plain
        default:
            return allergenIcons.contains { code(of: $0.label) == plain } ? mayContain + plain : plain
        }
    }
}
