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
        put(summary.itemsByMeal, into: &output) { $0.put($1) }
        output.put(summary.itemsWithCodes)
        output.put(summary.recipes)
        put(summary.mealsByRestaurant, into: &output) { $0.put($1) }
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
            summary.itemsByMeal = try map(&input) { try $0.int() }
            summary.itemsWithCodes = try input.int()
            summary.recipes = try input.int()
            summary.mealsByRestaurant = try map(&input) { try $0.strings() }
            summary.itemsInUnnamedSections = try input.int()
            summary.itemsNamedByID = try input.int()
            summary.labels = try input.int()
            summary.zeroedLabels = try input.int()
            guard input.isAtEnd else { throw Failure.damagedBytes }
            return summary
        }
    }

    /// A map as its count, then each key and its value, by key.
    private static func put<Value>(_ map: [String: Value], into output: inout FieldWriter,
                                   _ value: (inout FieldWriter, Value) -> Void) {
        output.put(map.count)
        for (key, entry) in map.sorted(by: { $0.key < $1.key }) {
            output.put(key)
            value(&output, entry)
        }
    }

    /// A map `put` laid out; a key twice is damage, not a value overwritten.
    private static func map<Value>(_ input: inout FieldReader, _ value: (inout FieldReader) throws -> Value) throws
        -> [String: Value] {
        var map: [String: Value] = [:]
        for _ in 0..<(try input.count()) {
            let key = try input.string()
            guard map.updateValue(try value(&input), forKey: key) == nil else { throw Failure.damagedBytes }
        }
        return map
    }
}
