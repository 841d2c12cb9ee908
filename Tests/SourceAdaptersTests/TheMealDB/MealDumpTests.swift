import FoodModel
import Foundation
import SourceAdapters
import Testing

@Suite("The 442-meal dump")
struct MealDumpTests {
    static let location = "themealdb/meals-dump-442.json"

    static func recipes() throws -> [Recipe] {
        try MealDB.decodeMeals(try TestData.data(TestData.dumpURL), location: location)
    }

    @Test func everyNonBlankIngredientSlotBecomesOneRecipeIngredient() throws {
        let recipes = try Self.recipes()
        let walk = try DumpWalk.load()
        let expectedSlots = walk.slots.filter { $0.ingredient != nil }

        #expect(recipes.count == 442)
        #expect(recipes.map(\.id.id) == walk.mealIDs)
        // 4668 was counted once by hand with python over the same file
        // (slots whose strIngredientN is not null, "" or whitespace).
        #expect(expectedSlots.count == 4668)
        #expect(recipes.reduce(0) { $0 + $1.ingredients.count } == expectedSlots.count)

        let byMeal = Dictionary(grouping: expectedSlots, by: \.mealID)
        for recipe in recipes {
            let expected = byMeal[recipe.id.id] ?? []
            #expect(recipe.ingredients.map(\.position) == expected.map(\.position), "\(recipe.id)")
            #expect(recipe.ingredients.map(\.ingredient.name) == expected.compactMap(\.ingredient))
            #expect(recipe.ingredients.map(\.measure.raw) == expected.map(\.measure))
        }
    }

    @Test func ingredientsWithoutMeasureKeepTheIngredient() throws {
        let absent = try Self.recipes().flatMap(\.ingredients).filter { $0.measure.kind == .absent }
        // python: 15 slots in this dump name an ingredient and have a blank measure
        // (Sources/1-Sources/SourceAdapters/TheMealDB/README.md counts 29 on a larger 552-meal dump); the reverse never happens.
        #expect(absent.count == 15)
        #expect(absent.allSatisfy { !$0.ingredient.name.isEmpty && $0.measure.raw == nil })
    }

    @Test func measureCoverageIsAtLeast95Percent() throws {
        let measures = try Self.recipes().flatMap(\.ingredients).map(\.measure)
            .filter { $0.kind != .absent }
        // python: 4653 non-blank measures in this dump.
        #expect(measures.count == 4653)
        let classified = measures.filter { [.quantity, .count, .unquantified].contains($0.kind) }
        let coverage = Double(classified.count) / Double(measures.count)
        let unparsed = Set(measures.filter { $0.kind == .unparsed }.compactMap(\.raw)).sorted()
        let byKind = Dictionary(grouping: measures, by: \.kind).mapValues(\.count)
            .sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
        print("MealDB measure coverage: \(classified.count)/\(measures.count) = "
              + String(format: "%.2f%%", coverage * 100) + "; \(byKind); unparsed: \(unparsed)")
        #expect(coverage >= 0.95)
    }

    @Test func quirksOfTheDumpAreNormalized() throws {
        let recipes = try Self.recipes()
        let byID = Dictionary(uniqueKeysWithValues: recipes.map { ($0.id.id, $0) })

        // python: strYoutube is "" in 34 meals, strSource null or "" in 27, dateModified null in 242.
        #expect(recipes.filter { $0.youtubeURL == nil }.count == 34)
        #expect(recipes.filter { $0.sourceURL == nil }.count == 27)
        #expect(recipes.filter { $0.modifiedAt == nil }.count == 242)
        #expect(recipes.allSatisfy { $0.alternateName == nil })

        #expect(byID["52842"]?.tags == ["Soup", "Cheesy"])
        #expect(byID["52960"]?.tags == ["Paleo", "Keto", "LowCarbs", "Salad", "Alcoholic", "Halloween"])
        #expect(byID["53060"]?.tags == ["Streetfood", "Onthego"])
        #expect(recipes.contains { $0.area == "Venezulan" })

        let beef = try #require(byID["52950"])
        #expect(beef.name == "Szechuan Beef")
        #expect(beef.steps.first == "MARINATING THE BEEF")
        #expect(beef.steps[1].hasPrefix("In a bowl, add the beef"))
        #expect(beef.steps[2] == "STIR FRY")

        let puddings = try #require(byID["53097"])
        #expect(puddings.steps.count == 7)
        #expect(puddings.steps.first == "Heat oven to 230C/fan 210C/gas 8.")
        #expect(!puddings.steps.contains { $0.lowercased().hasPrefix("step") })

        let porridge = try #require(byID["53118"])
        #expect(porridge.steps.first == "Cook the sour cream in a covered saucepan on medium heat for about 5 minutes.")
        #expect(!porridge.steps.contains("▢"))

        #expect(recipes.allSatisfy { $0.steps.allSatisfy { !$0.contains("\r") && !$0.isEmpty } })
        #expect(recipes.allSatisfy { $0.id.source == "mealdb" })
    }
}

/// The spool a dump is set aside in keeps every field of every real meal (`RecipeBytes` writes
/// them one by one: a field it forgot would come back empty here).
@Suite struct RealMealsThroughASpoolTests {
    @Test func everyRealMealComesBackEqual() throws {
        let recipes = try MealDumpTests.recipes()
        // Fields that only some meals fill, so that each is exercised with a value.
        #expect(recipes.contains { $0.alternateName != nil } || recipes.contains { $0.sourceURL != nil })
        #expect(recipes.contains { $0.ingredients.contains { $0.measure.maximum != nil } })
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("commissary-spool-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let writer = try RecipeSpool.Writer(file: file, origin: MealDumpTests.location)
        for start in stride(from: 0, to: recipes.count, by: 100) {
            try writer.append(Array(recipes[start..<min(start + 100, recipes.count)]))
        }
        let spool = try writer.finish()
        #expect(spool.count == 442)
        // The file lists its meals by ascending idMeal (52764 … 53340).
        #expect(spool.isInIdOrder)

        var read: [Recipe] = []
        try spool.forEachBatch { read.append(contentsOf: $0) }
        #expect(read == recipes)
    }
}
