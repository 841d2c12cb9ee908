import FoodModel
@testable import Pipeline
import Testing

/// U+FFFD (EF BF BD in UTF-8) is found wherever it stands in a name, and nothing else is taken
/// for it: not U+FFFC (EF BF BC), nor a character whose bytes start the same (U+F000, EF 80 80).
@Suite struct ReplacementCharacterScanTests {
    private func dataset(_ names: [String]) -> Dataset {
        let items = names.enumerated().map { index, name in MenuItem(source: "ucla", recipeId: "\(index)", name: name) }
        return Dataset(serviceDays: [ServiceDay(date: ServiceDate("2026-11-29")!, meals: [
            Meal(name: "Lunch", restaurants: [Restaurant(name: "Covel", sections: [Section(name: "Grill", foods: items)])]),
        ])])
    }

    @Test(arguments: ["\u{FFFD}", "Jalape\u{FFFD}o Poppers", "Cr\u{E8}me Br\u{FB}l\u{E9}e \u{FFFD}", "\u{F000}\u{FFFD}",
                      "\u{EF}\u{FFFD}", "ab\u{FFFD}"])
    func aReplacementCharacterIsFoundAnywhere(name: String) {
        #expect(ReplacementCharacters.firstText(in: dataset(["Bruin Burger", name])) == name)
    }

    @Test(arguments: ["", "Jalape\u{F1}o Poppers", "\u{FFFC}", "\u{F000}", "\u{F000}\u{BF}\u{BD}", "\u{EF}\u{BF}\u{BD}",
                      "ab\u{EF}"])
    func nothingElseIsTakenForOne(name: String) {
        #expect(ReplacementCharacters.firstText(in: dataset(["Bruin Burger", name])) == nil)
    }
}
