import FoodModel

/// A problem with one food's label: recorded against the food (the food is flagged), never a
/// reason to hold back a whole run, since one bad label must not keep every menu unpublished.
public struct FoodFlag: Hashable, Sendable {
    public var food: FoodID
    /// `energy_sanity`, `implausible_value`, `label_without_nutrients`, `dv_ceiling` or
    /// `portion_mismatch`.
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
    /// Protein, carbohydrate and fat may weigh this many grams more than what the label is per
    /// (100 g, or a serving that is a weight) before the label is impossible: what rounding
    /// three amounts and a serving's grams can add on a US label (1 g, 1 g, 0.5 g of them, half
    /// a gram of the weight), more than a kitchen system's two decimals ever add.
    public var weightSlack: Double

    public init(energyTolerance: Double = 0.2, energySlack: Double = 10, maximumCalories: Double = 10_000,
                weightSlack: Double = 2) {
        self.energyTolerance = energyTolerance
        self.energySlack = energySlack
        self.maximumCalories = maximumCalories
        self.weightSlack = weightSlack
    }

    /// No food gives more than fat's 9 kcal a gram (pure oil is 884 kcal per 100 g).
    static let maximumKcalPerGram = 9.0
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
        let calories = food.calories ?? grams(.calories, in: food, unit: .kcal)
        if let calories, food.labelBasis != .hundredGrams, calories > limits.maximumCalories {
            flags.append(FoodFlag(food: food.id, check: "implausible_value", nutrient: .calories,
                                  message: "\(LabelNumber.text(calories)) kcal in one serving is more than "
                                      + "\(LabelNumber.text(limits.maximumCalories))"))
        }
        return flags + heavierThanItsWeight(food, calories: calories, limits: limits)
    }

    /// A label whose amounts cannot fit in what it is per: protein, carbohydrate and fat weighing
    /// more than 100 g in 100 g (a UCLA recipe document prints 143 g), or more energy than fat
    /// gives a gram. Only where the label's weight is known: 100 g, or a serving that is a weight.
    private static func heavierThanItsWeight(_ food: Food, calories: Double?, limits: NutritionLimits) -> [FoodFlag] {
        let weight: Double
        let per: String
        switch food.labelBasis {
        case .hundredGrams: (weight, per) = (100, "100 g")
        case .serving:
            guard let grams = food.servingGrams, grams > 0 else { return [] }
            (weight, per) = (grams, "a serving of \(LabelNumber.text(grams)) g")
        case nil: return []
        }
        var flags: [FoodFlag] = []
        let macros = [NutrientKey.protein, .totalCarbohydrate, .totalFat].compactMap { grams($0, in: food) }
        let total = macros.reduce(0, +)
        if !macros.isEmpty, total > weight + limits.weightSlack {
            flags.append(FoodFlag(
                food: food.id, check: "implausible_value", nutrient: nil,
                message: "protein, carbohydrate and fat weigh \(LabelNumber.text(LabelNumber.snapped(total))) g in \(per)"))
        }
        let ceiling = NutritionLimits.maximumKcalPerGram * weight + limits.energySlack
        if let calories, calories > ceiling {
            flags.append(FoodFlag(
                food: food.id, check: "implausible_value", nutrient: .calories,
                message: "\(LabelNumber.text(calories)) kcal in \(per) is more than fat's 9 kcal a gram gives"))
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
