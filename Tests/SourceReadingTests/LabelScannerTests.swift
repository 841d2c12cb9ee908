@testable import SourceReading
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
            #expect(String(LabelScanner.withoutServingSizeLabel(line)) == serving, "\(line)")
        }
    }

    @Test func labelsReadByHand() {
        #expect(LabelScanner.list(after: "ALLERGENS", asterisk: true, in: "Allergens * : Milk, Eggs") == "Milk, Eggs")
        #expect(LabelScanner.list(after: "INGREDIENTS", in: "INGREDIENTS Chicken: Salt") == nil)
        #expect(LabelScanner.withoutServingSizeLabel("Serving Size: 1 each") == "1 each")
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

/// The label row scanner against the regex it replaced, on every short string over an alphabet
/// of the characters that matter (digits, point, letters, µ, spaces, a non-ASCII letter).
@Suite struct NutritionLabelRowScanTests {
    static func byRegex(_ text: String) -> NutritionLabelRow {
        let pattern = /^(?<name>.*?)\s*(?<amount>\d+(?:\.\d+)?|\.\d+)\s*(?<unit>[A-Za-zµ]+)?$/
        var row = NutritionLabelRow("")
        guard let match = text.wholeMatch(of: pattern), let amount = Double(match.output.amount),
              !match.output.name.isEmpty
        else {
            row.name = text
            return row
        }
        row.name = String(match.output.name)
        row.amount = amount
        row.unit = match.output.unit.map(String.init)
        return row
    }

    @Test func everyShortStringSplitsAsTheRegexSplitIt() {
        let alphabet: [String] = ["a", "1", ".", "g", " ", "µ", "\u{00A0}", "é"]
        var texts = [""]
        var frontier = [""]
        for _ in 1...5 {
            frontier = frontier.flatMap { prefix in alphabet.map { prefix + $0 } }
            texts += frontier
        }
        var differences: [String] = []
        for text in texts where NutritionLabelRow(text) != Self.byRegex(text) {
            differences.append(text.debugDescription)
        }
        #expect(differences.isEmpty, "\(differences.prefix(10))")
    }

    struct Parts: Equatable {
        var name: String
        var amount: Double?
        var unit: String?
    }

    func parts(_ text: String) -> Parts {
        let row = NutritionLabelRow(text)
        return Parts(name: row.name, amount: row.amount, unit: row.unit)
    }

    @Test func rowsReadByHand() {
        #expect(parts("Total Fat 21.3g") == Parts(name: "Total Fat", amount: 21.3, unit: "g"))
        #expect(parts("Vitamin B12 2.4mcg") == Parts(name: "Vitamin B12", amount: 2.4, unit: "mcg"))
        #expect(parts("Protein 0g") == Parts(name: "Protein", amount: 0, unit: "g"))
        #expect(parts("Cholesterol .5 mg") == Parts(name: "Cholesterol", amount: 0.5, unit: "mg"))
        #expect(parts("Calories") == Parts(name: "Calories", amount: nil, unit: nil))
        #expect(parts("12g") == Parts(name: "12g", amount: nil, unit: nil))
    }
}
