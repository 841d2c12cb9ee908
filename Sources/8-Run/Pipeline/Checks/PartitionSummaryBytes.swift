import Basics
import FoodModel
import Foundation

/// A partition's summary as the ledger and the parse cache keep it, each field in a fixed order
/// (`FieldWriter`). A night reads a summary for every partition it holds, a thousand and more on
/// three years of days: read through JSON in the ledger and through `Codable` in the cache, they
/// were a twentieth of a night with one day changed. Maps are laid out sorted by key, so that one
/// summary always gives the same bytes.
enum PartitionSummaryBytes {
    static func encode(_ summary: PartitionSummary) -> Data {
        var output = FieldWriter()
        output.put(summary.menuItems)
        output.put(summary.itemsByMeal.count)
        for (meal, items) in summary.itemsByMeal.sorted(by: { $0.key < $1.key }) {
            output.put(meal)
            output.put(items)
        }
        output.put(summary.itemsWithCodes)
        output.put(summary.recipes)
        output.put(summary.mealsByRestaurant.count)
        for (restaurant, meals) in summary.mealsByRestaurant.sorted(by: { $0.key < $1.key }) {
            output.put(restaurant)
            output.put(meals)
        }
        output.put(summary.itemsInUnnamedSections)
        output.put(summary.itemsNamedByID)
        output.put(summary.labels)
        output.put(summary.zeroedLabels)
        return Data(output.bytes)
    }

    /// Throws `Failure.damagedBytes` for bytes this did not write (a key twice included).
    static func decode(_ data: Data) throws -> PartitionSummary {
        try data.withUnsafeBytes { buffer in
            var input = FieldReader(buffer)
            var summary = PartitionSummary()
            summary.menuItems = try input.int()
            for _ in 0..<(try input.count()) {
                let meal = try input.string()
                guard summary.itemsByMeal.updateValue(try input.int(), forKey: meal) == nil else {
                    throw Failure.damagedBytes
                }
            }
            summary.itemsWithCodes = try input.int()
            summary.recipes = try input.int()
            for _ in 0..<(try input.count()) {
                let restaurant = try input.string()
                guard summary.mealsByRestaurant.updateValue(try input.strings(), forKey: restaurant) == nil else {
                    throw Failure.damagedBytes
                }
            }
            summary.itemsInUnnamedSections = try input.int()
            summary.itemsNamedByID = try input.int()
            summary.labels = try input.int()
            summary.zeroedLabels = try input.int()
            guard input.isAtEnd else { throw Failure.damagedBytes }
            return summary
        }
    }
}
