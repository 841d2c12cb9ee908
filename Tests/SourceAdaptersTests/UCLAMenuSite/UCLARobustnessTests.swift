import Basics
import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// Bad or changed pages give one clear `Failure` naming the URL, never a crash; harmless
/// changes (whitespace, entities, extra markup) give the same values as the real page.
@Suite struct UCLARobustnessTests {
    static let url = "http://menu.dining.ucla.edu/Menus/2019-10-13"

    static func overviewSource() throws -> String {
        try String(decoding: SharedData.load(UCLAOverviewTests.path), as: UTF8.self)
    }

    static func parseOverview(_ page: String) throws -> ServiceDay {
        try UCLAMenuSite.parseOverview(Data(page.utf8), url: url, charset: nil)
    }

    static func randomBytes(_ count: Int, seed: UInt64) -> Data {
        var state = seed
        var bytes = [UInt8]()
        for _ in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: state >> 56))
        }
        return Data(bytes)
    }

    static let adapters: [(String, @Sendable (Data) throws -> Void)] = [
        ("overview", { _ = try UCLAMenuSite.parseOverview($0, url: url, charset: nil) }),
        ("detailed", { _ = try UCLAMenuSite.parseDetailedMenu($0, url: url, charset: nil) }),
        ("recipe", { _ = try UCLAMenuSite.parseRecipe($0, url: url, charset: nil, recipeId: "1") }),
        ("hours", { _ = try UCLAMenuSite.parseHours($0, url: url, charset: nil, referenceDate: nil) }),
    ]

    @Test(arguments: [0, 1, 16, 300, 5000])
    func emptyOrRandomBytesAreAnInputErrorNamingTheURL(length: Int) {
        let data = Self.randomBytes(length, seed: UInt64(length) + 7)
        for (name, parse) in Self.adapters {
            let error = #expect(throws: Failure.self, "\(name) on \(length) bytes") { try parse(data) }
            #expect(error?.place?.location == Self.url)
        }
    }

    @Test func aPlainTextPageIsAnInputError() {
        let data = Data("Service Unavailable".utf8)
        for (name, parse) in Self.adapters {
            #expect(throws: Failure.self, "\(name)") { try parse(data) }
        }
    }

    @Test func anOverviewWithoutMenuBlocksIsAnInputError() throws {
        let page = try Self.overviewSource().replacingOccurrences(of: "menu-block", with: "menu-column")
        let error = #expect(throws: Failure.self) { try Self.parseOverview(page) }
        #expect(error?.place?.location == Self.url)
        #expect(error?.message.contains("div.menu-block") == true)
    }

    @Test func anOverviewWithoutMealHeadersIsAnInputError() throws {
        let page = try Self.overviewSource().replacingOccurrences(of: "id=\"page-header\"",
                                                                  with: "id=\"title\"")
        let error = #expect(throws: Failure.self) { try Self.parseOverview(page) }
        #expect(error?.message.contains("h2#page-header") == true)
    }

    @Test func mealsOnDifferentDatesAreAnInputError() throws {
        let page = try Self.overviewSource().replacingOccurrences(
            of: "Dinner Menu for Today, October 13, 2019", with: "Dinner Menu for Tomorrow, October 14, 2019")
        let error = #expect(throws: Failure.self) { try Self.parseOverview(page) }
        #expect(error?.message.contains("2019-10-13, 2019-10-14") == true)
    }

    @Test func aHeaderWithoutADateIsAnInputError() throws {
        let page = try Self.overviewSource().replacingOccurrences(
            of: "Brunch Menu for Today, October 13, 2019", with: "Brunch Menu for Today")
        let error = #expect(throws: Failure.self) { try Self.parseOverview(page) }
        #expect(error?.message.contains("\"Brunch Menu for Today\"") == true)
    }

    @Test func aMenuItemWithoutARecipeLinkIsAnInputError() throws {
        let page = try Self.overviewSource().replacingOccurrences(
            of: "http://menu.dining.ucla.edu/Recipes/089003/2", with: "http://menu.dining.ucla.edu/Menus")
        let error = #expect(throws: Failure.self) { try Self.parseOverview(page) }
        #expect(error?.message.contains("Bacon") == true)
    }

    /// A link wrapped over lines (CR/LF inside the href) names the same recipe, as a browser
    /// reads it; no food id ever spans lines.
    @Test func aRecipeLinkWithLineBreaksNamesTheSameRecipe() throws {
        let original = try Self.parseOverview(Self.overviewSource())
        let page = try Self.overviewSource().replacingOccurrences(
            of: "http://menu.dining.ucla.edu/Recipes/089003/2", with: "http://menu.dining.ucla.edu/Recipes/089\r\n003/2")
        let wrapped = try Self.parseOverview(page)
        #expect(wrapped == original)
        var ids: [String] = []
        wrapped.forEachMenuItem { ids.append($0.recipeId) }
        #expect(ids.contains("089003"))
        #expect(!ids.contains { $0.contains("\n") || $0.contains("\r") })
    }

    @Test func toleratesWhitespaceEntitiesAndExtraMarkup() throws {
        let original = try Self.parseOverview(Self.overviewSource())
        let page = try Self.overviewSource()
            .replacingOccurrences(of: "Brunch Menu for Today, October 13, 2019",
                                  with: "\n  Brunch   Menu for\n October 13, 2019 ")
            .replacingOccurrences(of: "class=\"menu-item\"", with: "class=\" menu-item  featured \"")
            .replacingOccurrences(of: ">Egg White</a>", with: "><strong>Egg\n\t White</strong></a>")
            .replacingOccurrences(of: "Beef, Black Bean &amp; Cabbage", with: "Beef, Black Bean &#38; Cabbage")
            .replacingOccurrences(of: "<ul class=\"item-list\">",
                                  with: "<!-- items --><div class=\"note\"></div><ul class=\"item-list\">")
            .replacingOccurrences(of: "<img alt=\"V\" class=\"webcode-16px\"",
                                  with: "<img alt=\"V\" title=\"Vegetarian\" class=\"icon webcode-16px\"")
        let edited = try Self.parseOverview(page)
        #expect(edited == original)
    }

    @Test func aDetailedMenuWithoutStationsIsAnInputError() throws {
        let fragment = try String(decoding: SharedData.load(UCLADetailedMenuTests.path), as: UTF8.self)
            .replacingOccurrences(of: "sect-item", with: "station")
        let error = #expect(throws: Failure.self) {
            try UCLAMenuSite.parseDetailedMenu(Data(fragment.utf8), url: Self.url, charset: nil)
        }
        #expect(error?.message.contains("li.sect-item") == true)
    }

    @Test func aRecipeWithoutNutritionFactsKeepsItsOtherParts() throws {
        let source = try String(decoding: SharedData.load(UCLARecipeTests.path), as: UTF8.self)
        let start = try #require(source.range(of: "<div class=\"nfbox\">"))
        let end = try #require(source.range(of: "<div class=\"ingred_allergen ia_img\">"))
        let page = source.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: "")
        let food = try UCLAMenuSite.parseRecipe(Data(page.utf8), url: Self.url, charset: nil,
                                                recipeId: "400317")
        #expect(food.name == "Bruin Cheeseburger")
        #expect(food.nutrients.isEmpty)
        #expect(food.calories == nil)
        #expect(food.servingSize == nil)
        #expect(food.labelBasis == nil)
        #expect(food.allergens == ["Milk", "Eggs", "Wheat", "Soybeans", "Gluten"])
    }

    @Test func anHoursPageWithoutTheTableIsAnInputError() throws {
        let source = try String(decoding: SharedData.load(UCLAHoursTests.path), as: UTF8.self)
            .replacingOccurrences(of: "BREAKFAST", with: "MORNING")
            .replacingOccurrences(of: "LUNCH", with: "NOON")
            .replacingOccurrences(of: "DINNER", with: "EVENING")
            .replacingOccurrences(of: "LATE NIGHT", with: "NIGHT")
        let error = #expect(throws: Failure.self) {
            try UCLAMenuSite.parseHours(Data(source.utf8), url: Self.url, charset: nil,
                                        referenceDate: ServiceDate("2014-02-01"))
        }
        #expect(error?.place?.location == Self.url)
    }
}
