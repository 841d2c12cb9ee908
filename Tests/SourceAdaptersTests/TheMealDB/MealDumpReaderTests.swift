import Basics
import FoodModel
import Foundation
@testable import SourceAdapters
import Testing

/// A dump read in chunks must give what `MealDB.decodeMeals` gives on the whole, however it is
/// cut, and say where it went wrong when it is not a dump. Names and positions below were read
/// from meals-dump-442.json by hand.
@Suite struct MealDumpReaderTests {
    static let location = MealDumpTests.location

    /// Every meal the reader gives when handed `data` `size` bytes at a time.
    static func read(_ data: Data, size: Int, batchSize: Int = 2_000,
                     location: String = location) throws -> [Recipe] {
        var reader = MealDumpReader(location: location, batchSize: batchSize)
        var recipes: [Recipe] = []
        for start in stride(from: 0, to: data.count, by: size) {
            recipes += try reader.read(data.subdata(in: start..<min(start + size, data.count)))
        }
        recipes += try reader.finish()
        #expect(reader.mealCount == recipes.count)
        return recipes
    }

    /// The error the reader throws on `data` in chunks of `size`, or nil.
    static func error(_ data: Data, size: Int, batchSize: Int = 2_000) -> Failure? {
        throwsError { try read(data, size: size, batchSize: batchSize) }
    }

    static func dump() throws -> Data { try TestData.data(TestData.dumpURL) }

    /// The dump with one piece of text replaced, which must be there.
    static func dump(replacing original: String, with replacement: String) throws -> Data {
        let text = try #require(String(data: try dump(), encoding: .utf8))
        #expect(text.contains(original))
        return Data(text.replacingOccurrences(of: original, with: replacement).utf8)
    }

    @Test(arguments: zip([1, 7, 4096, Int.max], [25, 2_000, 1, 2_000]))
    func theRealDumpInChunksIsWhatDecodeMealsGives(size: Int, batchSize: Int) throws {
        let data = try Self.dump()
        let recipes = try Self.read(data, size: min(size, data.count), batchSize: batchSize)
        #expect(recipes == (try MealDB.decodeMeals(data, location: Self.location)))
        #expect(recipes.count == 442)
        #expect(recipes.first?.id.id == "52764")
        #expect(recipes.first?.name == "Garides Saganaki")
        #expect(recipes[99].name == "Chelsea Buns")
        #expect(recipes.last?.id.id == "53340")
        #expect(recipes.last?.name == "Hodge Podge")
    }

    /// Meals come out a batch at a time while the list goes on, each once the batch after it is
    /// complete (it is decoded meanwhile), the last at the end.
    @Test func mealsArriveInBatchesBeforeTheEnd() throws {
        let data = try Self.dump()
        var reader = MealDumpReader(location: Self.location, batchSize: 100)
        var counts: [Int] = []
        for start in stride(from: 0, to: data.count, by: 4096) {
            let recipes = try reader.read(data.subdata(in: start..<min(start + 4096, data.count)))
            if !recipes.isEmpty { counts.append(recipes.count) }
        }
        #expect(counts == [100, 100, 100, 100])
        #expect(try reader.finish().count == 42)
        #expect(reader.mealCount == 442)
    }

    @Test(arguments: [1, 4096])
    func theBareArrayGivesWhatTheObjectGives(size: Int) throws {
        let data = try Self.dump()
        let open = try #require(data.firstIndex(of: UInt8(ascii: "[")))
        let close = try #require(data.lastIndex(of: UInt8(ascii: "]")))
        let array = data.subdata(in: open..<(close + 1))
        #expect(try Self.read(array, size: size) == (try MealDB.decodeMeals(data, location: Self.location)))
    }

    @Test(arguments: [1, 4, 1_000])
    func nullMealsIsNoMeals(size: Int) throws {
        #expect(try Self.read(Data(#"{"meals": null}"#.utf8), size: size).isEmpty)
        #expect(try Self.read(Data(#" {"before": [], "meals":null , "after": 1} "#.utf8), size: size).isEmpty)
    }

