import Basics
import FoodModel
import Foundation
import SourceAdapters

/// A parse cache entry but its days, foods and summary (`ParseCache`), each field in a fixed
/// order (`FieldWriter`). A night reads one for every partition it holds, and `Codable` took
/// 45 µs an entry though most of it is empty: some 50 ms of CPU a night on three years. What a
/// menu partition leaves empty of its dataset (hours, places, recipes, categories, documents) is
/// one absent mark; a dataset holding any of them is laid out whole by `CompactCoder`. Maps and
/// sets are laid out sorted, so that one value always gives the same bytes.
struct ParseCacheRest {
    /// The partition's result with no days and no foods (the entry keeps those apart).
    var result: PartitionResult
    var revalidate: [String]
    var unknownRestaurants: Set<String>
    var longNames: LongNames
    var warnings: [String]

    func encoded() throws -> Data {
        var output = FieldWriter()
        output.put(result.warnings)
        output.put(result.counts.count)
        for (key, count) in result.counts.sorted(by: { $0.key < $1.key }) {
            output.put(key)
            output.put(count)
        }
        output.put(present: result.labels != nil)
        if let labels = result.labels { output.put(FoodBytes.encode(labels)) }
        let holdsMore = result.dataset != Dataset()
        output.put(present: holdsMore)
        if holdsMore { output.put(try CompactCoder.encode(result.dataset)) }
        output.put(revalidate)
        output.put(unknownRestaurants.sorted())
        output.put(longNames.count)
        output.put(present: longNames.first != nil)
        if let first = longNames.first {
            output.put(first.name)
            output.put(first.partition)
        }
        output.put(warnings)
        return Data(output.bytes)
    }
}

extension ParseCacheRest {
    /// Throws `Failure.damagedBytes` for bytes `encoded` did not write (a key twice included).
    init(decoding data: Data) throws {
        let (fields, dataset) = try data.withUnsafeBytes { buffer in
            var input = FieldReader(buffer)
            let warnings = try input.strings()
            var counts: [String: Int] = [:]
            for _ in 0..<(try input.count()) {
                let key = try input.string()
                guard counts.updateValue(try input.int(), forKey: key) == nil else { throw Failure.damagedBytes }
            }
            let labels = try input.flag() ? try FoodBytes.decode(input.data()) : nil
            let dataset = try input.flag() ? try input.data() : nil
            let revalidate = try input.strings()
            let restaurants = try input.strings()
            guard Set(restaurants).count == restaurants.count else { throw Failure.damagedBytes }
            let cuts = try input.int()
            let first = try input.flag() ? LongNames.Cut(name: try input.string(), partition: try input.string()) : nil
            guard cuts >= 0, (cuts == 0) == (first == nil) else { throw Failure.damagedBytes }
            let rest = try (warnings: input.strings(), revalidate: revalidate, restaurants: restaurants,
                            longNames: LongNames(count: cuts, first: first),
                            result: PartitionResult(dataset: Dataset(), warnings: warnings, counts: counts, labels: labels))
            guard input.isAtEnd else { throw Failure.damagedBytes }
            return (rest, dataset)
        }
        var result = fields.result
        if let dataset {
            result.dataset = try CompactCoder.decode(Dataset.self, from: dataset)
        }
        self.init(result: result, revalidate: fields.revalidate, unknownRestaurants: Set(fields.restaurants),
                  longNames: fields.longNames, warnings: fields.warnings)
    }
}
