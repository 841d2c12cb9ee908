import FoodModel
import Snapshot

/// What a feed says about a served food in words: its diets and allergens from the one
/// vocabulary (`v_food_term`; an allergen the source says it only may hold is "May contain",
/// never "Allergen"), then its calories per serving; never a raw source code.
enum ItemWords {
    static func notes(of food: FeedFood?) -> [String] {
        guard let food else { return [] }
        let diets = food.terms.filter { $0.kind != "allergen" }.map(\.label)
        let allergens = food.terms.filter { $0.kind == "allergen" }.map {
            $0.presence == TermPresence.mayContain.rawValue ? "May contain: \($0.label)" : "Allergen: \($0.label)"
        }
        let calories = food.caloriesPerServing.flatMap { Int(exactly: $0.rounded()) }.map { ["\($0) kcal per serving"] } ?? []
        return diets + allergens + calories
    }

    /// The diets of a food, for a line of a calendar's menu: "Vegan, Low carbon".
    static func diets(of food: FeedFood?) -> String? {
        let diets = food?.terms.filter { $0.kind != "allergen" }.map(\.label) ?? []
        return diets.isEmpty ? nil : diets.joined(separator: ", ")
    }
}
