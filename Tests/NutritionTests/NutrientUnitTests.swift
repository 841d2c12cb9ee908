import FoodModel
import Nutrition
import Testing

@Suite struct NutrientUnitTests {
    private let vitaminD = NutrientKey("vitamin_d")
    private let vitaminE = NutrientKey("vitamin_e")

    /// The spellings the pipeline writes and those sources print read as the same units; any
    /// other word is no unit.
    @Test func unitsAreReadAsPrinted() {
        let spellings: [(String, NutrientUnit)] = [
            ("g", .g), ("mg", .mg), ("mcg", .mcg), ("kcal", .kcal), ("IU", .internationalUnit),
            (" g ", .g), ("Grams", .g), ("MG", .mg), ("µg", .mcg), ("μg", .mcg), ("ug", .mcg), ("Calories", .kcal),
            ("cal", .kcal), ("iu", .internationalUnit),
        ]
        for (label, unit) in spellings {
            #expect(NutrientUnit(label: label) == unit, "\(label)")
        }
        for label in ["", "kg", "oz", "%", "mg/dl", "g g"] {
            #expect(NutrientUnit(label: label) == nil, "\(label)")
        }
    }

    @Test func massUnitsConvertAmongThemselves() {
        #expect(NutrientUnit.g.convert(1.2, to: .mg, for: .sodium) == 1200)
        #expect(NutrientUnit.mcg.convert(150_000, to: .mg, for: .cholesterol) == 150)
        #expect(NutrientUnit.kcal.convert(10, to: .g, for: .calories) == nil)
    }

    /// NIH: vitamin D 1 IU = 0.025 mcg, vitamin A 1 IU = 0.3 mcg RAE (docs/nutrition.md).
    @Test func internationalUnitsConvertOnlyWhereOneMassIsAgreed() throws {
        #expect(try #require(NutrientUnit.internationalUnit.convert(400, to: .mcg, for: vitaminD)) == 10)
        #expect(abs(try #require(NutrientUnit.internationalUnit.convert(5000, to: .mcg, for: .vitaminA)) - 1500) < 1e-9)
        #expect(abs(try #require(NutrientUnit.mcg.convert(10, to: .internationalUnit, for: vitaminD)) - 400) < 1e-9)
        #expect(NutrientUnit.internationalUnit.convert(30, to: .mg, for: vitaminE) == nil)
        #expect(NutrientUnit.internationalUnit.convert(30, to: .mg, for: .iron) == nil)
    }

    @Test func aStandardReportsAUnitItCannotConvertInsteadOfGuessing() {
        let preRule = DailyValueStandard(name: "fda-pre-2016", description: "", values: [
            vitaminE: .init(amount: 30, unit: .internationalUnit), vitaminD: .init(amount: 400, unit: .internationalUnit),
        ])
        // 5 mcg of vitamin D is 200 IU, 50% of 400 IU.
        #expect(preRule.percent(of: vitaminD, amount: 5, unit: "mcg") == 50)
        let food = Food(id: FoodID(source: "t", recipeId: "1"), name: "t", nutrients: [
            NutrientValue(key: vitaminE, name: "Vitamin E", amount: 2, unit: "mg"),
            NutrientValue(key: vitaminD, name: "Vitamin D", amount: 5, unit: "mcg"),
        ])
        let unconvertible = preRule.unconvertible(in: food)
        #expect(unconvertible.map(\.nutrient.key) == [vitaminE])
        #expect(unconvertible.first?.reason == .unconvertible(unit: "mg", standardUnit: .internationalUnit))
        let applied = preRule.apply(to: food)
        #expect(applied.nutrients[0].computedDailyValuePercent == nil)
        #expect(applied.nutrients[1].computedDailyValuePercent == 50)
    }

    /// A vitamin's %DV takes the vitamin steps: 3 mcg of vitamin D is 15% of 20 mcg (fda-2016),
    /// 1 mcg is 5% → nearest 2% → 6% (halves away from zero).
    @Test func vitaminPercentagesTakeTheVitaminSteps() {
        let rule2016 = DailyValueStandard(name: "fda-2016", description: "", values: [
            vitaminD: .init(amount: 20, unit: .mcg),
        ])
        #expect(rule2016.labelPercent(of: vitaminD, amount: 3, unit: "mcg") == 15)
        #expect(rule2016.labelPercent(of: vitaminD, amount: 1, unit: "mcg") == 6)
    }
}
