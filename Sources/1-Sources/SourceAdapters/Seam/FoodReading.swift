import Basics
import FoodModel
import Foundation

/// A food read from its own document (a recipe, ingredient or label page): the food, and what in
/// the document could not be read (left out, one line each naming the document).
public struct FoodReading: Sendable, Codable {
    public var food: Food
    public var problems: [String]

    public init(food: Food, problems: [String]) {
        self.food = food
        self.problems = problems
    }
}
