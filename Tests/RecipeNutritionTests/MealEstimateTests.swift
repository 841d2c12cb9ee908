import FoodModel
import Foundation
import RecipeNutrition
import SourceAdapters
import Testing
import TestSupport

/// The 442 real TheMealDB meals: each has an estimate or says why not, and twenty are checked
/// line by line against grams worked out by hand from SR24's measures.
@Suite struct MealEstimateTests {
    static func meals() throws -> [Recipe] {
        try MealDB.decodeMeals(try Data(contentsOf: Paths.mealDump), location: Paths.mealDump.path)
    }

    @Test func everyRealMealHasAnEstimateOrAStatedReason() throws {
        let estimator = try Reference.loaded()
        let meals = try Self.meals()
        #expect(meals.count == 442)
        var estimated = 0
        for meal in meals {
            let estimate = estimator.estimate(meal)
            #expect(estimate.lines.count == meal.ingredients.count, "\(meal.id)")
            if let reason = estimate.reason {
                #expect(!reason.isEmpty && estimate.nutrients.isEmpty, "\(meal.id)")
            } else {
                estimated += 1
                #expect(estimate.matchedGrams > 0 && estimate.amountPer100g(.calories) != nil, "\(meal.id)")
            }
            // Every line that does not count says why.
            for line in estimate.lines where !line.counts {
                #expect(line.reason != nil, "\(meal.id) line \(line.position)")
            }
        }
        // Every meal lists at least one weighed, matched line (measured: all 442).
        #expect(estimated == 442)
    }

    struct HandChecked {
        let id: String
        /// Position, SR food, grams (nil: not weighed).
        let lines: [(Int, String, Double?)]
        let kilocalories: Double
    }

