import FoodModel
import RecipeNutrition
import Testing

/// Measures weighed through SR24's household measures, worked out from the SR files by hand.
@Suite struct MeasureGramsTests {
    func food(_ id: String) throws -> NutritionReference.Food {
        try #require(try Reference.loaded().matcher.reference.foods[id])
    }

    func measure(_ quantity: Rational?, _ unit: String?, raw: String, kind: Measure.Kind = .quantity,
                 maximum: Rational? = nil) -> Measure {
        Measure(raw: raw, kind: kind, quantity: quantity, maximum: maximum, unit: unit, confidence: 1)
    }

    func grams(_ measure: Measure, _ id: String) throws -> Double {
        try MeasureGrams.grams(of: measure, food: try food(id)).get().grams
    }

    @Test func weightsAreConvertedAsTheyAre() throws {
        #expect(try grams(measure(Rational(250), "g", raw: "250g"), "01001") == 250)
        #expect(abs(try grams(measure(Rational(1), "lb", raw: "1 lb"), "01001") - 453.59237) < 1e-9)
        #expect(abs(try MeasureGrams.weight(1.5, unit: "oz").get().grams - 42.5242846875) < 1e-9)
    }

    @Test func aVolumeIsWeighedByTheFoodsOwnMeasure() throws {
        // Olive oil (04053): "1 tablespoon = 13.5 g"; 2 tbsp = 27 g.
        #expect(abs(try grams(measure(Rational(2), "tbsp", raw: "2 tbsp"), "04053") - 27) < 1e-9)
        // All-purpose flour (20081): "1 cup = 125 g"; honey (19296): "1 cup = 339 g".
        #expect(abs(try grams(measure(Rational(1), "cup", raw: "1 cup"), "20081") - 125) < 1e-9)
        #expect(abs(try grams(measure(Rational(1), "cup", raw: "1 cup"), "19296") - 339) < 1e-9)
        // Table salt (02047) has no ml measure: 100 ml through its first volume, "1 cup = 292 g"
        // (236.5882 ml): 100 × 292 / 236.5882 = 123.42 g.
        #expect(abs(try grams(measure(Rational(100), "ml", raw: "100ml"), "02047") - 123.4211) < 0.001)
        // A range counts its middle: 2-3 tbsp of olive oil is 2.5 × 13.5 = 33.75 g.
        #expect(abs(try grams(measure(Rational(2), "tbsp", raw: "2-3 tbsp", maximum: Rational(3)), "04053") - 33.75) < 1e-9)
    }

    @Test func countsAndItemsAreWeighedByTheMeasureThatNamesThem() throws {
        // Eggs (01123): "1 large = 50 g", "1 medium = 44 g"; garlic (11215): "1 clove = 3.0 g".
        #expect(try grams(measure(Rational(2), nil, raw: "2 large", kind: .count), "01123") == 100)
        #expect(try grams(measure(Rational(3), nil, raw: "3", kind: .count), "01123") == 132)
        #expect(try grams(measure(Rational(3), "clove", raw: "3 cloves", kind: .count), "11215") == 9)
        // Butter (01001): "1 stick = 113 g".
        #expect(try grams(measure(Rational(1), "stick", raw: "1 stick", kind: .count), "01001") == 113)
    }

    func reason(_ result: Result<MeasureGrams.Conversion, Unconverted>) -> String? {
        guard case .failure(let unconverted) = result else { return nil }
        return unconverted.reason
    }

    @Test func whatCannotBeWeighedSaysWhy() throws {
        let toTaste = MeasureGrams.grams(of: measure(nil, nil, raw: "to taste", kind: .unquantified), food: try food("02047"))
        #expect(reason(toTaste) == "no amount (to taste)")
        let handful = MeasureGrams.grams(of: measure(Rational(1), "handful", raw: "handful"), food: try food("11457"))
        #expect(reason(handful) == "Spinach, raw has no weight for a handful")
        // Butter has no volume of millilitres or counts of items: a count says so.
        let pats = MeasureGrams.grams(of: measure(Rational(2), nil, raw: "2", kind: .count), food: try food("01001"))
        #expect(reason(pats) == "Butter, salted has no weight for one item (2)")
        // The codes beside the wording: no amount at all, and a measure with no grams for the food.
        #expect([toTaste, handful, pats].map(code) == [.noAmount, .unconvertibleUnit, .unconvertibleUnit])
        #expect(code(MeasureGrams.weight(0, unit: "lb")) == .noAmount)
        #expect(code(MeasureGrams.weight(1, unit: "cup")) == .unconvertibleUnit)
    }

    func code(_ result: Result<MeasureGrams.Conversion, Unconverted>) -> EstimateLine.Code? {
        guard case .failure(let unconverted) = result else { return nil }
        return unconverted.code
    }
}
