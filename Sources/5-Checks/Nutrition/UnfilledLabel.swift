import FoodModel

/// A label whose every declared amount is 0 (and that prints no %DV above 0) is a label nobody
/// filled in, not a measured food: the 2016 UCLA dataset has 192 of them (an Ahi Tuna Bowl at
/// 0 kcal), and storing their zeros as amounts moves every average they enter. Such a label
/// keeps its rows, each with its printed "0" and no amount, and its food is flagged.
public enum UnfilledLabel {
    public static func isUnfilled(_ food: Food) -> Bool {
        var declared = food.calories.map { [$0] } ?? []
        for nutrient in food.nutrients {
            if let percent = nutrient.printedDailyValuePercent, percent != 0 { return false }
            // A label already cleared (a stale food read back from a snapshot) is still unfilled.
            if let amount = nutrient.amount ?? (nutrient.printedAmount == "0" ? 0 : nil) { declared.append(amount) }
        }
        return !declared.isEmpty && declared.allSatisfy { $0 == 0 }
    }

    /// The food with its label's zeros kept as printed, not as amounts or percentages.
    public static func cleared(_ food: Food) -> Food {
        var food = food
        food.calories = nil
        food.nutrients = food.nutrients.map { nutrient in
            var nutrient = nutrient
            if nutrient.amount != nil { nutrient.printedAmount = "0" }
            nutrient.amount = nil
            nutrient.printedDailyValuePercent = nil
            nutrient.computedDailyValuePercent = nil
            nutrient.dailyValueStandard = nil
            return nutrient
        }
        return food
    }
}
