import Basics
import FoodModel
import Foundation
@testable import Pipeline
import SourceAdapters
import Testing

/// A parse cache entry's rest (`ParseCacheRest`): every field kept and read back, and bytes it
/// did not write refused.
@Suite struct ParseCacheRestTests {
    private static let label = Food(id: FoodID(source: "menus", recipeId: "400317"), name: "Bruin Cheeseburger",
                                    servingSize: "1 each", calories: 459,
                                    nutrients: [NutrientValue(key: .totalFat, name: "Total Fat", amount: 21.3, unit: "g",
                                                              printedDailyValuePercent: 33)])

    /// Every field set, each to a value of its own, so that a field dropped or read into another
    /// is seen; `dataset`: what the result holds besides days and foods.
    private static func rest(dataset: Dataset = Dataset(), labels: [Food]? = [label]) throws -> ParseCacheRest {
        var longNames = LongNames()
        var named = Dataset(serviceDays: [ServiceDay(date: try #require(ServiceDate("2026-10-10")), meals: [
            Meal(name: String(repeating: "B", count: LongNames.limit + 5), restaurants: []),
        ])])
        longNames.shorten(&named, partition: "2026-10-10")
        return ParseCacheRest(
            result: PartitionResult(dataset: dataset, warnings: ["a page said nothing of lunch"],
                                    counts: ["items_in_unnamed_sections": 3, "rows_unpublished": 2], labels: labels),
            revalidate: ["https://example.org/a", "https://example.org/b"],
            unknownRestaurants: ["Rende", "Feast"], longNames: longNames,
            warnings: ["a hall the places file does not name"])
    }

    private func expectSame(_ read: ParseCacheRest, _ written: ParseCacheRest) {
        #expect(read.result.warnings == written.result.warnings)
        #expect(read.result.counts == written.result.counts)
        #expect(read.result.labels == written.result.labels)
        #expect(read.result.dataset == written.result.dataset)
        #expect(read.revalidate == written.revalidate)
        #expect(read.unknownRestaurants == written.unknownRestaurants)
        #expect(read.longNames.count == written.longNames.count)
        #expect(read.longNames.first?.name == written.longNames.first?.name)
        #expect(read.longNames.first?.partition == written.longNames.first?.partition)
        #expect(read.warnings == written.warnings)
    }

    @Test func everyFieldIsKeptAndReadBack() throws {
        let written = try Self.rest()
        #expect(written.longNames.count == 1)
        #expect(written.longNames.first?.name.count == LongNames.limit)
        let bytes = try written.encoded()
        expectSame(try ParseCacheRest(decoding: bytes), written)
        // One value, one layout: the sets and maps are laid out sorted.
        #expect(try Self.rest().encoded() == bytes)
    }

    /// What a menu partition leaves empty costs nothing to read; a dataset holding hours (a
    /// partition of an hours page) is kept whole, and a result without labels stays without.
    @Test func aDatasetWithMoreThanDaysAndFoodsIsKeptWhole() throws {
        let hours = Dataset(hours: [HoursEntry(restaurant: "Covel", date: ServiceDate("2026-10-10"), meal: "Brunch",
                                               opens: "9:00am", closes: "2:00pm", isClosed: false)])
        let written = try Self.rest(dataset: hours, labels: nil)
        let read = try ParseCacheRest(decoding: written.encoded())
        expectSame(read, written)
        #expect(read.result.dataset.hours.count == 1)
        #expect(read.result.labels == nil)
        #expect(try Self.rest(dataset: hours).encoded().count > (try Self.rest().encoded().count))
    }

    /// A rest with nothing in it but `counts` (in this order) and `namesCut` with no first cut,
    /// laid out by hand in `encoded`'s order.
    private static func emptyRest(counts: [(String, Int)] = [], namesCut: Int = 0) -> Data {
        var output = FieldWriter()
        output.put([String]())
        output.put(counts.count)
        for (key, count) in counts {
            output.put(key)
            output.put(count)
        }
        output.put(present: false)
        output.put(present: false)
        output.put([String]())
        output.put([String]())
        output.put(namesCut)
        output.put(present: false)
        output.put([String]())
        return Data(output.bytes)
    }

    @Test func bytesItDidNotWriteAreRefused() throws {
        let bytes = try Self.rest().encoded()
        for cut in [0, 1, 8, bytes.count / 2, bytes.count - 1] {
            #expect(throws: Failure.self) { try ParseCacheRest(decoding: bytes.prefix(cut)) }
        }
        #expect(throws: Failure.self) { try ParseCacheRest(decoding: bytes + [0]) }

        // A count key twice; two keys are read.
        #expect(throws: Failure.self) {
            try ParseCacheRest(decoding: Self.emptyRest(counts: [("rows_unpublished", 1), ("rows_unpublished", 2)]))
        }
        let two = try ParseCacheRest(decoding: Self.emptyRest(counts: [("rows_unpublished", 1), ("hours", 2)]))
        #expect(two.result.counts == ["rows_unpublished": 1, "hours": 2])

        // Names said to be cut, with no first cut to show; the same bytes with none cut are a
        // rest, empty.
        #expect(throws: Failure.self) { try ParseCacheRest(decoding: Self.emptyRest(namesCut: 2)) }
        let empty = try ParseCacheRest(decoding: Self.emptyRest(namesCut: 0))
        #expect(empty.result.counts.isEmpty && empty.longNames.count == 0 && empty.unknownRestaurants.isEmpty)
    }
}
