import FoodModel
import Testing

/// Servings as menus print them (DineOnCampus's portions, NetNutrition's and Nutrislice's
/// serving lines), read into an amount and a unit only where the text starts with an amount.
@Suite struct ServingSizeTests {
    @Test func amountsAndUnitsWhereTheTextAllows() {
        let cases: [(String, Double, String)] = [
            ("4 each", 4, "each"), ("3/4 cup", 0.75, "cup"), ("1-1/2 ounce", 1.5, "ounce"), ("1 1/2 cup", 1.5, "cup"),
            ("1/2 floz", 0.5, "floz"), (".5 cup", 0.5, "cup"), ("2.7 oz Portion (77g)", 2.7, "oz Portion"),
            ("1 serving(s)", 1, "serving(s)"), ("8 oz portion", 8, "oz portion"),
        ]
        for (text, amount, unit) in cases {
            #expect(ServingSize(printed: text) == ServingSize(amount: amount, unit: unit), "\(text)")
        }
    }

    @Test func nothingIsGuessed() {
        for text in ["each", "1 each1.9 oz", "1 1", "", "0 each", "1/0 cup", "Portion 4 oz", "4"] {
            #expect(ServingSize(printed: text) == nil, "\(text)")
        }
    }
}
