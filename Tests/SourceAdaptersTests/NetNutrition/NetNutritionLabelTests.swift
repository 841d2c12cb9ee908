import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// The NetNutrition label reader on Duke's real label (`../shared/data/netnutrition-2025`,
/// "Bacon Swiss and Arugula Egg Bite"). Every expected value was read off the HTML by hand.
@Suite struct NetNutritionLabelTests {
    static let file = "netnutrition-2025/duke-label-egg-bite.html"

    private func label() throws -> Food {
        try NetNutritionLabel.parse(SharedData.load(Self.file), itemId: "egg-bite", url: Self.file, charset: nil)
    }

    @Test func nameServingCaloriesIngredientsAllergens() throws {
        let food = try label()
        #expect(food.id == FoodID(source: "netnutrition", recipeId: "egg-bite"))
        #expect(food.name == "Bacon Swiss and Arugula Egg Bite")
        #expect(food.servingSize == "2.7 oz Portion (77g)")
        #expect(food.serving == ServingSize(amount: 2.7, unit: "oz Portion"))
        #expect(food.calories == 180)
        #expect(food.ingredients?.hasPrefix("Large White Eggs, Heavy Whipping Cream (HEAVY CREAM (MILK), MILK,") == true)
        #expect(food.ingredients?.hasSuffix("Seasoning Salt Kosher (SALT, YELLOW PRUSSIATE OF SODA)") == true)
        #expect(food.allergens == ["Egg", "Milk"])
        #expect(food.codes == ["Egg", "Milk"])
        #expect(food.labelBasis == .serving)
        #expect(food.servingGrams == 77)
    }

    /// Every row of the label, in label order, with the amount, unit and printed %DV beside it;
    /// "NA" is kept as printed, with no amount; the added-sugars line reads as its own row.
    @Test func everyNutrientWithItsPrintedDailyValue() throws {
        let food = try label()
        let expected: [(String, String, Double?, String?, Double?)] = [
            ("calories", "Calories", 180, "kcal", nil),
            ("total_fat", "Total Fat", 15, "g", 23), ("saturated_fat", "Saturated Fat", 7, "g", 34),
            ("trans_fat", "Trans Fat", nil, nil, nil), ("cholesterol", "Cholesterol", 220, "mg", 73),
            ("sodium", "Sodium", 390, "mg", 16), ("total_carbohydrate", "Total Carbohydrate", 2, "g", 1),
            ("dietary_fiber", "Dietary Fiber", 0, "g", 0), ("sugars", "Total Sugars", 0, "g", 1),
            ("added_sugars", "Added Sugars", nil, nil, nil), ("protein", "Protein", 9, "g", nil),
            ("calcium", "Calcium", 50, "mg", 6), ("iron", "Iron", 0.96, "mg", 6), ("potassium", "Potas.", 120, "mg", 3),
        ]
        expectLines(of: food, expected)
        #expect(food.nutrients[3].printedAmount == "NA")
        #expect(food.nutrients[9].printedAmount == "NA")
    }

    /// The label's Sodium row ("390mg") renamed Vitamin D with another amount. Its unit is
    /// judged on the amount, as the other platforms' are (docs/nutrition.md): 2.5 mg of vitamin
    /// D would be 12,500% of the 20 mcg daily value and no food holds more than 50 mcg a serving,
    /// so it is read as 2.5 mcg and said; 5 mcg stays as printed; 5000mcg fits no unit, and is
    /// left out and said. The label's other rows are untouched.
    @Test func aVitaminDInAUnitItsAmountCannotBeIsReadInTheOneItFits() throws {
        let page = String(decoding: try SharedData.load(Self.file), as: UTF8.self)
        func read(_ amount: String) throws -> NetNutritionLabel.Reading {
            let edited = try #require(MenuPageEdits.dukeSodiumAsVitaminD(page, printing: amount))
            return try NetNutritionLabel.read(Data(edited.utf8), itemId: "egg-bite", url: Self.file, charset: nil)
        }
        func vitaminD(_ reading: NetNutritionLabel.Reading) -> NutrientValue? {
            reading.food.nutrients.first { $0.key.rawValue == "vitamin_d" }
        }
        let milligrams = try read("2.5mg")
        #expect(vitaminD(milligrams)?.amount == 2.5)
        #expect(vitaminD(milligrams)?.unit == "mcg")
        #expect(milligrams.problems == ["\(Self.file): Bacon Swiss and Arugula Egg Bite: vitamin_d printed in mg, read in "
                                        + "mcg: the amount is more than a serving of any food holds in the unit printed"])
        #expect(milligrams.food.nutrients.first { $0.key == .calcium }?.unit == "mg")

        let micrograms = try read("5mcg")
        #expect(vitaminD(micrograms)?.amount == 5)
        #expect(vitaminD(micrograms)?.unit == "mcg")
        #expect(micrograms.problems.isEmpty)

        let impossible = try read("5000mcg")
        #expect(vitaminD(impossible) == nil)
        #expect(impossible.problems.count == 1)
        #expect(impossible.problems.first?.contains("Vitamin D is 5000 mcg, more than a serving of any food holds in mcg") == true,
                "\(impossible.problems)")
        #expect(impossible.food.nutrients.count == 13)
    }

    @Test func aPageThatIsNotALabelSaysSo() throws {
        do {
            _ = try NetNutritionLabel.parse(Data("<html><body><p>Session expired</p></body></html>".utf8), itemId: "1",
                                            url: "https://example.edu/NetNutrition/1", charset: nil)
            Issue.record("a page without a label was read")
        } catch {
            #expect("\(error)".contains("not a NetNutrition label"))
            #expect("\(error)".contains("https://example.edu/NetNutrition/1"))
        }
    }
}

