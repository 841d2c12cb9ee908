import Basics
import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// The parse cache's binary form gives back exactly the values it was given, for every kind of
/// value a partition produces, read from the project's own sample pages and dump.
@Suite struct CompactCoderTests {
    private let site = Paths.sampleData.appendingPathComponent("menu.dining.ucla.edu")

    private func roundTrip<T: Codable & Equatable>(_ value: T) throws {
        let decoded = try CompactCoder.decode(T.self, from: try CompactCoder.encode(value))
        #expect(decoded == value)
    }

    @Test func aDayOfMenusAndItsFoodsComeBackEqual() throws {
        let page = site.appendingPathComponent("Menus/2026-10-11.html")
        let day = try UCLAMenuSite.parseOverview(try Data(contentsOf: page), url: page.path, charset: nil)
        var dataset = Dataset(serviceDays: [day])
        let recipes = try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("Recipes").path)
        for id in recipes.sorted().prefix(6) {
            let folder = site.appendingPathComponent("Recipes/\(id)")
            for portion in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                let file = folder.appendingPathComponent(portion)
                let food = try UCLAMenuSite.parseRecipe(try Data(contentsOf: file), url: file.path, charset: nil,
                                                        recipeId: id)
                dataset.foods[food.id] = food
            }
        }
        #expect(day.menuItemCount > 0 && dataset.foods.count >= 6)
        // Optional fields both set and missing, numbers that are not whole.
        #expect(dataset.foods.values.contains { $0.description == nil })
        #expect(dataset.foods.values.contains { $0.nutrients.contains { $0.amount.map { $0 != $0.rounded() } ?? false } })
        let result = PartitionResult(dataset: dataset, warnings: ["a warning"], counts: ["unpublished": 2],
                                     labels: Array(dataset.foods.values))
        let decoded = try CompactCoder.decode(PartitionResult.self, from: try CompactCoder.encode(result))
        #expect(decoded.dataset == result.dataset)
        #expect(decoded.warnings == result.warnings && decoded.counts == result.counts && decoded.labels == result.labels)
    }

    @Test func recipesAndCategoriesComeBackEqual() throws {
        let folder = Paths.sampleData.appendingPathComponent("themealdb")
        let meals = try MealDB.decodeMeals(try Data(contentsOf: folder.appendingPathComponent("meals.json")),
                                           location: "meals.json")
        var dataset = Dataset()
        for recipe in meals { dataset.recipes[recipe.id] = recipe }
        for category in try MealDB.decodeCategories(try Data(contentsOf: folder.appendingPathComponent("categories.json")),
                                                    location: "categories.json") {
            dataset.categories[category.name] = category
        }
        #expect(dataset.recipes.count == 12 && !dataset.categories.isEmpty)
        try roundTrip(dataset)
    }

    @Test func damagedBytesAreAnErrorNotACrash() throws {
        let page = site.appendingPathComponent("Menus/2026-10-10.html")
        let day = try UCLAMenuSite.parseOverview(try Data(contentsOf: page), url: page.path, charset: nil)
        let bytes = try CompactCoder.encode(day)
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
            #expect(throws: (any Error).self) { try CompactCoder.decode(ServiceDay.self, from: bytes.prefix(cut)) }
        }
        var lengths = bytes
        lengths[0] = 0xFF
        #expect(throws: (any Error).self) { try CompactCoder.decode(ServiceDay.self, from: lengths) }
    }

    /// Every raw type the form writes, at its extremes, beside nils, text keys and lists.
    private struct EveryRawType: Codable, Equatable {
        var text = "é, 中, and a NUL: \u{0}"
        var empty = ""
        var int = Int.min
        var double = -0.1
        var flag = true
        var int64 = Int64.max
        var uint64 = UInt64.max
        var int32 = Int32.min
        var uint32 = UInt32.max
        var int16 = Int16.min
        var uint16 = UInt16.max
        var int8 = Int8.min
        var uint8 = UInt8.max
        var uint = UInt.max
        var float = Float(1.5)
        var missing: Int?
        var present: String? = "kept"
        var byName = ["b": 2, "a": 1]
        var lists = [[1, 2], [], [3]]
    }

    @Test func everyRawTypeComesBackEqual() throws {
        try roundTrip(EveryRawType())
        try roundTrip(EveryRawType(text: "", int: 0, double: .infinity, flag: false, missing: 7, present: nil,
                                   byName: [:], lists: []))
    }

    /// A number read as a narrower type than it was written as is refused, not wrapped.
    @Test func aNumberTooWideForItsTypeIsAnError() throws {
        struct Wide: Codable { var value: Int }
        struct Narrow: Codable { var value: Int8 }
        let bytes = try CompactCoder.encode(Wide(value: 300))
        #expect(throws: DecodingError.self) { try CompactCoder.decode(Narrow.self, from: bytes) }
        #expect(try CompactCoder.decode(Narrow.self, from: try CompactCoder.encode(Wide(value: -128))).value == -128)
    }
}
