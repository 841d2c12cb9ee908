/// The one vocabulary of allergens and diets that every source's codes map onto, so that an
/// analyst asks one question ("vegan dishes without tree nuts") across every campus. Each
/// source keeps its codes raw (`AMLK`, `Dairy`, a Nutrislice icon); its legend says which of
/// these terms each code means (`DietaryCode.terms`), and a code no legend maps means none.
///
/// The allergens are the nine major food allergens of US law (the FALCPA of 2004 and the
/// FASTER Act of 2021, which added sesame), with gluten beside them because menus print it
/// apart from wheat, and alcohol, which UCLA's kitchen system lists among a dish's allergens
/// and which people avoid for the same kind of reason; the diets and the footprint labels are
/// what the sources print today.
///
/// A source's plain "Shellfish" mark (Nutrislice, DineOnCampus, NetNutrition) is read as crustacean
/// shellfish, the major allergen it stands for on US menus, though kitchens also set it on
/// molluscs (a clam chowder): such a dish is marked with an allergen it may not hold, rather than
/// an allergen it holds left unmarked. The code itself stays raw, so the difference can be asked.
/// What a code says of its allergen terms: that the food holds them, as a label's "contains"
/// says, or that it may, as a kitchen's cross-contact warning says (Bon Appétit's allergen icons:
/// "may contain peanuts: all items are prepared in an open kitchen that handles them"). The two
/// answer different questions, what is in the dish and what a person with the allergy should
/// ask about, so they are never merged. A diet or footprint term is always `contains`: the food
/// is that diet.
public enum TermPresence: String, Hashable, Sendable, Codable, CaseIterable {
    case contains
    case mayContain = "may_contain"
}

public struct VocabularyTerm: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable {
        case allergen, diet, sustainability
    }

    /// Lower-case, with underscores: the name queries use (`tree_nuts`).
    public var name: String
    public var kind: Kind
    public var label: String

    public init(_ name: String, _ kind: Kind, _ label: String) {
        self.name = name
        self.kind = kind
        self.label = label
    }
}

public enum Vocabulary {
    public static let terms: [VocabularyTerm] = [
        VocabularyTerm("milk", .allergen, "Milk"),
        VocabularyTerm("eggs", .allergen, "Eggs"),
        VocabularyTerm("fish", .allergen, "Fish"),
        VocabularyTerm("crustacean_shellfish", .allergen, "Crustacean shellfish"),
        VocabularyTerm("tree_nuts", .allergen, "Tree nuts"),
        VocabularyTerm("peanuts", .allergen, "Peanuts"),
        VocabularyTerm("wheat", .allergen, "Wheat"),
        VocabularyTerm("soybeans", .allergen, "Soybeans"),
        VocabularyTerm("sesame", .allergen, "Sesame"),
        VocabularyTerm("gluten", .allergen, "Gluten"),
        VocabularyTerm("alcohol", .allergen, "Alcohol"),
        VocabularyTerm("vegan", .diet, "Vegan"),
        VocabularyTerm("vegetarian", .diet, "Vegetarian"),
        VocabularyTerm("halal", .diet, "Halal"),
        VocabularyTerm("kosher", .diet, "Kosher"),
        VocabularyTerm("jain", .diet, "Jain"),
        VocabularyTerm("low_carbon", .sustainability, "Low carbon footprint"),
        VocabularyTerm("high_carbon", .sustainability, "High carbon footprint"),
    ]
}
