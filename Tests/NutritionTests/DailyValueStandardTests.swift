import FoodModel
import Foundation
import Nutrition
import SourceAdapters
import Testing

@Suite struct DailyValueStandardTests {
    @Test func theCheeseburgerPagesComputedPercentagesEqualItsPrintedOnes() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/data/ucla-menu-2021/recipe-400317-bruin-cheeseburger-fragment.html")
        let food = try UCLAMenuSite.parseRecipe(try Data(contentsOf: page), url: page.path, charset: nil,
                                                recipeId: "400317")
        let computed = uclaLabel.apply(to: food)
        let withPrintedPercent = computed.nutrients.filter { $0.amount != nil && $0.printedDailyValuePercent != nil }
        // Fat 33, saturated fat 44, cholesterol 22, sodium 42, carbohydrate 34, fiber 6.
        #expect(withPrintedPercent.count == 6)
        for nutrient in withPrintedPercent {
            #expect(nutrient.computedDailyValuePercent == nutrient.printedDailyValuePercent, "\(nutrient.key)")
            #expect(nutrient.dailyValueStandard == "ucla-label")
        }
        // Trans fat, sugars and protein have no value in this standard; vitamins print % only.
        let untouched = computed.nutrients.filter { [.transFat, .sugars, .protein, .vitaminA].contains($0.key) }
        #expect(untouched.count == 4)
        #expect(untouched.allSatisfy { $0.computedDailyValuePercent == nil })
    }

    @Test func convertsBetweenMassUnitsButNeverGuessesOthers() {
        #expect(uclaLabel.percent(of: .sodium, amount: 1.2, unit: "g") == 50)
        #expect(uclaLabel.percent(of: .cholesterol, amount: 150_000, unit: "mcg") == 50)
        #expect(uclaLabel.percent(of: .sodium, amount: 100, unit: "IU") == nil)
        #expect(uclaLabel.percent(of: .protein, amount: 10, unit: "g") == nil)
    }

    @Test func roundsHalvesAwayFromZeroAsLabelsDo() {
        let standard = DailyValueStandard(name: "t", description: "", values: [.totalFat: .init(amount: 100, unit: .g)])
        let food = Food(id: FoodID(source: "t", recipeId: "1"), name: "t", nutrients: [
            NutrientValue(key: .totalFat, name: "Total Fat", amount: 12.5, unit: "g"),
        ])
        #expect(standard.apply(to: food).nutrients[0].computedDailyValuePercent == 13)
    }
}
