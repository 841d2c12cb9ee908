import FoodModel
import Foundation
import Nutrition
@testable import SourceAdapters
import Testing

private let datasetFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/data/ucla-dataset-2016")

private let jamixFolder = datasetFolder.deletingLastPathComponent().appendingPathComponent("ucla-jamix-2025")

private func food(named name: String, on day: String) throws -> Food {
    let url = datasetFolder.appendingPathComponent(day + ".json")
    let parsed = try UCLADataset.parseDay(Data(contentsOf: url), date: try #require(ServiceDate(day)),
                                          location: url.lastPathComponent)
    return try #require(parsed.foods.first { $0.name == name })
}

@Suite struct FoodReviewTests {
    /// 2016-08-01, Tomato & Wild Rice Soup: 51 kcal printed, but protein 1.1 g, carbohydrate
    /// 13.9 g and fat 1.1 g give 4 × 1.1 + 4 × 13.9 + 9 × 1.1 = 69.9 kcal, 27% more.
    @Test func caloriesFarFromTheMacronutrientsFlagTheFood() throws {
        let soup = try food(named: "Tomato & Wild Rice Soup", on: "2016-08-01")
        let flag = try #require(FoodReview.energySanity(of: soup))
        #expect(flag.check == "energy_sanity")
        #expect(flag.message.contains("51 kcal printed"))
        #expect(flag.message.contains("= 69.9 kcal"))
        // Within 20% it would pass: widen the tolerance to 30%.
        #expect(FoodReview.energySanity(of: soup, limits: NutritionLimits(energyTolerance: 0.3)) == nil)
    }

    /// 2016-12-09, Sweet Potato Fries: Total Fat "3g" but Saturated Fat "5g".
    @Test func aPartLargerThanItsWholeIsImplausible() throws {
        let fries = try food(named: "Sweet Potato Fries", on: "2016-12-09")
        let flags = FoodReview.implausibleValues(in: fries)
        #expect(flags.count == 1)
        #expect(flags.first?.nutrient == .saturatedFat)
        #expect(flags.first?.message == "Saturated Fat (5 g) exceeds Total Fat (3 g)")
    }

