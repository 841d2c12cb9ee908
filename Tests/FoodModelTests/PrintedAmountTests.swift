import FoodModel
import Testing

/// How a printed value reads: bounds in signs and in words, with the unit the words name, put
/// into a nutrient in its own unit.
@Suite struct PrintedAmountTests {
    @Test func boundsInWordsReadLikeTheSign() {
        #expect(PrintedAmount("less than 1 gram") == .below(1, unit: "g"))
        #expect(PrintedAmount("less than 5 milligrams") == .below(5, unit: "mg"))
        #expect(PrintedAmount("less than 2 micrograms") == .below(2, unit: "mcg"))
        #expect(PrintedAmount("less than 1g") == .below(1, unit: "g"))
        #expect(PrintedAmount("Less Than 0.5 g") == .below(0.5, unit: "g"))
        #expect(PrintedAmount("LESS THAN 10 MG") == .below(10, unit: "mg"))
        #expect(PrintedAmount("less than 1") == .below(1))
        #expect(PrintedAmount("< 1") == .below(1))
        #expect(PrintedAmount("<1") == .below(1))
        #expect(PrintedAmount("< 1 mg") == .below(1, unit: "mg"))
        #expect(PrintedAmount("<.5g") == .below(0.5, unit: "g"))
    }

    /// DineOnCampus prints some bounds with a trailing "+" ("less than 1 gram+", in a UChicago
    /// answer): still a bound, the mark kept in the printed text, never read as "at least".
    @Test func aBoundWithATrailingMarkIsStillABound() {
        #expect(PrintedAmount("less than 1 gram+") == .below(1, unit: "g"))
        #expect(PrintedAmount("< 1+") == .below(1))
        #expect(PrintedAmount("0.5+") == .atLeast(0.5))
        var fibre = NutrientValue(key: .dietaryFiber, name: "Dietary Fiber", amount: nil, unit: "g")
        #expect(PrintedAmount("less than 1 gram+").record("less than 1 gram+", in: &fibre) == .below(1, unit: "g"))
        #expect(fibre.amount == nil && fibre.amountBelow == 1 && fibre.amountAtLeast == nil)
        #expect(fibre.printedAmount == "less than 1 gram+")
    }

    /// Large amounts printed with their digits grouped ("1,230" mg of sodium, as NetNutrition's
    /// labels and DineOnCampus's answers print a meal's) are numbers; a comma that groups no
    /// three digits is not read as one.
    @Test func digitsGroupedInThreesAreANumber() {
        #expect(PrintedAmount("1,230") == .number(1230))
        #expect(PrintedAmount("1,050.5") == .number(1050.5))
        #expect(PrintedAmount("12,345,678") == .number(12_345_678))
        #expect(PrintedAmount("1,000+") == .atLeast(1000))
        for text in ["1,5", "1,23", "12,3456", ",123", "1,230,", "1.230,5"] {
            #expect(PrintedAmount(text) == .unreadable, "\(text)")
        }
    }

    /// Words that are not a bound of a mass are not guessed at.
    @Test func wordsThatAreNoBoundAreUnreadable() {
        for text in ["less than", "less than a gram", "less than 1 pound", "lessthan 1 g", "less than 0 g",
                     "less than 1 gram of salt", "less than -1 g", "< 1e3", "more than 1 gram"] {
            #expect(PrintedAmount(text) == .unreadable, "\(text)")
        }
    }

    private func recorded(_ printed: String, unit: String?) -> (NutrientValue, PrintedAmount) {
        var nutrient = NutrientValue(key: .sodium, name: "Sodium", amount: nil, unit: unit)
        let reading = PrintedAmount(printed).record(printed, in: &nutrient)
        return (nutrient, reading)
    }

    /// The bound is in the nutrient's unit; the printed words stay as they were printed.
    @Test func aBoundInWordsIsExpressedInTheNutrientsUnit() {
        let cases: [(String, String?, Double, String?)] = [
            ("less than 1 gram", "g", 1, "g"), ("less than 5 milligrams", "mg", 5, "mg"),
            ("less than 500 milligrams", "g", 0.5, "g"), ("less than 350 mg", "g", 0.35, "g"),
            ("less than 1 gram", "mg", 1000, "mg"),
            ("less than 1 milligram", "mcg", 1000, "mcg"), ("less than 2 micrograms", "µg", 2, "µg"),
            ("Less Than 0.5 g", "G", 0.5, "G"), ("less than 5 milligrams", nil, 5, "mg"), ("< 1", "g", 1, "g"),
        ]
        for (printed, unit, bound, finalUnit) in cases {
            let (nutrient, reading) = recorded(printed, unit: unit)
            #expect(reading != .unreadable, "\(printed) in \(unit ?? "nothing")")
            #expect(nutrient.amount == nil)
            #expect(nutrient.amountBelow == bound, "\(printed) in \(unit ?? "nothing")")
            #expect(nutrient.unit == finalUnit)
            #expect(nutrient.printedAmount == printed)
        }
    }

    /// Milligrams of a nutrient counted in IU or kcal: no bound, the text kept, read as unreadable.
    @Test func aBoundInAnotherKindOfUnitGivesNoBound() {
        for unit in ["IU", "kcal"] {
            let (nutrient, reading) = recorded("less than 5 milligrams", unit: unit)
            #expect(reading == .unreadable)
            #expect(nutrient.amountBelow == nil && nutrient.amount == nil)
            #expect(nutrient.unit == unit)
            #expect(nutrient.printedAmount == "less than 5 milligrams")
        }
    }
}
