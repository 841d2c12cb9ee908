import Basics
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

extension ParsedFoods {
    func reading(_ key: String) -> FoodReading? {
        parsed(key).flatMap { try? CompactCoder.decode(FoodReading.self, from: $0) }
    }

    func keep(_ reading: FoodReading, under key: String) {
        if let bytes = try? CompactCoder.encode(reading) { keep(bytes, under: key) }
    }
}

extension FoodReading {
    /// The key of a food document's parse: the code (its build ID, so a new build parses again),
    /// the parser with whatever it is given besides the bytes, and the document (its address and
    /// the sha256 of its bytes).
    static func parseKey(parser: String, url: String, sha256: String) -> String {
        sha256Hex(Data("parsed-food 1\ncode \(CommissaryVersion.build)\nparser \(parser)\ndocument \(url) \(sha256)".utf8))
    }
}
