import FoodModel
import Nutrition
import Testing

@Suite struct DailyValueAgreementTests {
    private func agreement(_ key: NutrientKey, _ amount: Double, _ unit: String, printed: Double)
        -> DailyValueAgreement?
    {
        uclaLabel.agreement(of: NutrientValue(key: key, name: key.rawValue, amount: amount, unit: unit,
                                              printedDailyValuePercent: printed))
    }

    /// 2.3 g of saturated fat is 11.5% of 20 g: 12% from the printed grams, but the unrounded
    /// grams (2.25–2.35) give 11–12%, so a printed 11% is lawful too.
    @Test func aPrintedPercentFromTheUnroundedAmountAgrees() throws {
        let twelve = try #require(agreement(.saturatedFat, 2.3, "g", printed: 12))
        #expect(twelve.agreesFromDeclared && twelve.agrees)
        #expect(twelve.percentFromDeclared == 12)
        let eleven = try #require(agreement(.saturatedFat, 2.3, "g", printed: 11))
        #expect(!eleven.agreesFromDeclared)
        #expect(eleven.agreesFromUnrounded)
        #expect(eleven.unroundedAmounts == 2.25...2.35)
    }

    /// 10 g of fat is 15.4% of 65 g; 9.5–10.5 g give 15–16%: 20% is wrong either way.
    @Test func aPercentNoAmountGivesDisagrees() throws {
        let wrong = try #require(agreement(.totalFat, 10, "g", printed: 20))
        #expect(!wrong.agrees)
        #expect(wrong.percentFromDeclared == 15)
    }

    /// An FDA label declares fat in 0.5 g steps: "2.5 g" stands for 2.25–2.75 g, i.e. 3.5–4.2%
    /// of 65 g, so 3% (from 2.26 g, say) is lawful though 2.5 g itself gives 4%.
    @Test func anFDARoundedAmountStandsForItsWholeRoundingRange() throws {
        let result = try #require(agreement(.totalFat, 2.5, "g", printed: 3))
        #expect(!result.agreesFromDeclared)
        #expect(result.agreesFromUnrounded)
        #expect(result.unroundedAmounts == 2.25...2.75)
    }

    /// 21 CFR 101.9(c)(8)(iii): a vitamin or mineral under 2% "may be" declared as zero, so its
    /// nearest 2% step is lawful as well. 20 mg of calcium is 1.54% of 1,300 mg: 0% or 2%, not 4%;
    /// 10 mg (0.77%) rounds to 0 either way. A daily reference value has no such choice.
    @Test func aVitaminOrMineralUnderTwoPercentMayPrintZeroOrItsStep() throws {
        let standard = DailyValueStandard(name: "t", description: "", values: [
            .calcium: .init(amount: 1300, unit: .mg), .sodium: .init(amount: 2300, unit: .mg),
        ])
        func agreement(_ key: NutrientKey, _ amount: Double, printed: Double) throws -> DailyValueAgreement {
            try #require(standard.agreement(of: NutrientValue(key: key, name: key.rawValue, amount: amount, unit: "mg",
                                                              printedDailyValuePercent: printed)))
        }
        #expect(try agreement(.calcium, 20, printed: 0).agrees)
        let two = try agreement(.calcium, 20, printed: 2)
        #expect(two.agreesFromDeclared && two.percentFromDeclared == 0)
        #expect(!(try agreement(.calcium, 20, printed: 4)).agrees)
        #expect(try agreement(.calcium, 10, printed: 0).agrees)
        #expect(!(try agreement(.calcium, 10, printed: 2)).agrees)
        // 23 mg of sodium is 1.0% of 2,300 mg: 1%, never 0 or 2.
        #expect(try agreement(.sodium, 23, printed: 1).agrees)
        #expect(!(try agreement(.sodium, 23, printed: 2)).agrees)
    }

    @Test func nothingToCompareWithoutAPrintedPercentOrADailyValue() {
        #expect(uclaLabel.agreement(of: NutrientValue(key: .totalFat, name: "Total Fat", amount: 3, unit: "g")) == nil)
        #expect(agreement(.protein, 10, "g", printed: 20) == nil)
        #expect(agreement(.sodium, 10, "IU", printed: 20) == nil)
    }
}
