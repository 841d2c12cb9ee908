import FoodModel

/// A problem with one food's label: recorded against the food (the food is flagged), never a
/// reason to hold back a whole run, since one bad label must not keep every menu unpublished.
public struct FoodFlag: Hashable, Sendable {
    public var food: FoodID
    /// `energy_sanity` or `implausible_value`.
    public var check: String
    public var nutrient: NutrientKey?
    public var message: String

    public init(food: FoodID, check: String, nutrient: NutrientKey? = nil, message: String) {
        self.food = food
        self.check = check
        self.nutrient = nutrient
        self.message = message
    }
}

/// How far a label may stray before a food is flagged.
public struct NutritionLimits: Hashable, Sendable {
    /// Calories may differ from 4 × protein + 4 × carbohydrate + 9 × fat by this fraction of the
    /// larger of the two: Atwater factors are averages (fiber gives about 2 kcal/g, alcohol 7),
    /// and all four numbers are printed rounded. 20% flags 275 of the 37,037 items of the 2016
    /// UCLA dataset, among them labels whose calories belong to another portion.
    public var energyTolerance: Double
    /// ... or by this many kcal, whichever is more, so that rounding does not flag small foods.
    public var energySlack: Double
    /// More calories than this in one serving is not a serving (the 2016 dataset's largest,
    /// a whole tres leches cake, is 7,505 kcal).
    public var maximumCalories: Double

    public init(energyTolerance: Double = 0.2, energySlack: Double = 10, maximumCalories: Double = 10_000) {
        self.energyTolerance = energyTolerance
        self.energySlack = energySlack
        self.maximumCalories = maximumCalories
    }
}

/// Checks one food's label against itself: energy against macronutrients, parts against
/// wholes, signs and magnitudes.
public enum FoodReview {
    public static func flags(for food: Food, limits: NutritionLimits = NutritionLimits()) -> [FoodFlag] {
        implausibleValues(in: food, limits: limits) + [energySanity(of: food, limits: limits)].compactMap { $0 }
    }

    /// Calories against 4 × protein + 4 × carbohydrate + 9 × fat; nil when they agree or the
    /// label lacks one of the four.
    public static func energySanity(of food: Food, limits: NutritionLimits = NutritionLimits()) -> FoodFlag? {
        guard let calories = food.calories ?? grams(.calories, in: food, unit: .kcal),
              let protein = grams(.protein, in: food), let carbohydrate = grams(.totalCarbohydrate, in: food),
              let fat = grams(.totalFat, in: food)
        else { return nil }
        let estimate = 4 * protein + 4 * carbohydrate + 9 * fat
        let allowed = max(limits.energyTolerance * max(calories, estimate), limits.energySlack)
        guard abs(calories - estimate) > allowed else { return nil }
        return FoodFlag(
            food: food.id, check: "energy_sanity", nutrient: .calories,
            message: "\(LabelNumber.text(calories)) kcal printed, but 4 × \(LabelNumber.text(protein)) g protein"
                + " + 4 × \(LabelNumber.text(carbohydrate)) g carbohydrate + 9 × \(LabelNumber.text(fat)) g fat"
                + " = \(LabelNumber.text(LabelNumber.snapped(estimate))) kcal")
    }

    /// Parts that a label cannot hold more of than their whole.
    static let parts: [(part: NutrientKey, whole: NutrientKey)] = [
        (.saturatedFat, .totalFat), (.transFat, .totalFat), (.sugars, .totalCarbohydrate),
        (.dietaryFiber, .totalCarbohydrate), (.caloriesFromFat, .calories),
    ]

    /// Negative amounts or percentages, a part larger than its whole (saturated fat above total
    /// fat), and more calories than a serving can have.
    public static func implausibleValues(in food: Food, limits: NutritionLimits = NutritionLimits()) -> [FoodFlag] {
        var flags: [FoodFlag] = []
        for nutrient in food.nutrients {
            if let amount = nutrient.amount, amount < 0 {
                flags.append(FoodFlag(food: food.id, check: "implausible_value", nutrient: nutrient.key,
                                      message: "\(nutrient.name) is negative (\(LabelNumber.text(amount)) \(nutrient.unit ?? ""))"))
            }
            if let percent = nutrient.printedDailyValuePercent, percent < 0 {
                flags.append(FoodFlag(food: food.id, check: "implausible_value", nutrient: nutrient.key,
                                      message: "\(nutrient.name) %DV is negative (\(LabelNumber.text(percent))%)"))
            }
        }
        for (part, whole) in parts {
            let unit: NutrientUnit = whole == .calories ? .kcal : .g
            guard let partAmount = grams(part, in: food, unit: unit),
                  let wholeAmount = whole == .calories ? food.calories ?? grams(whole, in: food, unit: unit)
                      : grams(whole, in: food, unit: unit),
                  partAmount > wholeAmount
            else { continue }
            flags.append(FoodFlag(
                food: food.id, check: "implausible_value", nutrient: part,
                message: "\(name(of: part, in: food)) (\(LabelNumber.text(partAmount)) \(unit.rawValue)) exceeds "
                    + "\(name(of: whole, in: food)) (\(LabelNumber.text(wholeAmount)) \(unit.rawValue))"))
        }
        if let calories = food.calories ?? grams(.calories, in: food, unit: .kcal), calories > limits.maximumCalories {
            flags.append(FoodFlag(food: food.id, check: "implausible_value", nutrient: .calories,
                                  message: "\(LabelNumber.text(calories)) kcal in one serving is more than "
                                      + "\(LabelNumber.text(limits.maximumCalories))"))
        }
        return flags
    }

    /// A nutrient's amount in `unit`; nil when absent or in a unit that does not convert.
    private static func grams(_ key: NutrientKey, in food: Food, unit: NutrientUnit = .g) -> Double? {
        guard let nutrient = food.nutrients.first(where: { $0.key == key }), let amount = nutrient.amount
        else { return nil }
        let from = nutrient.unit.flatMap(NutrientUnit.init(label:)) ?? (key == .calories || key == .caloriesFromFat ? .kcal : nil)
        return from?.convert(amount, to: unit, for: key)
    }

    private static func name(of key: NutrientKey, in food: Food) -> String {
        food.nutrients.first { $0.key == key }?.name ?? key.rawValue
    }
}