    /// Worked out from the meal's own strings in meals-dump-442.json and the SR24 files: each
    /// ingredient's food is its synonym in usda-sr24-synonyms.yml; a weight is itself, a volume is
    /// the food's household measure of that unit (else its first volume), scaled by millilitres
    /// (tsp 4.929, tbsp 14.787, cup 236.588), a count the measure of the size written, else
    /// `medium`. Energy is the food's `Energy` per 100 g × grams / 100, summed.
    static let handChecked: [HandChecked] = [
        // Chocolate Gateau (52776):
        //   1. Plain chocolate "250g" → 19902: weight → 250.00 g × 546 kcal/100 g = 1365.0 kcal
        //   2. Butter "175g" → 01001: weight → 175.00 g × 717 kcal/100 g = 1254.8 kcal
        //   3. Milk "2 tablespoons" → 01077: 1 tbsp = 15 g → 30.00 g × 61 kcal/100 g = 18.3 kcal
        //   4. Eggs "5" → 01123: 1 medium = 44 g → 220.00 g × 143 kcal/100 g = 314.6 kcal
        //   5. Granulated Sugar "175g" → 19335: weight → 175.00 g × 387 kcal/100 g = 677.2 kcal
        //   6. Flour "125g" → 20081: weight → 125.00 g × 364 kcal/100 g = 455.0 kcal
        //   total 4084.9 kcal
        HandChecked(id: "52776", lines: [(1, "19902", 250.0000), (2, "01001", 175.0000), (3, "01077", 30.0000), (4, "01123", 220.0000), (5, "19335", 175.0000), (6, "20081", 125.0000)], kilocalories: 4084.9),
        // Tuna Nicoise (52852):
        //   1. Potatoes "450g" → 11354: weight → 450.00 g × 69 kcal/100 g = 310.5 kcal
        //   2. Olive Oil "2 tblsp" → 04053: 1 tablespoon = 13.5 g → 27.00 g × 884 kcal/100 g = 238.7 kcal
        //   3. Eggs "4" → 01123: 1 medium = 44 g → 176.00 g × 143 kcal/100 g = 251.7 kcal
        //   4. Red Wine Vinegar "1 tbls" → 02068: 1 tbsp = 14.9 g → 14.90 g × 19 kcal/100 g = 2.8 kcal
        //   5. Capers "2 tblsp" → 02054: 1 tbsp, drained = 8.6 g → 17.20 g × 23 kcal/100 g = 4.0 kcal
        //   6. Sunflower Oil "50g" → 04506: weight → 50.00 g × 884 kcal/100 g = 442.0 kcal
        //   7. Red Onions "½" → 11282: 1 medium (2-1/2" dia) = 110 g → 55.00 g × 40 kcal/100 g = 22.0 kcal
        //   8. Spinach "100g" → 11457: weight → 100.00 g × 23 kcal/100 g = 23.0 kcal
        //   9. Tuna "400g" → 15121: weight → 400.00 g × 116 kcal/100 g = 464.0 kcal
        //   total 1758.6 kcal
        HandChecked(id: "52852", lines: [(1, "11354", 450.0000), (2, "04053", 27.0000), (3, "01123", 176.0000), (4, "02068", 14.9000), (5, "02054", 17.2000), (6, "04506", 50.0000), (7, "11282", 55.0000), (8, "11457", 100.0000), (9, "15121", 400.0000)], kilocalories: 1758.6),
        // Pancakes (52854):
        //   1. Flour "100g" → 20081: weight → 100.00 g × 364 kcal/100 g = 364.0 kcal
        //   2. Eggs "2 large" → 01123: 1 large = 50 g → 100.00 g × 143 kcal/100 g = 143.0 kcal
        //   3. Milk "300ml" → 01077: 1 cup = 244 g → 309.40 g × 61 kcal/100 g = 188.7 kcal
        //   4. Sunflower Oil "1 tbls" → 04506: 1 tbsp = 13.6 g → 13.60 g × 884 kcal/100 g = 120.2 kcal
        //   5. Sugar "to serve": no amount, not weighed
        //   6. Raspberries "to serve": no amount, not weighed
        //   7. Blueberries "to serve": no amount, not weighed
        //   total 816.0 kcal
        HandChecked(id: "52854", lines: [(1, "20081", 100.0000), (2, "01123", 100.0000), (3, "01077", 309.3983), (4, "04506", 13.6000), (5, "19335", nil), (6, "09302", nil), (7, "09050", nil)], kilocalories: 816.0),
        // New York cheesecake (52858):
        //   1. Butter "85g" → 01001: weight → 85.00 g × 717 kcal/100 g = 609.5 kcal
        //   2. Sour Cream "140g" → 01056: weight → 140.00 g × 193 kcal/100 g = 270.2 kcal
        //   3. Sugar "1tbsp" → 19335: 1 tsp = 4.2 g → 12.60 g × 387 kcal/100 g = 48.8 kcal
        //   4. Cream Cheese "900g" → 01017: weight → 900.00 g × 342 kcal/100 g = 3078.0 kcal
        //   5. Caster Sugar "250g" → 19335: weight → 250.00 g × 387 kcal/100 g = 967.5 kcal
        //   6. Plain Flour "3 tbs" → 20081: 1 cup = 125 g → 23.44 g × 364 kcal/100 g = 85.3 kcal
        //   7. Lemon Juice "1 ½ teaspoons" → 09152: 1 cup = 244 g → 7.62 g × 22 kcal/100 g = 1.7 kcal
        //   8. Eggs "3 Large" → 01123: 1 large = 50 g → 150.00 g × 143 kcal/100 g = 214.5 kcal
        //   9. Sour Cream "250ml" → 01056: 1 cup = 230 g → 243.04 g × 193 kcal/100 g = 469.1 kcal
        //   10. Sour Cream "150ml" → 01056: 1 cup = 230 g → 145.82 g × 193 kcal/100 g = 281.4 kcal
        //   11. Caster Sugar "1 tbsp" → 19335: 1 tsp = 4.2 g → 12.60 g × 387 kcal/100 g = 48.8 kcal
        //   12. Lemon Juice "2 tsp" → 09152: 1 cup = 244 g → 10.17 g × 22 kcal/100 g = 2.2 kcal
        //   total 6076.9 kcal
        HandChecked(id: "52858", lines: [(1, "01001", 85.0000), (2, "01056", 140.0000), (3, "19335", 12.6000), (4, "01017", 900.0000), (5, "19335", 250.0000), (6, "20081", 23.4375), (7, "09152", 7.6250), (8, "01123", 150.0000), (9, "01056", 243.0383), (10, "01056", 145.8230), (11, "19335", 12.6000), (12, "09152", 10.1667)], kilocalories: 6076.9),
        // Sticky Toffee Pudding (52883):
        //   1. Butter "100g" → 01001: weight → 100.00 g × 717 kcal/100 g = 717.0 kcal
        //   2. Muscovado Sugar "175g" → 19334: weight → 175.00 g × 380 kcal/100 g = 665.0 kcal
        //   3. Eggs "2 large" → 01123: 1 large = 50 g → 100.00 g × 143 kcal/100 g = 143.0 kcal
        //   4. Self-raising Flour "225g" → 20082: weight → 225.00 g × 354 kcal/100 g = 796.5 kcal
        //   5. Baking Powder "1 tsp" → 18369: 1 tsp = 4.6 g → 4.60 g × 53 kcal/100 g = 2.4 kcal
        //   6. Bicarbonate Of Soda "1 tsp" → 18372: 1 tsp = 4.6 g → 4.60 g × 0 kcal/100 g = 0.0 kcal
        //   7. Black Treacle "3 tbs" → 19304: 1 cup = 337 g → 63.19 g × 290 kcal/100 g = 183.2 kcal
        //   8. Milk "275ml" → 01077: 1 cup = 244 g → 283.62 g × 61 kcal/100 g = 173.0 kcal
        //   9. Double Cream "to serve": no amount, not weighed
        //   10. Butter "100g" → 01001: weight → 100.00 g × 717 kcal/100 g = 717.0 kcal
        //   11. Muscovado Sugar "125g" → 19334: weight → 125.00 g × 380 kcal/100 g = 475.0 kcal
        //   12. Black Treacle "1 tbs" → 19304: 1 cup = 337 g → 21.06 g × 290 kcal/100 g = 61.1 kcal
        //   13. Double Cream "300ml" → 01053: 1 cup, whipped = 120 g → 152.16 g × 345 kcal/100 g = 525.0 kcal
        //   14. Vanilla Extract "1 tsp" → 02050: 1 tsp = 4.2 g → 4.20 g × 288 kcal/100 g = 12.1 kcal
        //   total 4470.3 kcal
        HandChecked(id: "52883", lines: [(1, "01001", 100.0000), (2, "19334", 175.0000), (3, "01123", 100.0000), (4, "20082", 225.0000), (5, "18369", 4.6000), (6, "18372", 4.6000), (7, "19304", 63.1875), (8, "01077", 283.6151), (9, "01053", nil), (10, "01001", 100.0000), (11, "19334", 125.0000), (12, "19304", 21.0625), (13, "01053", 152.1631), (14, "02050", 4.2000)], kilocalories: 4470.3),
        // Apple & Blackberry Crumble (52893):
        //   1. Plain Flour "120g" → 20081: weight → 120.00 g × 364 kcal/100 g = 436.8 kcal
        //   2. Caster Sugar "60g" → 19335: weight → 60.00 g × 387 kcal/100 g = 232.2 kcal
        //   3. Butter "60g" → 01001: weight → 60.00 g × 717 kcal/100 g = 430.2 kcal
        //   4. Braeburn Apples "300g" → 09003: weight → 300.00 g × 52 kcal/100 g = 156.0 kcal
        //   5. Butter "30g" → 01001: weight → 30.00 g × 717 kcal/100 g = 215.1 kcal
        //   6. Demerara Sugar "30g" → 19334: weight → 30.00 g × 380 kcal/100 g = 114.0 kcal
        //   7. Blackberries "120g" → 09042: weight → 120.00 g × 43 kcal/100 g = 51.6 kcal
        //   8. Cinnamon "¼ teaspoon" → 02010: 1 tsp = 2.6 g → 0.65 g × 247 kcal/100 g = 1.6 kcal
        //   9. Ice Cream "to serve": no amount, not weighed
        //   total 1637.5 kcal
        HandChecked(id: "52893", lines: [(1, "20081", 120.0000), (2, "19335", 60.0000), (3, "01001", 60.0000), (4, "09003", 300.0000), (5, "01001", 30.0000), (6, "19334", 30.0000), (7, "09042", 120.0000), (8, "02010", 0.6500), (9, "19095", nil)], kilocalories: 1637.5),
        // Canadian Butter Tarts (52923):
        //   1. Shortcrust Pastry "375g" → 18334: weight → 375.00 g × 457 kcal/100 g = 1713.8 kcal
        //   2. Eggs "2 large" → 01123: 1 large = 50 g → 100.00 g × 143 kcal/100 g = 143.0 kcal
        //   3. Muscovado Sugar "175g" → 19334: weight → 175.00 g × 380 kcal/100 g = 665.0 kcal
        //   4. Raisins "100g" → 09298: weight → 100.00 g × 299 kcal/100 g = 299.0 kcal
        //   5. Vanilla Extract "1 tsp" → 02050: 1 tsp = 4.2 g → 4.20 g × 288 kcal/100 g = 12.1 kcal
        //   6. Butter "50g" → 01001: weight → 50.00 g × 717 kcal/100 g = 358.5 kcal
        //   7. Single Cream "4 tsp" → 01050: 1 cup = 240 g → 20.00 g × 195 kcal/100 g = 39.0 kcal
        //   8. Walnuts "50g" → 12155: weight → 50.00 g × 654 kcal/100 g = 327.0 kcal
        //   total 3557.3 kcal
        HandChecked(id: "52923", lines: [(1, "18334", 375.0000), (2, "01123", 100.0000), (3, "19334", 175.0000), (4, "09298", 100.0000), (5, "02050", 4.2000), (6, "01001", 50.0000), (7, "01050", 20.0000), (8, "12155", 50.0000)], kilocalories: 3557.3),
        // Pouding chomeur (52932):
        //   1. Butter "½ cup" → 01001: 1 cup = 227 g → 113.50 g × 717 kcal/100 g = 813.8 kcal
        //   2. Sugar "1 cup" → 19335: 1 cup = 200 g → 200.00 g × 387 kcal/100 g = 774.0 kcal
        //   3. Eggs "2" → 01123: 1 medium = 44 g → 88.00 g × 143 kcal/100 g = 125.8 kcal
        //   4. Vanilla Extract "1 tsp" → 02050: 1 tsp = 4.2 g → 4.20 g × 288 kcal/100 g = 12.1 kcal
        //   5. Flour "2 cups" → 20081: 1 cup = 125 g → 250.00 g × 364 kcal/100 g = 910.0 kcal
        //   6. Baking Powder "1 tsp" → 18369: 1 tsp = 4.6 g → 4.60 g × 53 kcal/100 g = 2.4 kcal
        //   7. Milk "1 1/4 cup" → 01077: 1 cup = 244 g → 305.00 g × 61 kcal/100 g = 186.1 kcal
        //   8. Maple Syrup "1 1/2 cup" → 19353: 1 cup = 315 g → 472.50 g × 260 kcal/100 g = 1228.5 kcal
        //   9. Brown Sugar "1 1/2 cup" → 19334: 1 cup packed = 220 g → 330.00 g × 380 kcal/100 g = 1254.0 kcal
        //   10. Single Cream "1 1/2 cup" → 01050: 1 cup = 240 g → 360.00 g × 195 kcal/100 g = 702.0 kcal
        //   11. Butter "1/3 cup" → 01001: 1 cup = 227 g → 75.67 g × 717 kcal/100 g = 542.5 kcal
        //   total 6551.2 kcal
        HandChecked(id: "52932", lines: [(1, "01001", 113.5000), (2, "19335", 200.0000), (3, "01123", 88.0000), (4, "02050", 4.2000), (5, "20081", 250.0000), (6, "18369", 4.6000), (7, "01077", 305.0000), (8, "19353", 472.5000), (9, "19334", 330.0000), (10, "01050", 360.0000), (11, "01001", 75.6667)], kilocalories: 6551.2),
        // Peanut Butter Cookies (52958):
        //   1. Peanut Butter "1 cup" → 16098: 1 cup = 258 g → 258.00 g × 588 kcal/100 g = 1517.0 kcal
        //   2. Sugar "1/2 cup" → 19335: 1 cup = 200 g → 100.00 g × 387 kcal/100 g = 387.0 kcal
        //   3. Egg "1" → 01123: 1 medium = 44 g → 44.00 g × 143 kcal/100 g = 62.9 kcal
        //   total 1967.0 kcal
        HandChecked(id: "52958", lines: [(1, "16098", 258.0000), (2, "19335", 100.0000), (3, "01123", 44.0000)], kilocalories: 1967.0),
        // Home-made Mandazi (52967):
        //   1. Self-raising Flour "750g" → 20082: weight → 750.00 g × 354 kcal/100 g = 2655.0 kcal
        //   2. Sugar "6 tablespoons" → 19335: 1 tsp = 4.2 g → 75.60 g × 387 kcal/100 g = 292.6 kcal
        //   3. Eggs "2" → 01123: 1 medium = 44 g → 88.00 g × 143 kcal/100 g = 125.8 kcal
        //   4. Milk "1 cup" → 01077: 1 cup = 244 g → 244.00 g × 61 kcal/100 g = 148.8 kcal
        //   total 3222.3 kcal
        HandChecked(id: "52967", lines: [(1, "20082", 750.0000), (2, "19335", 75.6000), (3, "01123", 88.0000), (4, "01077", 244.0000)], kilocalories: 3222.3),
        // Tunisian Orange Cake (52970):
        //   1. Orange "1 large" → 09200: 1 large (3-1/16" dia) = 184 g → 184.00 g × 47 kcal/100 g = 86.5 kcal
        //   2. Caster Sugar "300g" → 19335: weight → 300.00 g × 387 kcal/100 g = 1161.0 kcal
        //   3. Olive Oil "75 ml" → 04053: 1 tablespoon = 13.5 g → 68.47 g × 884 kcal/100 g = 605.3 kcal
        //   4. Flour "280g" → 20081: weight → 280.00 g × 364 kcal/100 g = 1019.2 kcal
        //   5. Baking Powder "1 tbs" → 18369: 1 tsp = 4.6 g → 13.80 g × 53 kcal/100 g = 7.3 kcal
        //   6. Eggs "4 large" → 01123: 1 large = 50 g → 200.00 g × 143 kcal/100 g = 286.0 kcal
        //   7. Vanilla Extract "2 tsp" → 02050: 1 tsp = 4.2 g → 8.40 g × 288 kcal/100 g = 24.2 kcal
        //   total 3189.5 kcal
        HandChecked(id: "52970", lines: [(1, "09200", 184.0000), (2, "19335", 300.0000), (3, "04053", 68.4734), (4, "20081", 280.0000), (5, "18369", 13.8000), (6, "01123", 200.0000), (7, "02050", 8.4000)], kilocalories: 3189.5),
        // Feteer Meshaltet (53030):
        //   1. Flour "4 cups" → 20081: 1 cup = 125 g → 500.00 g × 364 kcal/100 g = 1820.0 kcal
        //   2. Water "1 1/2 cups" → 14411: 1 cup 8 fl oz = 237 g → 355.50 g × 0 kcal/100 g = 0.0 kcal
        //   3. Salt "1/4 tsp" → 02047: 1 tsp = 6 g → 1.50 g × 0 kcal/100 g = 0.0 kcal
        //   4. Unsalted Butter "1 cup" → 01145: 1 cup = 227 g → 227.00 g × 717 kcal/100 g = 1627.6 kcal
        //   5. Olive Oil "1/4 cup" → 04053: 1 cup = 216 g → 54.00 g × 884 kcal/100 g = 477.4 kcal
        //   total 3925.0 kcal
        HandChecked(id: "53030", lines: [(1, "20081", 500.0000), (2, "14411", 355.5000), (3, "02047", 1.5000), (4, "01145", 227.0000), (5, "04053", 54.0000)], kilocalories: 3925.0),
        // Chocolate Coconut Squares (53101):
        //   1. Butter "100g" → 01001: weight → 100.00 g × 717 kcal/100 g = 717.0 kcal
        //   2. Caster Sugar "100g" → 19335: weight → 100.00 g × 387 kcal/100 g = 387.0 kcal
        //   3. Egg "2" → 01123: 1 medium = 44 g → 88.00 g × 143 kcal/100 g = 125.8 kcal
        //   4. Self-raising Flour "140g" → 20082: weight → 140.00 g × 354 kcal/100 g = 495.6 kcal
        //   5. Baking Powder "1 teaspoon" → 18369: 1 tsp = 4.6 g → 4.60 g × 53 kcal/100 g = 2.4 kcal
        //   6. Cocoa Powder "2 tablespoons" → 19165: 1 tbsp = 5.4 g → 10.80 g × 228 kcal/100 g = 24.6 kcal
        //   7. Milk "2 tablespoons" → 01077: 1 tbsp = 15 g → 30.00 g × 61 kcal/100 g = 18.3 kcal
        //   8. Plain Chocolate "100g" → 19902: weight → 100.00 g × 546 kcal/100 g = 546.0 kcal
        //   9. Butter "25g" → 01001: weight → 25.00 g × 717 kcal/100 g = 179.2 kcal
        //   10. Icing Sugar "100g" → 19336: weight → 100.00 g × 389 kcal/100 g = 389.0 kcal
        //   11. Desiccated Coconut "100g" → 12108: weight → 100.00 g × 660 kcal/100 g = 660.0 kcal
        //   total 3545.1 kcal
        HandChecked(id: "53101", lines: [(1, "01001", 100.0000), (2, "19335", 100.0000), (3, "01123", 88.0000), (4, "20082", 140.0000), (5, "18369", 4.6000), (6, "19165", 10.8000), (7, "01077", 30.0000), (8, "19902", 100.0000), (9, "01001", 25.0000), (10, "19336", 100.0000), (11, "12108", 100.0000)], kilocalories: 3545.1),
        // Lamingtons (53104):
        //   1. Salted Butter "125g" → 01001: weight → 125.00 g × 717 kcal/100 g = 896.2 kcal
        //   2. Golden Caster Sugar "250g" → 19335: weight → 250.00 g × 387 kcal/100 g = 967.5 kcal
        //   3. Egg "3 Large" → 01123: 1 large = 50 g → 150.00 g × 143 kcal/100 g = 214.5 kcal
        //   4. Self-raising Flour "250g" → 20082: weight → 250.00 g × 354 kcal/100 g = 885.0 kcal
        //   5. Milk "3  tablespoons" → 01077: 1 tbsp = 15 g → 45.00 g × 61 kcal/100 g = 27.4 kcal
        //   6. Salt "1/2 teaspoon" → 02047: 1 tsp = 6 g → 3.00 g × 0 kcal/100 g = 0.0 kcal
        //   7. Double Cream "250ml" → 01053: 1 cup, whipped = 120 g → 126.80 g × 345 kcal/100 g = 437.5 kcal
        //   8. Icing Sugar "2 tblsp" → 19336: 1 tbsp unsifted = 8 g → 16.00 g × 389 kcal/100 g = 62.2 kcal
        //   9. Raspberry Jam "200g" → 19297: weight → 200.00 g × 278 kcal/100 g = 556.0 kcal
        //   10. Desiccated Coconut "350g" → 12108: weight → 350.00 g × 660 kcal/100 g = 2310.0 kcal
        //   11. Unsalted Butter "80g" → 01145: weight → 80.00 g × 717 kcal/100 g = 573.6 kcal
        //   12. Milk "250ml" → 01077: 1 cup = 244 g → 257.83 g × 61 kcal/100 g = 157.3 kcal
        //   13. Cocoa Powder "50g" → 19165: weight → 50.00 g × 228 kcal/100 g = 114.0 kcal
        //   14. Icing Sugar "400g" → 19336: weight → 400.00 g × 389 kcal/100 g = 1556.0 kcal
        //   total 8757.3 kcal
        HandChecked(id: "53104", lines: [(1, "01001", 125.0000), (2, "19335", 250.0000), (3, "01123", 150.0000), (4, "20082", 250.0000), (5, "01077", 45.0000), (6, "02047", 3.0000), (7, "01053", 126.8026), (8, "19336", 16.0000), (9, "19297", 200.0000), (10, "12108", 350.0000), (11, "01145", 80.0000), (12, "01077", 257.8319), (13, "19165", 50.0000), (14, "19336", 400.0000)], kilocalories: 8757.3),
        // Authentic Norwegian Kransekake (53127):
        //   1. Almonds "3 Cups" → 12061: 1 cup, ground = 95 g → 285.00 g × 575 kcal/100 g = 1638.8 kcal
        //   2. Egg White "4" → 01124: 1 large = 33 g → 132.00 g × 52 kcal/100 g = 68.6 kcal
        //   3. Powdered Sugar "4 cups" → 19336: 1 cup unsifted = 120 g → 480.00 g × 389 kcal/100 g = 1867.2 kcal
        //   4. Powdered Sugar "2 cups" → 19336: 1 cup unsifted = 120 g → 240.00 g × 389 kcal/100 g = 933.6 kcal
        //   5. Egg White "1" → 01124: 1 large = 33 g → 33.00 g × 52 kcal/100 g = 17.2 kcal
        //   6. Lemon Juice "1/2 teaspoon" → 09152: 1 cup = 244 g → 2.54 g × 22 kcal/100 g = 0.6 kcal
        //   total 4525.9 kcal
        HandChecked(id: "53127", lines: [(1, "12061", 285.0000), (2, "01124", 132.0000), (3, "19336", 480.0000), (4, "19336", 240.0000), (5, "01124", 33.0000), (6, "09152", 2.5417)], kilocalories: 4525.9),
        // Suksessterte (Norwegian almond “success cake”) (53130):
        //   1. Almonds "2 cups" → 12061: 1 cup, ground = 95 g → 190.00 g × 575 kcal/100 g = 1092.5 kcal
        //   2. Egg "3" → 01123: 1 medium = 44 g → 132.00 g × 143 kcal/100 g = 188.8 kcal
        //   3. Granulated Sugar "1 1/4 cup" → 19335: 1 cup = 200 g → 250.00 g × 387 kcal/100 g = 967.5 kcal
        //   4. Flour "2 tblsp" → 20081: 1 cup = 125 g → 15.62 g × 364 kcal/100 g = 56.9 kcal
        //   5. Baking Powder "1 teaspoon" → 18369: 1 tsp = 4.6 g → 4.60 g × 53 kcal/100 g = 2.4 kcal
        //   6. Egg Yolks "5" → 01125: 1 large = 17 g → 85.00 g × 322 kcal/100 g = 273.7 kcal
        //   7. Heavy Cream "1/2 cup" → 01053: 1 cup, whipped = 120 g → 60.00 g × 345 kcal/100 g = 207.0 kcal
        //   8. Granulated Sugar "1/3 cup" → 19335: 1 cup = 200 g → 66.67 g × 387 kcal/100 g = 258.0 kcal
        //   9. Vanilla Extract "1 teaspoon" → 02050: 1 tsp = 4.2 g → 4.20 g × 288 kcal/100 g = 12.1 kcal
        //   10. Butter "100g" → 01001: weight → 100.00 g × 717 kcal/100 g = 717.0 kcal
        //   total 3775.9 kcal
        HandChecked(id: "53130", lines: [(1, "12061", 190.0000), (2, "01123", 132.0000), (3, "19335", 250.0000), (4, "20081", 15.6250), (5, "18369", 4.6000), (6, "01125", 85.0000), (7, "01053", 60.0000), (8, "19335", 66.6667), (9, "02050", 4.2000), (10, "01001", 100.0000)], kilocalories: 3775.9),
        // Spaghetti with Spanish flavours (53177):
        //   1. Chorizo "80g" → 07019: weight → 80.00 g × 455 kcal/100 g = 364.0 kcal
        //   2. Spaghetti "300g" → 20120: weight → 300.00 g × 371 kcal/100 g = 1113.0 kcal
        //   3. Parsley "20g" → 11297: weight → 20.00 g × 36 kcal/100 g = 7.2 kcal
        //   4. Red Pepper "2" → 11821: 1 medium (approx 2-3/4" long, 2-1/2 dia.) = 119 g → 238.00 g × 31 kcal/100 g = 73.8 kcal
        //   5. Olive Oil "2 tbsp" → 04053: 1 tablespoon = 13.5 g → 27.00 g × 884 kcal/100 g = 238.7 kcal
        //   6. Parmesan Cheese "50g" → 01032: weight → 50.00 g × 431 kcal/100 g = 215.5 kcal
        //   total 2012.2 kcal
        HandChecked(id: "53177", lines: [(1, "07019", 80.0000), (2, "20120", 300.0000), (3, "11297", 20.0000), (4, "11821", 238.0000), (5, "04053", 27.0000), (6, "01032", 50.0000)], kilocalories: 2012.2),
        // Turkish rice (vermicelli rice) (53252):
        //   1. Rice "300g" → 20044: weight → 300.00 g × 365 kcal/100 g = 1095.0 kcal
        //   2. Vegetable Oil "3  tablespoons" → 04044: 1 tbsp = 13.6 g → 40.80 g × 884 kcal/100 g = 360.7 kcal
        //   3. Vermicelli Pasta "70g" → 20120: weight → 70.00 g × 371 kcal/100 g = 259.7 kcal
        //   4. Unsalted Butter "30g" → 01145: weight → 30.00 g × 717 kcal/100 g = 215.1 kcal
        //   5. Chicken Stock "600ml" → 06172: 1 cup = 240 g → 608.65 g × 36 kcal/100 g = 219.1 kcal
        //   total 2149.6 kcal
        HandChecked(id: "53252", lines: [(1, "20044", 300.0000), (2, "04044", 40.8000), (3, "20120", 70.0000), (4, "01145", 30.0000), (5, "06172", 608.6524)], kilocalories: 2149.6),
        // Mini bundt cakes (53304):
        //   1. Butter "150g" → 01001: weight → 150.00 g × 717 kcal/100 g = 1075.5 kcal
        //   2. Plain Flour "175g" → 20081: weight → 175.00 g × 364 kcal/100 g = 637.0 kcal
        //   3. Caster Sugar "125g" → 19335: weight → 125.00 g × 387 kcal/100 g = 483.8 kcal
        //   4. Egg "3" → 01123: 1 medium = 44 g → 132.00 g × 143 kcal/100 g = 188.8 kcal
        //   5. Baking Powder "1 tsp" → 18369: 1 tsp = 4.6 g → 4.60 g × 53 kcal/100 g = 2.4 kcal
        //   6. Cocoa Powder "2 tsp" → 19165: 1 cup = 86 g → 3.58 g × 228 kcal/100 g = 8.2 kcal
        //   7. Milk "3  tablespoons" → 01077: 1 tbsp = 15 g → 45.00 g × 61 kcal/100 g = 27.4 kcal
        //   8. Icing Sugar "1 tablespoon" → 19336: 1 tbsp unsifted = 8 g → 8.00 g × 389 kcal/100 g = 31.1 kcal
        //   total 2454.2 kcal
        HandChecked(id: "53304", lines: [(1, "01001", 150.0000), (2, "20081", 175.0000), (3, "19335", 125.0000), (4, "01123", 132.0000), (5, "18369", 4.6000), (6, "19165", 3.5833), (7, "01077", 45.0000), (8, "19336", 8.0000)], kilocalories: 2454.2),
        // Torta de fiambre (53318):
        //   1. Cheddar Cheese "150g" → 01009: weight → 150.00 g × 403 kcal/100 g = 604.5 kcal
        //   2. Ham "200g" → 07029: weight → 200.00 g × 163 kcal/100 g = 326.0 kcal
        //   3. Egg "3" → 01123: 1 medium = 44 g → 132.00 g × 143 kcal/100 g = 188.8 kcal
        //   4. Vegetable Oil "100g" → 04044: weight → 100.00 g × 884 kcal/100 g = 884.0 kcal
        //   5. Milk "240g" → 01077: weight → 240.00 g × 61 kcal/100 g = 146.4 kcal
        //   6. All purpose flour "120g" → 20081: weight → 120.00 g × 364 kcal/100 g = 436.8 kcal
        //   7. Baking Powder "2 tsp" → 18369: 1 tsp = 4.6 g → 9.20 g × 53 kcal/100 g = 4.9 kcal
        //   8. Salt "1 tsp" → 02047: 1 tsp = 6 g → 6.00 g × 0 kcal/100 g = 0.0 kcal
        //   9. Dried Oregano "To taste": no amount, not weighed
        //   total 2591.3 kcal
        HandChecked(id: "53318", lines: [(1, "01009", 150.0000), (2, "07029", 200.0000), (3, "01123", 132.0000), (4, "04044", 100.0000), (5, "01077", 240.0000), (6, "20081", 120.0000), (7, "18369", 9.2000), (8, "02047", 6.0000), (9, "02027", nil)], kilocalories: 2591.3),
    ]

    @Test func twentyMealsWeighAndAddUpAsWorkedOutByHand() throws {
        let estimator = try Reference.loaded()
        let meals = Dictionary(uniqueKeysWithValues: try Self.meals().map { ($0.id.id, $0) })
        #expect(Self.handChecked.count == 20)
        for checked in Self.handChecked {
            let meal = try #require(meals[checked.id])
            let estimate = estimator.estimate(meal)
            for (position, food, grams) in checked.lines {
                let line = try #require(estimate.lines.first { $0.position == position }, "\(checked.id) \(position)")
                #expect(line.matchId == food, "\(checked.id) line \(position): \(line.name)")
                if let grams {
                    let weighed = try #require(line.grams, "\(checked.id) line \(position): \(line.reason ?? "")")
                    #expect(abs(weighed - grams) <= grams * 0.001, "\(checked.id) line \(position): \(weighed) g")
                } else {
                    #expect(line.grams == nil, "\(checked.id) line \(position)")
                }
            }
            let energy = try #require(estimate.amountPer100g(.calories)) * estimate.matchedGrams / 100
            #expect(abs(energy - checked.kilocalories) <= checked.kilocalories * 0.1,
                    "\(checked.id): \(energy) kcal against \(checked.kilocalories)")
        }
    }
}
