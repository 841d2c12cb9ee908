import FoodModel

/// Words that carry meaning in a measure without being units.
enum MeasureVocabulary {
    /// Number words TheMealDB writes instead of digits ("Juice of one", "Half").
    static let numberWords: [String: Rational] = {
        var words: [String: Rational] = [:]
        let names = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                     "eleven", "twelve"]
        for (offset, name) in names.enumerated() {
            if let value = Rational(offset + 1) { words[name] = value }
        }
        words["half"] = Rational(1, 2)
        words["quarter"] = Rational(1, 4)
        return words
    }()

    /// Sizes that may stand between a number and its unit ("4 thick slices", "6 medium cloves").
    static let sizeAdjectives: Set<String> = [
        "large", "small", "medium", "big", "thick", "thin", "fresh", "heaped", "level", "rounded",
        "generous", "whole", "good", "mild",
    ]

    /// Words saying the amount is left to the cook on purpose ("To taste", "For frying", "Garnish").
    static let purposeWords: Set<String> = [
        "taste", "serve", "serving", "garnish", "garnishing", "topping", "top", "fry", "frying",
        "glaze", "glazing", "greasing", "brushing", "required", "needed", "necessary", "optional",
        "decorate", "decoration",
    ]

    /// Preparations given in place of an amount ("Chopped", "Steamed"): no amount was written,
    /// but the author also did not say it is up to taste, so these are read with low confidence.
    static let preparationWords: Set<String> = [
        "chopped", "sliced", "diced", "grated", "beaten", "crushed", "minced", "ground", "shaved",
        "steamed", "boiled", "cooked", "peeled", "melted", "softened", "halved", "mashed",
        "shredded", "cubed", "and", "finely", "roughly", "thinly",
    ]

    /// "3rd" (of a cucumber): an ordinal used as a fraction.
    static let ordinalSuffixes: Set<String> = ["st", "nd", "rd", "th"]
}
