import FoodModel
import Nutrition
import Testing

/// The %DV a serving can reach, and the flags past it: the 2016 FDA values of docs/nutrition.md
/// (vitamin D 20 mcg, sodium 2,300 mg, iron 18 mg) by hand.
@Suite struct DailyValueCeilingTests {
    let fda2016 = DailyValueStandard(name: "fda-2016", description: "", values: [
        NutrientKey("vitamin_d"): .init(amount: 20, unit: .mcg),
        .sodium: .init(amount: 2300, unit: .mg),
        .iron: .init(amount: 18, unit: .mg),
    ])

    /// Vitamin D of an egg sandwich, 1.1, read in mg (a key's prefix that lies): 1,100 mcg is
    /// 5,500% of 20 mcg, past the 1,000% ceiling; read in mcg it is 5.5% (the label steps: 6%).
    @Test func aMicrogramReadAsAMilligramIsFlagged() {
        func sandwich(_ unit: String) -> Food {
            Food(id: FoodID(source: "nutrislice", recipeId: "1"), name: "Egg Sandwich",
                 nutrients: [NutrientValue(key: NutrientKey("vitamin_d"), name: "Vitamin D", amount: 1.1, unit: unit)],
                 labelBasis: .serving)
        }
        let wrong = fda2016.apply(to: sandwich("mg"))
        #expect(wrong.nutrients.first?.computedDailyValuePercent == 5500)
        let flags = DailyValueCeiling.flags(for: wrong)
        #expect(flags.map(\.check) == ["dv_ceiling"] && flags.first?.nutrient == NutrientKey("vitamin_d"))
        #expect(flags.first?.message.hasPrefix("Vitamin D is 5500% of its daily value per serving") == true)
        let right = fda2016.apply(to: sandwich("mcg"))
        #expect(right.nutrients.first?.computedDailyValuePercent == 6)
        #expect(DailyValueCeiling.flags(for: right).isEmpty)
    }

    /// A per-100 g label is scaled by the serving before the ceiling: UCLA's Szechuan-Style
    /// Chicken Stir Fry prints 1,286.81 mg of sodium per 100 g with a 343.45 oz "portion"
    /// (9,736.6 g): 125,292 mg a serving, 5,448% of 2,300 mg. The same label on a 6 oz serving
    /// (170.1 g: 2,188.9 mg, 95%) passes; with no weight to scale by, nothing is judged.
    @Test func aPer100GramLabelIsJudgedPerServing() throws {
        var stirFry = Food(id: FoodID(source: "ucla-jamix", recipeId: "recipe-1"), name: "Szechuan-Style Chicken Stir Fry",
                           servingSize: "343.45 oz",
                           nutrients: [NutrientValue(key: .sodium, name: "Sodium", amount: 1286.81, unit: "mg")],
                           labelBasis: .hundredGrams)
        stirFry.serving = ServingSize(amount: 343.45, unit: "oz")
        let computed = fda2016.apply(to: stirFry)
        // Two decimals on a per-100 g label: 1,286.81 / 2,300 = 55.948...%.
        #expect(computed.nutrients.first?.computedDailyValuePercent == 55.95)
        let flagged = try #require(DailyValueCeiling.exceeded(in: computed).first)
        #expect(abs(flagged.percentPerServing - 55.95 * 343.45 * 28.349523125 / 100) < 1e-9)
        #expect(flagged.percentPerServing.rounded() == 5448)

        var sixOunces = computed
        sixOunces.servingSize = "6 oz"
        sixOunces.serving = ServingSize(amount: 6, unit: "oz")
        #expect(DailyValueCeiling.flags(for: sixOunces).isEmpty)
        var each = computed
        each.servingSize = "1 each"
        each.serving = ServingSize(amount: 1, unit: "each")
        #expect(each.servingGrams == nil && DailyValueCeiling.flags(for: each).isEmpty)
    }

    /// A printed %DV on a per-100 g label agrees to two decimals, allowing half a unit of the
    /// amount and of the percent: 20.6 g of fat is 26.41% of 78 g (26.4102...), as UCLA prints.
    @Test func aKitchenPercentAgreesToTwoDecimals() throws {
        let standard = DailyValueStandard(name: "fda-2016", description: "",
                                          values: [.totalFat: .init(amount: 78, unit: .g)])
        let fat = NutrientValue(key: .totalFat, name: "Total Fat", amount: 20.6, unit: "g", printedDailyValuePercent: 26.41)
        let agreement = try #require(standard.agreement(of: fat, basis: .hundredGrams))
        #expect(agreement.agrees && agreement.percentFromDeclared == 26.41)
        var off = fat
        off.printedDailyValuePercent = 26.5
        #expect(standard.agreement(of: off, basis: .hundredGrams)?.agrees == false)
        // Read as a US label, 26.41 is no %DV a label prints (whole percents): it disagrees.
        #expect(standard.agreement(of: fat, basis: .serving)?.agrees == false)
    }
}
