import Basics
import FoodModel
import Foundation
import SourceAdapters

/// Parses of food documents kept between runs, by what each was parsed from. A night reads the
/// documents of every food on its menus (some 800 for UCLA), nearly all unchanged since the
/// night before, and parsing them again was a quarter of its CPU; a day whose menu changed now
/// parses only the documents whose bytes did. The pipeline keeps them with its partitions'
/// parses; losing one costs a parse, nothing more.
public protocol ParsedFoods: Sendable {
    /// The bytes kept under `key`, or nil when there are none or they cannot be trusted.
    func parsed(_ key: String) -> Data?
    /// Keeps `bytes` under `key`; a failure to keep them is ignored.
    func keep(_ bytes: Data, under key: String)
}

/// A reading is kept as its food in `FoodBytes`' form, then its problems.
extension ParsedFoods {
    func reading(_ key: String) -> FoodReading? {
        guard let bytes = parsed(key) else { return nil }
        return try? bytes.withUnsafeBytes { buffer in
            var input = FieldReader(buffer)
            let foods = try FoodBytes.decode(try input.data())
            let problems = try input.strings()
            guard input.isAtEnd, foods.count == 1, let food = foods.first else { throw Failure.damagedBytes }
            return FoodReading(food: food, problems: problems)
        }
    }

    func keep(_ reading: FoodReading, under key: String) {
        var output = FieldWriter()
        output.put(FoodBytes.encode([reading.food]))
        output.put(reading.problems)
        keep(Data(output.bytes), under: key)
    }
}

extension FoodReading {
    /// The key of a food document's parse: the code (its build ID, so a new build parses again),
    /// the parser with whatever it is given besides the bytes, and the document (its address and
    /// the sha256 of its bytes).
    static func parseKey(parser: String, url: String, sha256: String) -> String {
        sha256Hex(Data("parsed-food 2\ncode \(CommissaryVersion.build)\nparser \(parser)\ndocument \(url) \(sha256)".utf8))
    }
}
