@testable import DiningSources
import Testing

/// The hand-written scanners replaced regex literals for speed; each case here is checked
/// against the regex it replaced (kept in the test as the specification) and, where a value
/// is named, against what the label says.
@Suite struct LabelScannerTests {
    static let lines = [
        "INGREDIENTS: Chicken, Salt", "Ingredients : Chicken", "ingredients:", "INGREDIENTS",
        "INGREDIENTS Chicken: Salt", "ALLERGENS*: Milk, Eggs", "Allergens * : Soy", "ALLERGENS: Wheat",
        "ALLERGENS**: Wheat", "Allergens: ", " INGREDIENTS: leading space", "INGREDIENTSX: no", "",
        "Serving Size: 1 each", "serving size 4 oz", "SERVING  SIZE :: 2", "Servingsize: 1", "Serving Size",
        "1 each", "Serving", "Size: 3 oz",
    ]

    @Test func labelsMatchTheRegexesTheyReplaced() {
        for line in Self.lines {
            let ingredients = line.wholeMatch(of: /(?i)^INGREDIENTS\s*:\s*(?<list>.*)$/).map { String($0.output.list) }
            let allergens = line.wholeMatch(of: /(?i)^ALLERGENS\s*\*?\s*:\s*(?<list>.*)$/).map { String($0.output.list) }
            let serving = line.replacing(/(?i)^serving\s+size\s*:?\s*/, with: "")
            #expect(LabelScanner.list(after: "INGREDIENTS", in: line).map(String.init) == ingredients, "\(line)")
            #expect(LabelScanner.list(after: "ALLERGENS", asterisk: true, in: line).map(String.init) == allergens, "\(line)")
            #expect(String(UCLAMenuSite.withoutServingSizeLabel(line)) == serving, "\(line)")
        }
    }

    @Test func labelsReadByHand() {
        #expect(LabelScanner.list(after: "ALLERGENS", asterisk: true, in: "Allergens * : Milk, Eggs") == "Milk, Eggs")
        #expect(LabelScanner.list(after: "INGREDIENTS", in: "INGREDIENTS Chicken: Salt") == nil)
        #expect(UCLAMenuSite.withoutServingSizeLabel("Serving Size: 1 each") == "1 each")
    }

    @Test func firstNumberMatchesTheRegexItReplaced() {
        let texts = ["33%", "Calories 459", "4.5g", "4.g", ".5", "a1.5.3", "no number", "", "12%DV 7",
                     "Vitamin B12 2.4mcg", "1,200", "0.25 each", "7."]
        for text in texts {
            let expected = text.firstMatch(of: /\d+(?:\.\d+)?/).flatMap { Double($0.output) }
            #expect(NutritionLabelRow.firstNumber(in: text) == expected, "\(text)")
        }
        #expect(NutritionLabelRow.firstNumber(in: "Calories 459") == 459)
        #expect(NutritionLabelRow.firstNumber(in: "4.g") == 4)
        #expect(NutritionLabelRow.firstNumber(in: "Vitamin B12 2.4mcg") == 12)
    }
}
