import Basics
import Foundation

/// Foods as the parse cache keeps them: each field in a fixed order (`FieldWriter`). A night
/// reads back the foods of every day it did not parse again, and the generic coder spent more on
/// the keys and containers of their labels than on the values (a tenth of a night with one day
/// changed, perf). `FoodBytesTests` round-trips real foods of every adapter that reads labels,
/// so a field this forgot would fail there.
public enum FoodBytes {
    public static func encode(_ foods: [Food]) -> Data {
        FieldWriter.list(foods) { $0.put($1) }
    }

    /// Throws `Failure.damagedBytes` for bytes this did not write.
    public static func decode(_ data: Data) throws -> [Food] {
        try FieldReader.list(data) { try $0.food() }
    }
}

extension FieldWriter {
    fileprivate mutating func put(_ food: Food) {
        put(food.id)
        put(food.name)
        put(food.description)
        put(food.servingSize)
        put(food.serving)
        put(food.calories)
        put(food.nutrients)
        put(food.ingredients)
        put(food.allergens)
        put(food.codes)
        put(food.labelBasis?.rawValue)
        put(food.batchPortions)
        put(food.components.count)
        for component in food.components {
            put(component.name)
            put(component.amount)
            put(component.unit)
            put(present: component.food != nil)
            if let food = component.food { put(food) }
            put(present: component.isHeading)
            put(present: component.isSubRecipe)
        }
        put(food.cookingLossPercent)
    }

    private mutating func put(_ id: FoodID) {
        put(id.source)
        put(id.recipeId)
    }

    /// Shared with the labels printed on menus (`ServiceDayBytes`).
    mutating func put(_ serving: ServingSize?) {
        put(present: serving != nil)
        guard let serving else { return }
        put(serving.amount)
        put(serving.unit)
    }

    /// Shared with the labels printed on menus (`ServiceDayBytes`).
    mutating func put(_ nutrients: [NutrientValue]) {
        put(nutrients.count)
        for value in nutrients {
            put(value.key.rawValue)
            put(value.name)
            put(value.amount)
            put(value.unit)
            put(value.printedDailyValuePercent)
            put(value.computedDailyValuePercent)
            put(value.dailyValueStandard)
            put(value.printedAmount)
            put(value.amountBelow)
            put(value.amountAtLeast)
        }
    }
}

extension FieldReader {
    fileprivate mutating func food() throws -> Food {
        var food = Food(id: try foodID(), name: try string(), description: try optionalString(),
                        servingSize: try optionalString())
        food.serving = try serving()
        food.calories = try optionalDouble()
        food.nutrients = try nutrients()
        food.ingredients = try optionalString()
        food.allergens = try strings()
        food.codes = try strings()
        food.labelBasis = try labelBasis()
        food.batchPortions = try optionalDouble()
        food.components = try (0..<count()).map { _ in
            FoodComponent(name: try string(), amount: try optionalDouble(), unit: try optionalString(),
                          food: try flag() ? try foodID() : nil, isHeading: try flag(), isSubRecipe: try flag())
        }
        food.cookingLossPercent = try optionalDouble()
        return food
    }

    private mutating func foodID() throws -> FoodID {
        FoodID(source: try string(), recipeId: try string())
    }

    mutating func serving() throws -> ServingSize? {
        try flag() ? ServingSize(amount: try double(), unit: try string()) : nil
    }

    mutating func labelBasis() throws -> LabelBasis? {
        guard let text = try optionalString() else { return nil }
        guard let basis = LabelBasis(rawValue: text) else { throw Failure.damagedBytes }
        return basis
    }

    mutating func nutrients() throws -> [NutrientValue] {
        try (0..<count()).map { _ in
            NutrientValue(key: NutrientKey(try string()), name: try string(), amount: try optionalDouble(),
                          unit: try optionalString(), printedDailyValuePercent: try optionalDouble(),
                          computedDailyValuePercent: try optionalDouble(), dailyValueStandard: try optionalString(),
                          printedAmount: try optionalString(), amountBelow: try optionalDouble(),
                          amountAtLeast: try optionalDouble())
        }
    }
}