    /// 2016-08-31, Tres Leches Cake: a whole cake, 7,505 kcal, whose macronutrients agree
    /// (4 × 107.6 + 4 × 796.3 + 9 × 436.5 = 7,544 kcal): large, but not flagged.
    @Test func aLargeButConsistentLabelIsNotFlagged() throws {
        let cake = try food(named: "Tres Leches Cake", on: "2016-08-31")
        #expect(FoodReview.flags(for: cake).isEmpty)
        #expect(FoodReview.flags(for: cake, limits: NutritionLimits(maximumCalories: 5000)).map(\.check)
            == ["implausible_value"])
    }

    /// Real UCLA recipe documents, per 100 g (values read by hand from the files):
    /// `recipes/1808.json`, Honey-Glazed Walnut Shrimp: protein 15.23, carbohydrate 77.52 and fat
    /// 50.74 g, 143.49 g in 100 g; `recipes/3385.json`: 11.27 + 84.64 + 15.70 = 111.61 g;
    /// `recipes/248.json`: 5.46 + 61.63 + 35.01 = 102.10 g; `recipes/3289.json`: 5.90 + 62.51 +
    /// 32.32 = 100.73 g, within what rounding could add;
    /// `recipes/1007.json`, the Tuna & Lentil Hummus Stacker, nowhere near.
    @Test func macronutrientsHeavierThanWhatTheLabelIsPerAreImplausible() throws {
        func recipe(_ id: Int) throws -> Food {
            let url = jamixFolder.appendingPathComponent("recipes/\(id).json")
            return try JamixFoodDocument.parse(Data(contentsOf: url), foodId: "recipe-\(id)", location: url.path).food
        }
        let shrimp = try recipe(1808)
        #expect(shrimp.labelBasis == .hundredGrams)
        let flags = FoodReview.flags(for: shrimp)
        #expect(flags.map(\.check) == ["implausible_value"])
        #expect(flags.first?.message == "protein, carbohydrate and fat weigh 143.49 g in 100 g")
        #expect(FoodReview.flags(for: try recipe(3385)).map(\.message) == ["protein, carbohydrate and fat weigh 111.61 g in 100 g"])
        #expect(FoodReview.flags(for: try recipe(248)).map(\.message) == ["protein, carbohydrate and fat weigh 102.1 g in 100 g"])
        #expect(FoodReview.flags(for: try recipe(3289)).isEmpty)
        #expect(FoodReview.flags(for: try recipe(3289), limits: NutritionLimits(weightSlack: 0.5)).count == 1)
        #expect(FoodReview.flags(for: try recipe(1007)).isEmpty)
    }

    /// A per-serving label is held to its serving's grams where the serving is a weight, and no
    /// label to more than fat's 9 kcal a gram; a serving that is a count is not weighed.
    @Test func aServingThatIsAWeightHoldsItsAmountsAndItsEnergy() {
        func label(_ serving: String, calories: Double, protein: Double, carbohydrate: Double, fat: Double) -> Food {
            Food(id: FoodID(source: "t", recipeId: serving), name: "t", servingSize: serving, calories: calories, nutrients: [
                NutrientValue(key: .calories, name: "Calories", amount: calories, unit: "kcal"),
                NutrientValue(key: .protein, name: "Protein", amount: protein, unit: "g"),
                NutrientValue(key: .totalCarbohydrate, name: "Total Carbohydrate", amount: carbohydrate, unit: "g"),
                NutrientValue(key: .totalFat, name: "Total Fat", amount: fat, unit: "g"),
            ], labelBasis: .serving)
        }
        // Olive oil, 1 tbsp (14 g): 120 kcal, 14 g fat. Possible.
        #expect(FoodReview.flags(for: label("1 Tbsp (14g)", calories: 120, protein: 0, carbohydrate: 0, fat: 14)).isEmpty)
        // 40 g of food holding 14 + 30 g of protein and carbohydrate (176 kcal, as they give).
        let bar = label("1 bar (40g)", calories: 176, protein: 14, carbohydrate: 30, fat: 0)
        #expect(FoodReview.flags(for: bar).map(\.message) == ["protein, carbohydrate and fat weigh 44 g in a serving of 40 g"])
        // 400 kcal in 40 g: more than 9 × 40 + 10 (energy sanity flags it too: 85 kcal from its macros).
        let dense = FoodReview.flags(for: label("1 bar (40g)", calories: 400, protein: 5, carbohydrate: 5, fat: 5))
        #expect(dense.filter { $0.check == "implausible_value" }.map(\.message)
            == ["400 kcal in a serving of 40 g is more than fat's 9 kcal a gram gives"])
        // A count has no weight to hold anything to.
        #expect(FoodReview.flags(for: label("1 each", calories: 176, protein: 14, carbohydrate: 30, fat: 0)).isEmpty)
    }

    /// `recipes/6322.json`, Build-Your-Own Tacos: a 64 oz portion (1,814.4 g), per-100 g label.
    /// A menu serving it at 14.22 oz (403.1 g) is more than twice as far: flagged with both; at
    /// 40 oz it is not; a count says nothing of weight. The Tuna & Lentil Hummus Stacker
    /// (`recipes/1007.json`, 2.92 oz = 82.8 g) served at 6 oz (170.1 g) is flagged the other way.
    @Test func aMenuPortionFarFromTheFoodsOwnServingIsFlagged() throws {
        func recipe(_ id: Int) throws -> Food {
            let url = jamixFolder.appendingPathComponent("recipes/\(id).json")
            return try JamixFoodDocument.parse(Data(contentsOf: url), foodId: "recipe-\(id)", location: url.path).food
        }
        let tacos = try recipe(6322)
        let flag = try #require(PortionMismatch.flag(for: tacos, servedAt: ["14.22 oz", "40 oz", "1 each"]))
        #expect(flag.check == "portion_mismatch")
        #expect(flag.message == "the menus serve it at 14.22 oz (403.1 g), but its per-serving amounts are for its own "
            + "serving, 64 oz (1814.4 g)")
        #expect(PortionMismatch.flag(for: tacos, servedAt: ["40 oz", "1 each"]) == nil)
        #expect(PortionMismatch.flag(for: tacos, servedAt: []) == nil)
        let stacker = try recipe(1007)
        #expect(PortionMismatch.flag(for: stacker, servedAt: ["6 oz"])?.message
            == "the menus serve it at 6 oz (170.1 g), but its per-serving amounts are for its own serving, 2.92 oz (82.8 g)")
        // A per-serving label is printed for its own serving already: nothing is scaled.
        var perServing = tacos
        perServing.labelBasis = .serving
        #expect(PortionMismatch.flag(for: perServing, servedAt: ["14.22 oz"]) == nil)
    }

    /// Two portions as far from the serving as each other, one heavier and one lighter (16 oz and
    /// 1 oz of a 4 oz serving, four times either way): the heavier is named, in every order the
    /// portions may come in. A snapshot of the same inputs must not change from run to run.
    @Test func portionsEquallyFarApartNameTheHeavierEveryTime() throws {
        var food = Food(id: FoodID(source: "t", recipeId: "196"), name: "t", servingSize: "4 oz",
                        nutrients: [NutrientValue(key: .calories, name: "Calories", amount: 100, unit: "kcal")])
        food.labelBasis = LabelBasis.hundredGrams
        for _ in 0..<20 {
            let portions = Set(["1 oz", "16 oz", "4 oz"].shuffled())
            #expect(PortionMismatch.flag(for: food, servedAt: portions)?.message
                == "the menus serve it at 16 oz (453.6 g), but its per-serving amounts are for its own serving, 4 oz (113.4 g)"
                + " (and 1 other portion(s) as far apart)")
        }
    }

    @Test func negativeAmountsAndPercentagesAreFlagged() {
        let food = Food(id: FoodID(source: "t", recipeId: "1"), name: "t", nutrients: [
            NutrientValue(key: .sodium, name: "Sodium", amount: -5, unit: "mg", printedDailyValuePercent: -1),
        ])
        #expect(FoodReview.implausibleValues(in: food).count == 2)
    }
}
