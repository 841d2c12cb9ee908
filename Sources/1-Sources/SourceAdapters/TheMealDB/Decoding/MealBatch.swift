import Basics
import FoodModel
import Foundation

/// Meals of a dump read but not yet decoded: their bytes one after another, joined by commas,
/// and where each one is. The last meal may still be arriving; only whole meals are decoded.
///
/// Decoding waits for a batch, since a batch spread over every core goes as fast as the whole
/// document does in `MealDB.decodeMealsInPieces`, while one meal at a time would pay for a
/// decoder per meal on one core. It runs on other threads while the reader goes on
/// (`MealDumpReader`).
struct MealBatch {
    private var bytes = Data()
    private var meals: [Range<Int>] = []
    private var mealStart = 0

    /// The whole meals waiting.
    var count: Int { meals.count }

    mutating func beginMeal() {
        if !meals.isEmpty { bytes.append(UInt8(ascii: ",")) }
        mealStart = bytes.count
    }

    mutating func append(_ part: UnsafeRawBufferPointer) {
        bytes.append(part.assumingMemoryBound(to: UInt8.self))
    }

    mutating func endMeal() {
        meals.append(mealStart..<bytes.count)
    }

    /// The whole meals, decoded in order on other threads from now on, and the batch emptied;
    /// nil when none is waiting. `firstPosition` is the first meal's place in the dump's list,
    /// counted from 1, for errors.
    mutating func decodeAhead(firstPosition: Int, location: String) -> WorkAhead<[Recipe]>? {
        guard !meals.isEmpty else { return nil }
        let bytes = bytes, meals = meals
        discard()
        return WorkAhead {
            let pieces = 4 * Cores.active
            let size = (meals.count + pieces - 1) / pieces
            let groups = stride(from: 0, to: meals.count, by: size).map { $0..<min($0 + size, meals.count) }
            let decoded = groups.mappedOnEveryCore(minimumCount: 2) { group in
                Self.decode(group, of: meals, in: bytes, firstPosition: firstPosition, location: location)
            }
            var recipes: [Recipe] = []
            recipes.reserveCapacity(meals.count)
            for result in decoded {
                recipes += try result.get()
            }
            return recipes
        }
    }

    /// Empties the batch, keeping the room its bytes took.
    mutating func discard() {
        bytes = Data(capacity: bytes.count)
        meals.removeAll(keepingCapacity: true)
    }

    /// Meals `group` decoded as one array, or, should that fail, one by one, so that the error
    /// names the first bad meal and its field as decoding it alone does.
    private static func decode(_ group: Range<Int>, of meals: [Range<Int>], in bytes: Data,
                               firstPosition: Int, location: String) -> Result<[Recipe], Failure> {
        var piece = Data(capacity: meals[group.upperBound - 1].upperBound - meals[group.lowerBound].lowerBound + 2)
        piece.append(UInt8(ascii: "["))
        piece.append(bytes[meals[group.lowerBound].lowerBound..<meals[group.upperBound - 1].upperBound])
        piece.append(UInt8(ascii: "]"))
        if let records = try? JSONDecoder().decode([MealRecord].self, from: piece) {
            return .success(records.map(RecipeMapping.recipe(from:)))
        }
        var recipes: [Recipe] = []
        for index in group {
            do {
                recipes.append(RecipeMapping.recipe(from: try JSONDecoder().decode(MealRecord.self, from: bytes[meals[index]])))
            } catch {
                let tooDeep = JSONNesting.firstTooDeep(bytes[meals[index]]).map { _ in
                    Failure.badInput("meal \(firstPosition + index) nests arrays and objects deeper than "
                                     + "\(JSONNesting.limit)", at: location)
                }
                return .failure(tooDeep ?? DecodingFailure.mealError(error, position: firstPosition + index, location: location))
            }
        }
        return .success(recipes)
    }
}
