import Basics
import FoodModel
import Foundation
@testable import SourceAdapters
import Testing

/// A large dump is decoded in pieces side by side; the pieces must give exactly what one
/// decode of the whole gives, on the real 442 meals, whatever the number of pieces.
@Suite struct DecodingInPiecesTests {
    private func whole(_ data: Data) throws -> [Recipe] {
        try MealDB.decodeMeals(data, location: MealDumpTests.location)
    }

    @Test(arguments: [1, 2, 7, 442, 1_000])
    func piecesGiveWhatTheWholeGives(pieces: Int) throws {
        let data = try TestData.data(TestData.dumpURL)
        let expected = try whole(data)
        #expect(MealDB.decodeMealsInPieces(data, pieces: pieces) == expected)
    }

    /// The dump as a bare array (how some mirrors save it), with other keys around the list in
    /// the object form, and strings holding brackets, braces, quotes and commas.
    @Test func bothEnvelopesAndAwkwardStringsSplitCleanly() throws {
        let meal = { (id: Int, name: String) in
            #"{"idMeal": "\#(id)", "strMeal": "\#(name)", "strInstructions": "Mix [a], {b} and \"c\", then \\ serve."}"#
        }
        let meals = (1...9).map { meal($0, "Meal \($0) [x], {y}") }.joined(separator: ",\n ")
        let object = Data(#"{"note": {"meals": [1]}, "meals": [\#(meals)], "more": null}"#.utf8)
        let array = Data("[ \(meals) ]".utf8)
        let expected = try whole(array)
        #expect(expected.count == 9)
        #expect(MealDB.decodeMealsInPieces(array, pieces: 4) == expected)
        #expect(MealDB.decodeMealsInPieces(object, pieces: 4) == expected)
    }

    /// A piece that does not decode sends the caller back to the whole, whose error names the
    /// meal; a list that cannot be split (null, truncated) does the same.
    @Test func aBadPieceOrAnUnsplittableListGivesNoPieces() throws {
        let good = #"{"idMeal": "1", "strMeal": "Fine"}"#
        let bad = #"{"idMeal": 2, "strMeal": ["not", "a", "name"]}"#
        #expect(MealDB.decodeMealsInPieces(Data("[\(good), \(bad)]".utf8), pieces: 2) == nil)
        #expect(MealDB.decodeMealsInPieces(Data(#"{"meals": null}"#.utf8), pieces: 2) == nil)
        #expect(MealDB.decodeMealsInPieces(Data("[\(good), \(good)".utf8), pieces: 2) == nil)
        #expect(throws: Failure.self) { try whole(Data("[\(good), \(bad)]".utf8)) }
    }
}
