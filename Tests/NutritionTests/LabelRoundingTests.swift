import FoodModel
import Nutrition
import Testing

/// Every boundary of docs/nutrition.md (21 CFR 101.9(c); Food Labeling Guide, Appendix H), with
/// the values on both sides typed by hand from the rule's text.
@Suite struct LabelRoundingTests {
    private func declared(_ rule: LabelRoundingRule, _ amount: Double) -> LabelAmount { rule.declare(amount) }

    @Test func calories() {
        let rule = LabelRoundingRule.calories
        #expect(declared(rule, 0) == .exactly(0))
        #expect(declared(rule, 4.99) == .exactly(0))        // < 5 → 0
        #expect(declared(rule, 5) == .exactly(5))           // 5 is the first amount rounded to 5s
        #expect(declared(rule, 7.4) == .exactly(5))
        #expect(declared(rule, 7.5) == .exactly(10))        // halves go up
        #expect(declared(rule, 47.5) == .exactly(50))
        #expect(declared(rule, 50) == .exactly(50))         // ≤ 50 → nearest 5
        #expect(declared(rule, 50.1) == .exactly(50))       // > 50 → nearest 10
        #expect(declared(rule, 54.9) == .exactly(50))
        #expect(declared(rule, 55) == .exactly(60))
        #expect(declared(rule, 52.5) == .exactly(50))       // 52.5 to the nearest 10, not 5
    }

    @Test func fats() {
        let rule = LabelRoundingRule.fats
        #expect(declared(rule, 0.49) == .exactly(0))        // < 0.5 g → 0
        #expect(declared(rule, 0.5) == .exactly(0.5))
        #expect(declared(rule, 0.74) == .exactly(0.5))
        #expect(declared(rule, 0.75) == .exactly(1))
        #expect(declared(rule, 2.3) == .exactly(2.5))
        #expect(declared(rule, 4.74) == .exactly(4.5))
        #expect(declared(rule, 4.75) == .exactly(5))        // still the 0.5 g tier, rounds to 5
        #expect(declared(rule, 4.99) == .exactly(5))
        #expect(declared(rule, 5) == .exactly(5))           // ≥ 5 g → nearest 1 g
        #expect(declared(rule, 5.49) == .exactly(5))
        #expect(declared(rule, 5.5) == .exactly(6))
    }

    @Test func cholesterolIncludingLessThanFiveMilligrams() {
        let rule = LabelRoundingRule.cholesterol
        #expect(declared(rule, 1.99) == .exactly(0))        // < 2 mg → 0
        #expect(declared(rule, 2) == .lessThan(5))          // 2–5 mg → "less than 5 mg"
        #expect(declared(rule, 5) == .lessThan(5))
        #expect(declared(rule, 5.01) == .exactly(5))        // > 5 mg → nearest 5 mg
        #expect(declared(rule, 7.49) == .exactly(5))
        #expect(declared(rule, 7.5) == .exactly(10))
        #expect(declared(rule, 2).description == "less than 5")
    }

    @Test func sodium() {
        let rule = LabelRoundingRule.sodium
        #expect(declared(rule, 4.99) == .exactly(0))        // < 5 mg → 0
        #expect(declared(rule, 5) == .exactly(5))           // 5–140 mg → nearest 5 mg
        #expect(declared(rule, 7.49) == .exactly(5))
        #expect(declared(rule, 7.5) == .exactly(10))
        #expect(declared(rule, 137.5) == .exactly(140))
        #expect(declared(rule, 140) == .exactly(140))
        #expect(declared(rule, 140.1) == .exactly(140))     // > 140 mg → nearest 10 mg
        #expect(declared(rule, 142.5) == .exactly(140))     // 142.5 to the nearest 10, not 5
        #expect(declared(rule, 145) == .exactly(150))
    }

    @Test func carbohydrateFiberSugarsProteinIncludingLessThanOneGram() {
        do {
            let rule = LabelRoundingRule.carbohydrates
            #expect(declared(rule, 0.49) == .exactly(0))    // < 0.5 g → 0
            #expect(declared(rule, 0.5) == .lessThan(1))    // < 1 g → "less than 1 g"
            #expect(declared(rule, 0.99) == .lessThan(1))
            #expect(declared(rule, 1) == .exactly(1))       // else nearest 1 g
            #expect(declared(rule, 1.49) == .exactly(1))
            #expect(declared(rule, 1.5) == .exactly(2))
        }
        for key in [NutrientKey.totalCarbohydrate, .dietaryFiber, .sugars, .protein, .addedSugars] {
            #expect(LabelRoundingRule.amountRule(for: key) == .carbohydrates)
        }
    }

    @Test func macronutrientPercentToTheNearestWholePercent() {
        let rule = LabelRoundingRule.macronutrientPercent
        #expect(declared(rule, 11.49) == .exactly(11))
        #expect(declared(rule, 11.5) == .exactly(12))
        #expect(declared(rule, 0.49) == .exactly(0))
        // 100 × 2.3 / 20 is 11.499999999999998 in binary floating point; the label's 11.5 → 12.
        #expect(declared(rule, 100 * 2.3 / 20) == .exactly(12))
    }

    @Test func vitaminAndMineralPercentSteps() {
        let rule = LabelRoundingRule.vitaminMineralPercent
        #expect(declared(rule, 1.99) == .exactly(0))        // < 2% → 0
        #expect(declared(rule, 2) == .exactly(2))           // ≤ 10% → nearest 2%
        #expect(declared(rule, 2.99) == .exactly(2))
        #expect(declared(rule, 3) == .exactly(4))
        #expect(declared(rule, 9) == .exactly(10))
        #expect(declared(rule, 10) == .exactly(10))
        #expect(declared(rule, 10.1) == .exactly(10))       // 10–50% → nearest 5%
        #expect(declared(rule, 12.5) == .exactly(15))
        #expect(declared(rule, 47.5) == .exactly(50))
        #expect(declared(rule, 50) == .exactly(50))
        #expect(declared(rule, 50.1) == .exactly(50))       // > 50% → nearest 10%
        #expect(declared(rule, 54.9) == .exactly(50))
        #expect(declared(rule, 55) == .exactly(60))
    }

    @Test func amountsADeclarationStandsForCrossTiers() {
        // 140 mg of sodium: 137.5–140 by the 5 mg tier, 140–145 by the 10 mg tier.
        #expect(LabelRoundingRule.sodium.amounts(declaring: 140) == 137.5...145)
        #expect(LabelRoundingRule.fats.amounts(declaring: 2.5) == 2.25...2.75)
        #expect(LabelRoundingRule.fats.amounts(declaring: 0) == 0...0.5)
        // 5 g of fat: 4.75–5 by the 0.5 g tier, 5–5.5 by the 1 g tier.
        #expect(LabelRoundingRule.fats.amounts(declaring: 5) == 4.75...5.5)
        #expect(LabelRoundingRule.fats.amounts(declaring: 2.3) == nil)
        // "5 mg" is declared only above 5 mg (2–5 mg is "less than 5 mg").
        #expect(LabelRoundingRule.cholesterol.amounts(declaring: 5) == 5...7.5)
        #expect(LabelRoundingRule.cholesterol.amounts(declaring: 0) == 0...2)
        #expect(LabelRoundingRule.cholesterol.amounts(declaring: 10) == 7.5...12.5)
    }
}
