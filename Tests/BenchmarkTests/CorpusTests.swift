@testable import BenchmarkCorpus
import FoodModel
import Foundation
import SourceAdapters
import Testing

/// The corpus is only worth benchmarking if the project's own adapters read it back as the
/// dataset it was rendered from: these tests parse generated pages with `UCLAMenuSite` and
/// compare with the dataset, value by value.
@Suite struct CorpusTests {
    static let shared = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data")
    static let source = Result { try SourceMenus(datasetFolder: shared.appendingPathComponent("ucla-dataset-2016")) }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-test-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Values read by hand from `2016-07-25.json`, the dataset's first day: breakfast, the first
    /// hall "Covel Dining", kitchen "Hot Cereals", entree "Cream of Wheat", type `g` (vegan),
    /// label ["87", "2", "0%", "0%", "0%", "41%", "0.2g", "0%", "0.1g", "0%", "0g", "0mg", "0%",
    /// "177.4mg", "7%", "18.9g", "15%", "0.7g", "3%", "0.1g", "2.7g"]; 364 entrees that day.
    @Test func firstDayReadsBackAsTheDatasetSaysByHand() throws {
        let source = try Self.source.get()
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try #require(ServiceDate("2017-01-01"))
        let summary = try MenuCorpus.write(source, into: folder, firstDate: first, days: 1)
        #expect(summary.overviewPages == 1)
        #expect(summary.menuItems == 364)

        let url = "file://" + folder.path + "/Menus/2017-01-01"
        let day = try UCLAMenuSite.parseOverview(Data(contentsOf: folder.appendingPathComponent("Menus/2017-01-01.html")),
                                                 url: url, charset: nil)
        #expect(day.date == first)
        #expect(day.menuItems.count == 364)
        let item = try #require(day.meals.first?.restaurants.first?.sections.first?.foods.first)
        #expect(day.meals.first?.name == "Breakfast")
        #expect(day.meals.first?.restaurants.first?.name == "Covel Dining")
        #expect(day.meals.first?.restaurants.first?.sections.first?.name == "Hot Cereals")
        #expect(item.name == "Cream of Wheat")
        #expect(item.recipeId == "100001")
        #expect(item.portion == "1")
        #expect(item.codes == ["VG"])

        let page = folder.appendingPathComponent("Recipes/100001/1.html")
        let food = try UCLAMenuSite.parseRecipe(Data(contentsOf: page), url: page.path, charset: nil, recipeId: "100001")
        #expect(food.name == "Cream of Wheat")
        #expect(food.calories == 87)
        #expect(food.codes == ["VG"])
        let byKey = Dictionary(uniqueKeysWithValues: food.nutrients.map { ($0.key, $0) })
        #expect(byKey[.sodium]?.amount == 177.4)
        #expect(byKey[.sodium]?.unit == "mg")
        #expect(byKey[.sodium]?.printedDailyValuePercent == 7)
        #expect(byKey[.totalCarbohydrate]?.amount == 18.9)
        #expect(byKey[.totalCarbohydrate]?.printedDailyValuePercent == 15)
        #expect(byKey[.transFat]?.amount == 0)
        #expect(byKey[.transFat]?.printedDailyValuePercent == nil)
        #expect(byKey[.protein]?.amount == 2.7)
        #expect(byKey[.iron]?.printedDailyValuePercent == 41)
        #expect(byKey[.iron]?.amount == nil)
        #expect(byKey[.vitaminA]?.printedDailyValuePercent == 0)
        #expect(food.nutrients.count == 13)
    }

    /// Three days written to disk: each page parses to its dataset day, dates shifted, every
    /// item under its six-digit id; the two unnamed entries of 2016-11-21 are left out.
    @Test func writtenDaysParseToTheirDatasetDays() throws {
        let source = try Self.source.get()
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try #require(ServiceDate("2017-01-01"))
        try MenuCorpus.write(source, into: folder, firstDate: first, days: 3)
        for index in 0..<3 {
            let date = first.adding(days: index)
            let file = folder.appendingPathComponent("Menus/\(date).html")
            let parsed = try UCLAMenuSite.parseOverview(Data(contentsOf: file), url: file.path, charset: nil)
            #expect(parsed.date == date)
            #expect(parsed == (try expected(source.day(cycling: index), on: date, source: source)))
        }
        #expect(source.days.count == 134)
        #expect(source.day(cycling: 134).date == source.days[0].date)
    }

    @Test func dayWithUnnamedEntriesLeavesThemOut() throws {
        let source = try Self.source.get()
        let day = try #require(source.days.first { $0.date.description == "2016-11-21" })
        let html = try OverviewPage.render(day, siteId: source.siteId(of:))
        let parsed = try UCLAMenuSite.parseOverview(Data(html.utf8), url: "2016-11-21", charset: nil)
        #expect(parsed.menuItems.count == day.menuItems.count - 2)
        #expect(parsed == (try expected(day, on: day.date, source: source)))
    }

    /// Every food's recipe page reads back as its dataset label: calories as the page's
    /// calories line, every other nutrient with amount, unit and printed %DV, except "Calories
    /// from Fat", which the site's label format no longer prints. The one unnamed food (the two
/// nameless entries of 2016-11-21 share a label) is on no page and has none.
    @Test func everyRecipePageParsesToItsFood() throws {
        let source = try Self.source.get()
        #expect(source.foods.count > 2_000)
        #expect(source.foods.filter(\.name.isEmpty).count == 1)
        for food in source.foods where !food.name.isEmpty {
            let id = try source.siteId(of: food.id.recipeId)
            #expect(id.count == 6)
            let food2 = try UCLAMenuSite.parseRecipe(Data(RecipePage.render(food).utf8), url: id, charset: nil, recipeId: id)
            #expect(food2.name == food.name)
            #expect(food2.codes == food.codes)
            #expect(food2.calories == food.calories)
            let printed = food.nutrients.filter { $0.key != .calories && $0.key != .caloriesFromFat }
            #expect(Set(food2.nutrients) == Set(printed), "\(food.name)")
        }
    }

    /// The dataset day as the menu site's adapter should read it from the corpus.
    private func expected(_ day: ServiceDay, on date: ServiceDate, source: SourceMenus) throws -> ServiceDay {
        var result = day
        result.date = date
        for m in result.meals.indices {
            for r in result.meals[m].restaurants.indices {
                for s in result.meals[m].restaurants[r].sections.indices {
                    result.meals[m].restaurants[r].sections[s].foods = try result.meals[m].restaurants[r].sections[s].foods
                        .filter { !$0.name.isEmpty }
                        .map { MenuItem(source: UCLAMenuSite.sourceName, recipeId: try source.siteId(of: $0.recipeId),
                                        name: $0.name, portion: "1", codes: $0.codes) }
                }
            }
        }
        return result
    }
}
