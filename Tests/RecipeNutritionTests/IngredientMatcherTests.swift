import FoodModel
@testable import RecipeNutrition
import Testing

/// Names as recipes write them, matched by each rule, and unknowns that stay unknown with a reason.
/// The words a name is matched by: case and diacritics folded, an escaped ampersand read as one,
/// plurals made singular, descriptors dropped; ASCII names (folded without Foundation) and the
/// others fold alike.
@Suite struct IngredientWordsTests {
    @Test func namesFoldToTheWordsTheyAreMatchedBy() {
        let cases: [(String, [String])] = [
            ("Organic Firm Tofu", ["firm", "tofu"]),
            ("Garlic Cloves", ["garlic", "clove"]),
            ("Salt &amp; Pepper", ["salt", "pepper"]),
            ("POTATO BLANCHED DICED 3/4\"", ["potato"]),
            ("Tomatoes, Cherry", ["tomato", "cherry"]),
            ("Jalapeño Peppers", ["jalapeno", "pepper"]),
            ("CRÈME FRAÎCHE", ["creme", "fraiche"]),
            ("Fish & Chips", ["fish", "chip"]),
            ("Berries, Radishes, Peaches, Boxes, Glasses", ["berry", "radish", "peach", "box", "glass"]),
            ("Asparagus, Bass, Eggs, Oats", ["asparagus", "bass", "egg", "oat"]),
            ("Jalapeños Rellenos", ["jalapeno", "relleno"]),
        ]
        for (name, words) in cases {
            #expect(IngredientWords.of(name) == words, "\(name)")
        }
        #expect(IngredientWords.of("Fresh Basil", keepDescriptors: true) == ["fresh", "basil"])
    }
}

/// A word of three capitals or more marks a branded food, whatever the letters are.
@Suite struct BrandedNameTests {
    @Test func aWordInCapitalsMarksABrand() {
        for name in ["BANQUET Chicken Pot Pie", "CAMPBELL'S Soup, chicken noodle", "Chicken, broiler, BBQ",
                     "PAM Cooking Spray", "Crème BRÛLÉE, frozen"] {
            #expect(IngredientMatcher.isBranded(name), "\(name)")
        }
        for name in ["Cheese, cheddar", "Soup, NS as to type", "OsCAR's Mustard", "McDONALD'S, hamburger",
                     "Pâté de foie gras, canned", ""] {
            #expect(!IngredientMatcher.isBranded(name), "\(name)")
        }
    }
}

@Suite struct IngredientMatcherTests {
    func match(_ name: String) throws -> Result<IngredientMatcher.Match, Unmatched> {
        try Reference.loaded().matcher.match(name)
    }

    @Test func curatedSynonymsMatchHoweverTheNameIsSpelt() throws {
        // usda-sr24-synonyms.yml: "tofu: 16426", "garlic clove: 11215", "chicken thigh: 05096".
        for (name, id) in [("Organic Firm Tofu", "16426"), ("Garlic Cloves", "11215"), ("garlic clove", "11215"),
                           ("Chicken Thigh, Boneless", "05096"), ("Crème Fraiche", "01056")] {
            let matched = try match(name).get()
            #expect(matched.food.id == id, "\(name)")
            #expect(matched.rule == "synonym" && matched.score == 1, "\(name)")
        }
    }

    /// A bare word keeps the food its own phrase gives, not one a phrase with a word of
    /// preparation gave ("minced pork", read as "pork", once made every pork ground pork).
    @Test func aBareWordKeepsItsOwnSynonym() throws {
        // usda-sr24-synonyms.yml: "pork: 10020", "tomato: 11529", "thyme: 02042", "pea: 11304".
        for (name, id) in [("Pork", "10020"), ("Minced Pork", "10020"), ("Tomatoes", "11529"), ("Fresh Thyme", "02042"),
                           ("Frozen Peas", "11304")] {
            let matched = try match(name).get()
            #expect(matched.food.id == id, "\(name)")
        }
    }

    @Test func aFoodNamingEveryWordIsChosenByItsScore() throws {
        // "Pomegranates" is no synonym; "Pomegranates, raw" (09286) names its word: 0.5 × 1/2 +
        // 0.3 (pomegranate in its first two segments) + 0.2 (raw) = 0.75, above the juice's 0.47.
        let matched = try match("Pomegranates").get()
        #expect(matched.food.id == "09286")
        #expect(matched.rule == "words")
        #expect(abs(matched.score - 0.75) < 1e-9)
    }

    @Test func theHeadWordsMatchWhenTheyKeepHalfTheName() throws {
        // No SR food names "purple"; "kale" is a synonym (11233, Kale, raw): half the words kept.
        let matched = try match("Purple Kale").get()
        #expect(matched.food.id == "11233")
        #expect(matched.rule == "head words")
        #expect(matched.score == 0.5)
    }

    @Test func anOverrideWinsAndCanKeepANameUnknown() throws {
        guard case .failure(let unmatched) = try match("Custom Recipe Ingredient") else {
            Issue.record("a placeholder row was matched")
            return
        }
        #expect(unmatched.reason == "unknown by override: a placeholder row of the kitchen system, not a food")
        #expect(unmatched.code == .unknownByOverride)
    }

    @Test func anUnknownNameStaysUnknownWithTheReason() throws {
        guard case .failure(let unmatched) = try match("Zorblax Paste") else {
            Issue.record("a made-up name was matched")
            return
        }
        #expect(unmatched.reason == "no food of usda-sr24 names every word (zorblax paste)")
        #expect(unmatched.code == .unmatchedName)
        // A food that names every word but scores too low is named with its score: "Beef, variety
        // meats and by-products, liver, raw" (13325) has liver outside its first two segments:
        // 0.5 × 2/8 + 0.2 = 0.325.
        guard case .failure(let low) = try match("Beef Liver") else {
            Issue.record("a low score was accepted")
            return
        }
        #expect(low.reason.hasPrefix("the closest food, Beef, variety meats and by-products, liver, raw (13325), scored 0.3"))
        #expect(low.reason.hasSuffix(", below 0.55"))
    }
}