/// The same reader on UIUC's real label (`../shared/data/netnutrition-2026`, "Blondie Bars"),
/// another CBORD layout: nested tables, each nutrient a `td.cbo_nn_LabelBorderedSubHeader` holding
/// a row of name, amount and %DV cells. Every expected value was read off the HTML by hand.
@Suite struct NetNutritionTableLabelTests {
    static let file = "netnutrition-2026/uiuc-label-122098028.html"

    private func label(_ data: Data? = nil) throws -> Food {
        try NetNutritionLabel.parse(data ?? SharedData.load(Self.file), itemId: "122098028", url: Self.file, charset: nil)
    }

    /// "Serving Size:&nbsp;Slice (1/96)&nbsp;(42g)" in one cell: the words go, the no-break spaces
    /// become spaces; the serving has no leading amount, so only its bracketed grams are read.
    @Test func nameServingCaloriesIngredientsAllergens() throws {
        let food = try label()
        #expect(food.id == FoodID(source: "netnutrition", recipeId: "122098028"))
        #expect(food.name == "Blondie Bars")
        #expect(food.servingSize == "Slice (1/96) (42g)")
        #expect(food.serving == nil)
        #expect(food.servingGrams == 42)
        #expect(food.labelBasis == .serving)
        #expect(food.calories == 180)
        #expect(food.ingredients == "Mix Cake Yellow Gold Medal (SUGAR, ENRICHED FLOUR BLEACHED (WHEAT FLOUR, "
            + "NIACIN, IRON, THIAMIN MONONITRATE, RIBOFLAVIN, FOLIC ACID), PALM OIL, DEXTROSE. CONTAINS 2% OR LESS OF: "
            + "LEAVENING (SODIUM ALUMINUM PHOSPHATE, BAKING SODA), PROPYLENE GLYCOL MONO AND DIESTERS, MODIFIED CORN "
            + "STARCH, EGGS WITH SODIUM SILICOALUMINATE, EGG WHITE, SALT, NONFAT MILK, MONO AND DIGLYCERIDES, SOY "
            + "LECITHIN, XANTHAN GUM, WHEY, NATURAL FLAVOR, ANNATTO AND TURMERIC EXTRACT COLOR.), Baking Chips "
            + "Chocolate Semi Sweet (SEMI-SWEET CHOCOLATE (SUGAR; CHOCOLATE; COCOA BUTTER; MILK FAT; SOY LECITHIN; "
            + "VANILLIN, ARTIFICIAL FLAVOR; MILK).), Butter Solid Block 1# (Cream.), Brown Sugar (Pure Cane Brown "
            + "Sugar), Large Grade A Shell Eggs (shell eggs), Oil Pan Release Spray Soy-Free (Sunflower/Canola Oil, "
            + "Sunflower/Canola Lecithin, Extra Virgin Olive Oil, Natural Flavor, Mono- and Diglycerides and Propellant.)")
        #expect(food.allergens == ["Corn", "Eggs", "Gluten", "Milk", "Soy", "Wheat"])
        #expect(food.codes == food.allergens)
    }

    /// Every nutrient the label prints, in label order: calories and calories from fat share a
    /// row; "NA" (Trans Fat, Polyunsaturated Fat) is kept as printed with no amount; "< 1g" is a
    /// bound; Potassium's "%" cell and the empty %DV cells print no %DV; Calcium and Iron print
    /// only a percentage. Vitamin A and Vitamin C are named with a blank cell: nothing printed.
    @Test func everyNutrientWithItsPrintedDailyValue() throws {
        let food = try label()
        let expected: [(String, String, Double?, String?, Double?)] = [
            ("calories", "Calories", 180, "kcal", nil), ("calories_from_fat", "Calories from Fat", 72, "kcal", nil),
            ("total_fat", "Total Fat", 8, "g", 13), ("saturated_fat", "Saturated Fat", 4.5, "g", 23),
            ("trans_fat", "Trans Fat", nil, nil, nil), ("polyunsaturated_fat", "Polyunsaturated Fat", nil, nil, nil),
            ("monounsaturated_fat", "Monounsaturated Fat", 1, "g", nil), ("cholesterol", "Cholesterol", 30, "mg", 10),
            ("sodium", "Sodium", 150, "mg", 6), ("potassium", "Potassium", 1, "mg", nil),
            ("total_carbohydrate", "Total Carbohydrate", 25, "g", 8), ("dietary_fiber", "Dietary Fiber", nil, "g", 3),
            ("sugars", "Sugars", 17, "g", nil), ("protein", "Protein", 2, "g", 4),
            ("calcium", "Calcium", nil, nil, 0), ("iron", "Iron", nil, nil, 4),
        ]
        expectLines(of: food, expected)
        let marked = Dictionary(uniqueKeysWithValues: food.nutrients.map { ($0.key.rawValue, $0) })
        #expect(marked["trans_fat"]?.printedAmount == "NA")
        #expect(marked["polyunsaturated_fat"]?.printedAmount == "NA")
        #expect(marked["dietary_fiber"]?.printedAmount == "< 1g")
        #expect(marked["dietary_fiber"]?.amountBelow == 1)
        #expect(food.nutrients.allSatisfy { $0.key.rawValue != "vitamin_a" && $0.key.rawValue != "vitamin_c" })
    }

    /// The label with every nutrient row cut out (from the first bordered row to the disclaimer):
    /// still the item's label, per serving, with no nutrient, which the checks report.
    @Test func aLabelWhoseRowsAreGoneIsStillALabel() throws {
        let page = String(decoding: try SharedData.load(Self.file), as: UTF8.self)
        let cut = try #require(MenuPageEdits.withoutNutrientRows(page))
        #expect(!cut.contains("cbo_nn_SecondaryNutrient") && !cut.contains("LabelBorderedSubHeader"))
        let food = try label(Data(cut.utf8))
        #expect(food.name == "Blondie Bars")
        #expect(food.labelBasis == .serving)
        #expect(food.nutrients.isEmpty)
        #expect(food.calories == nil)
        #expect(food.servingSize == "Slice (1/96) (42g)")
        #expect(food.allergens == ["Corn", "Eggs", "Gluten", "Milk", "Soy", "Wheat"])
    }

    /// An older table layout that public client code reads: names in bold `font`s ending in a
    /// colon, the amount's unit spelled out ("17 Gram"), the %DV cell outside the inner table, and
    /// vitamins as a name cell holding its percentage. Built for the test in that shape.
    @Test func theOlderTableLayoutReadsTheSameWay() throws {
        let page = """
            <table><tr><td><table><tr><td class='cbo_nn_LabelHeader'>Lentil Soup</td></tr></table></td></tr>
            <tr><td class='cbo_nn_LabelBottomBorderLabel'>Serving Size:&nbsp;8 oz&nbsp;(227g)</td></tr>
            <tr><td class='cbo_nn_LabelBorderedSubHeader'><table><tr>
              <td class='cbo_nn_LabelDetail'><font style='font-weight:bold;'>Calories:</font>
                <font class='cbo_nn_SecondaryNutrient'>&nbsp;210</font></td></tr></table></td></tr>
            <tr><td class='cbo_nn_LabelBorderedSubHeader'><table><tr><td><table><tr>
              <td class='cbo_nn_LabelDetail'><font style='font-weight:bold;'>Protein:</font></td>
              <td><font class='cbo_nn_SecondaryNutrient'>&nbsp;17&nbsp;Gram</font></td></tr></table></td>
              <td class='cbo_nn_LabelLeftPaddedDetail'>33%</td></tr></table></td></tr>
            <tr><td><table class='cbo_nn_LabelSecondaryTable'><tr>
              <td class='cbo_nn_SecondaryNutrientLabel'>Vitamin A:<span class='cbo_nn_SecondaryNutrient'>&nbsp;8%</span></td>
              <td class='cbo_nn_SecondaryNutrientLabel'>Iron:<span class='cbo_nn_SecondaryNutrient'>&nbsp;15%</span></td>
            </tr></table></td></tr></table>
            """
        let food = try label(Data(page.utf8))
        #expect(food.name == "Lentil Soup")
        #expect(food.servingSize == "8 oz (227g)")
        #expect(food.serving == ServingSize(amount: 8, unit: "oz"))
        #expect(food.calories == 210)
        #expect(food.nutrients == [
            NutrientValue(key: .calories, name: "Calories", amount: 210, unit: "kcal"),
            NutrientValue(key: .protein, name: "Protein", amount: 17, unit: "Gram", printedDailyValuePercent: 33),
            NutrientValue(key: .vitaminA, name: "Vitamin A", amount: nil, unit: nil, printedDailyValuePercent: 8),
            NutrientValue(key: .iron, name: "Iron", amount: nil, unit: nil, printedDailyValuePercent: 15),
        ])
    }
}

/// A label's nutrient lines, in order: key, name, amount, unit and printed %DV each.
func expectLines(of food: Food, _ expected: [(String, String, Double?, String?, Double?)]) {
    #expect(food.nutrients.map(\.key.rawValue) == expected.map(\.0))
    for (value, (key, name, amount, unit, percent)) in zip(food.nutrients, expected) {
        #expect(value.name == name, "\(key)")
        #expect(value.amount == amount, "\(key)")
        #expect(value.unit == unit, "\(key)")
        #expect(value.printedDailyValuePercent == percent, "\(key)")
    }
}