    /// Other keys, before and after the list, hold brackets, braces and quotes in strings, and
    /// a nested "meals" that is not the list; every way of cutting the document reads the same.
    @Test func otherKeysAreSkippedWhereverTheDocumentIsCut() throws {
        let document = Data(#"""
        {"note": "a \"quoted\" [list], {braces} and \\", "nested": {"meals": [1, "]"], "x": [[], {}]},
         "n": -1.5e3, "meals": [
          {"idMeal": "1", "strMeal": "Tricky [one] \"quoted\"", "strTags": "A,B"},
          {"idMeal": 2, "strMeal": "Back\\slash }"}
         ],
         "after": ["]", "}", "\"]"], "flag": true, "nothing": null}
        """#.utf8)
        let expected = try MealDB.decodeMeals(document, location: "inline")
        #expect(expected.map(\.name) == [#"Tricky [one] "quoted""#, #"Back\slash }"#])
        #expect(expected.map(\.id.id) == ["1", "2"])
        for size in 1...document.count {
            #expect(try Self.read(document, size: size, batchSize: 1) == expected, "chunks of \(size)")
        }
        for cut in 0...document.count {
            var reader = MealDumpReader(location: "inline")
            let recipes = try reader.read(document.subdata(in: 0..<cut))
                + reader.read(document.subdata(in: cut..<document.count)) + reader.finish()
            #expect(recipes == expected, "cut at \(cut)")
        }
    }

    /// What JSONDecoder accepts, the reader accepts: a byte order mark, one trailing comma, an
    /// escaped key, and a repeated "meals" key, of which the first counts.
    @Test func quirksJSONDecoderAcceptsReadTheSame() throws {
        let meal = #"{"idMeal": "7", "strMeal": "Soup"}"#
        let documents = [
            "\u{FEFF}{\"meals\": [\(meal)]}",
            "[\(meal),]",
            #"{"meals": [\#(meal)], "x": [1,],}"#,
            #"{"me\u0061ls": [\#(meal)]}"#,
            #"{"meals": [\#(meal)], "meals": []}"#,
        ]
        for document in documents.map({ Data($0.utf8) }) {
            let expected = try MealDB.decodeMeals(document, location: "inline")
            #expect(expected.map(\.name) == ["Soup"])
            #expect(try Self.read(document, size: 1) == expected)
        }
    }

    @Test func aDocumentThatIsNotADumpIsAnError() throws {
        for size in [1, 100] {
            let noMeals = try #require(Self.error(Data(#"{"foo": [1, {"meals": []}]}"#.utf8), size: size))
            #expect(noMeals.description == #"themealdb/meals-dump-442.json: no "meals" key"#)
            let number = try #require(Self.error(Data("42".utf8), size: size))
            #expect(number.message == #"expected an object with a "meals" key or an array"#)
            let html = try #require(Self.error(Data("<html></html>".utf8), size: size))
            #expect(html.message.contains("not valid JSON"))
            let notAList = try #require(Self.error(Data(#"{"meals": "none"}"#.utf8), size: size))
            #expect(notAList.message == #""meals" is neither a list nor null"#)
        }
        #expect(Self.error(Data(" \n".utf8), size: 1)?.message.contains("empty") == true)
    }

    @Test(arguments: [7, 4096, Int.max])
    func aTruncatedDumpNamesTheMealItEndsIn(size: Int) throws {
        let data = try Self.dump()
        // python: the first half of the file holds 213 "idMeal" keys, and ends inside a string.
        let half = data.subdata(in: 0..<(data.count / 2))
        let error = try #require(Self.error(half, size: min(size, half.count), batchSize: 50))
        #expect(error.place?.location == Self.location)
        #expect(error.description.hasPrefix(Self.location))
        #expect(error.message == "the dump ends inside meal 213")
    }

    /// The first batch comes out when the second is complete; the second, being decoded, does
    /// not come out of a dump that ends inside the third.
    @Test func mealsBeforeTheCutAreReturnedABatchBehind() throws {
        let data = try Self.dump()
        let cut = try #require(data.range(of: Data(#""strMeal": "Spanish fig & almond balls""#.utf8))).upperBound
        var reader = MealDumpReader(location: Self.location, batchSize: 100)
        #expect(try reader.read(data.subdata(in: 0..<cut)).count == 100)
        let error = try #require(throwsError { try reader.finish() })
        #expect(error.message == "the dump ends inside meal 300")
    }

    @Test func aDocumentEndingOutsideAMealSaysWhere() throws {
        let list = try #require(Self.error(Data(#"{"meals": [{"idMeal": "1", "strMeal": "A"}, "#.utf8), size: 3))
        #expect(list.message == "the dump ends before its list of meals closed (1 read)")
        let object = try #require(Self.error(Data(#"{"meals": [], "x": 1"#.utf8), size: 3))
        #expect(object.message == "the dump ends before its object closed")
    }

    @Test(arguments: zip([7, 4096, Int.max], [25, 2_000, 2_000]))
    func aWrongTypedFieldNamesTheMealAndTheField(size: Int, batchSize: Int) throws {
        // The 300th meal of the file, its name made a list.
        let data = try Self.dump(replacing: #""strMeal": "Spanish fig & almond balls""#,
                                 with: #""strMeal": ["Spanish fig & almond balls"]"#)
        #expect(throws: Failure.self) { try MealDB.decodeMeals(data, location: Self.location) }
        let error = try #require(Self.error(data, size: min(size, data.count), batchSize: batchSize))
        #expect(error.place?.location == Self.location)
        #expect(error.message.hasPrefix("meal 300: strMeal: "))
    }

    @Test func aMealThatIsNotJSONIsNamed() throws {
        let document = Data(#"[{"idMeal": "1", "strMeal": "A"}, {"idMeal": "2", "strMeal": tru}]"#.utf8)
        #expect(Self.error(document, size: 5)?.message == "meal 2 is not valid JSON")
        let tags = Data(#"{"meals": [{"idMeal": "1", "strMeal": "A", "strTags": ["x"]}]}"#.utf8)
        #expect(Self.error(tags, size: 5)?.message.hasPrefix("meal 1: strTags: ") == true)
    }

    /// The first problem in the document is the one reported, even when a later one is found
    /// before the batch holding the bad meal is decoded.
    @Test func aBadMealComesBeforeALaterProblem() throws {
        let truncated = Data(#"[{"idMeal": "1", "strMeal": true}, {"idMeal": "2""#.utf8)
        #expect(Self.error(truncated, size: 4)?.message.hasPrefix("meal 1: strMeal: ") == true)
        let noComma = Data(#"{"meals": [{"idMeal": "1", "strMeal": "A"}, {"idMeal": "2"} {"idMeal": "3"}]}"#.utf8)
        #expect(Self.error(noComma, size: 4)?.message == "meal 2: strMeal is missing or blank")
        // Batches of two: meals 1 and 2 are being decoded and meal 3 waits when the comma is missed.
        let badWhileDecoded = Data(#"""
            [{"idMeal": "1", "strMeal": true}, {"idMeal": "2", "strMeal": "B"}, {"idMeal": "3", "strMeal": "C"} {"idMeal": "4"}]
            """#.utf8)
        #expect(Self.error(badWhileDecoded, size: 4, batchSize: 2)?.message.hasPrefix("meal 1: strMeal: ") == true)
        let badWhileWaiting = Data(#"""
            [{"idMeal": "1", "strMeal": "A"}, {"idMeal": "2", "strMeal": "B"}, {"idMeal": "3"} {"idMeal": "4"}]
            """#.utf8)
        #expect(Self.error(badWhileWaiting, size: 4, batchSize: 2)?.message == "meal 3: strMeal is missing or blank")
    }

    @Test(arguments: [1, 4096])
    func garbageAfterTheDumpIsAnError(size: Int) throws {
        let data = try Self.dump()
        #expect(try Self.read(data + Data("\n\t \r\n".utf8), size: size).count == 442)
        let error = try #require(Self.error(data + Data("\n x".utf8), size: size))
        #expect(error.place?.location == Self.location)
        #expect(error.message == "not valid JSON at byte offset \(data.count + 2): more after the end of the dump")
        #expect(Self.error(Data(#"[{"idMeal": "1", "strMeal": "A"}]]"#.utf8), size: size) != nil)
    }

    @Test func anErrorIsThrownAgainOnLaterCalls() throws {
        var reader = MealDumpReader(location: "inline")
        let first = try #require(throwsError { try reader.read(Data("{]".utf8)) })
        #expect(throwsError { try reader.read(Data("[]".utf8)) }?.description == first.description)
        #expect(throwsError { try reader.finish() }?.description == first.description)
    }

    /// The scanner finds a value's end however its bytes are cut, going on where it stopped.
    @Test func theScannerFindsTheEndAcrossAnyCut() {
        let values = [#"{"a": "x\\\"]}", "b": [1, {"c": null}], "d": "\\"}"#, #""a \"[\" b""#, "-12.5e3"]
        for value in values {
            let bytes = Array((value + ", ").utf8)
            for cut in 0..<value.utf8.count {
                var scanner = JSONValueScanner()
                let ends = bytes.withUnsafeBytes { all in
                    [scanner.scan(UnsafeRawBufferPointer(rebasing: all[0..<cut]), from: 0),
                     scanner.scan(UnsafeRawBufferPointer(rebasing: all[cut...]), from: 0).map { $0 + cut }]
                }
                #expect(ends == [nil, value.utf8.count], "\(value) cut at \(cut)")
            }
        }
    }
}
