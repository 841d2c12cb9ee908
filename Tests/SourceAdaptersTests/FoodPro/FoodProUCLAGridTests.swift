import Basics
import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// UCLA's FoodPro grid, on an excerpt of a real page (Breakfast, Monday 20 June 2016; its
/// provenance is in the fixture's first comment). Every expected value below was read off the
/// fixture by hand.
@Suite struct FoodProUCLAGridTests {
    static let fixture = Paths.packageRoot.appendingPathComponent("Tests/Fixtures/foodpro-ucla/default-2016-06-20-meal-1.html")

    private func day() throws -> ServiceDay {
        let page = try Data(contentsOf: Self.fixture)
        return try #require(try FoodPro.parseUCLAMenuGrid(page, url: "default.asp?meal=1", charset: nil))
    }

    private func section(_ name: String, of hall: String, in day: ServiceDay) throws -> [MenuItem] {
        let restaurant = try #require(day.meals.first?.restaurants.first { $0.name == hall })
        return try #require(restaurant.sections.first { $0.name == name }).foods
    }

    @Test func theDateAndMealComeFromTheHeaderAndTheHallsFromTheColumns() throws {
        let day = try day()
        #expect(day.date == ServiceDate("2016-06-20"))
        #expect(day.meals.map(\.name) == ["Breakfast"])
        #expect(day.meals.first?.restaurants.map(\.name) == ["Covel Dining", "Sproul Dining", "Rieber Dining"])
        // Covel's Pizza Oven cell and Sproul's Hot Food Bar cell hold only span.category0.
        #expect(day.meals.first?.restaurants.map { $0.sections.map(\.name) } == [
            ["Hot Cereals", "Exhibition Kitchen", "Hot Food Bar"],
            ["Hot Cereals", "Exhibition", "Pizza Oven"],
            ["Hot Cereals", "Exhibition", "Pizza Oven", "Hot Food Bar"],
        ])
        // 3 + 4 + 3 at Covel, 2 + 2 + 1 at Sproul, 2 + 2 + 1 + 3 at Rieber, and 24 sides:
        // 9 under Sproul's omelet bar, 8 under Rieber's, 3 under the waffle, 4 under the flatbread.
        #expect(day.menuItems.count == 47)
    }

    @Test func itemsKeepRecipeNumbersWithLeadingZerosPortionsAndWebCodes() throws {
        let day = try day()
        #expect(try section("Hot Cereals", of: "Covel Dining", in: day) == [
            MenuItem(source: "foodpro", recipeId: "031001", name: "Cream of Wheat", portion: "6", codes: ["VG"]),
            MenuItem(source: "foodpro", recipeId: "031002", name: "Malt-O-Meal", portion: "6", codes: ["VG"]),
            MenuItem(source: "foodpro", recipeId: "031003", name: "Oatmeal", portion: "6", codes: ["VG"]),
        ])
        #expect(try section("Exhibition Kitchen", of: "Covel Dining", in: day) == [
            MenuItem(source: "foodpro", recipeId: "061039", name: "Cheese Omelet", portion: "1"),
            MenuItem(source: "foodpro", recipeId: "061005", name: "Egg White", portion: "1", codes: ["V"]),
            MenuItem(source: "foodpro", recipeId: "061028", name: "Ham & Cheese Omelet", portion: "1"),
            MenuItem(source: "foodpro", recipeId: "061016", name: "Spinach, Tomato & Cheese Omelet",
                     portion: "1", codes: ["V"]),
        ])
    }

    /// The lines starting with "w/" or "&" under a dish are items of their own (their recipe
    /// number, portion and marks, read off the fixture's lines 68–116), served with the dish.
    @Test func sidesAreItemsOfTheirOwnServedWithTheDishAboveThem() throws {
        let day = try day()
        #expect(try section("Pizza Oven", of: "Sproul Dining", in: day) == [
            MenuItem(source: "foodpro", recipeId: "217033", name: "Belgian Waffle", portion: "1/2", codes: ["V"]),
            MenuItem(source: "foodpro", recipeId: "189029", name: "Chocolate Syrup", portion: "1", codes: ["V"],
                     servedWith: 0),
            MenuItem(source: "foodpro", recipeId: "204010", name: "Peach Toppping", portion: "1", codes: ["V"],
                     servedWith: 0),
            MenuItem(source: "foodpro", recipeId: "204001", name: "Strawberry Topping", portion: "1", codes: ["V"],
                     servedWith: 0),
        ])
        // The flatbread has no mark of its own; its sides' V marks stay theirs.
        let flatbread = try section("Pizza Oven", of: "Rieber Dining", in: day)
        #expect(flatbread.first == MenuItem(source: "foodpro", recipeId: "082130",
                                            name: "Strawberry Cream Cheese Flatbread", portion: "1/2"))
        #expect(flatbread.dropFirst().map(\.name) == ["Bananas Foster", "Blueberry Topping", "Chocolate Syrup",
                                                      "Strawberry Topping"])
        #expect(flatbread.dropFirst().allSatisfy { $0.servedWith == 0 && $0.codes == ["V"] })
        // The vegetarian omelet bar is served with bacon and ham, which have no mark.
        let omeletBar = try section("Exhibition", of: "Sproul Dining", in: day)
        #expect(omeletBar.map(\.name) == ["Egg White", "Omelet Bar", "Bacon", "Diced Green Peppers", "Diced Tomatoes",
                                          "Feta Cheese", "Green Onions", "Ham", "Shredded Cheddar Cheese",
                                          "Sliced Mushrooms", "Spinach"])
        #expect(omeletBar[1] == MenuItem(source: "foodpro", recipeId: "061035", name: "Omelet Bar", portion: "1",
                                         codes: ["V"]))
        #expect(omeletBar[2] == MenuItem(source: "foodpro", recipeId: "061012", name: "Bacon", portion: "1",
                                         servedWith: 1))
        #expect(omeletBar[7] == MenuItem(source: "foodpro", recipeId: "977264", name: "Ham", portion: "1",
                                         servedWith: 1))
        #expect(omeletBar[3].codes == ["VG"] && omeletBar[5].codes == ["V"])
        #expect(omeletBar[0].servedWith == nil && omeletBar.dropFirst(2).allSatisfy { $0.servedWith == 1 })
        #expect(try section("Exhibition", of: "Rieber Dining", in: day).count == 10)
    }

    @Test func aPageWithoutAMenuGridIsNoMealNotAnError() throws {
        let page = Data("<html><body><p>No menu is available for this meal.</p></body></html>".utf8)
        #expect(try FoodPro.parseUCLAMenuGrid(page, url: "meal=3", charset: nil) == nil)
    }

    @Test func aGridWithoutADatedHeaderIsAnInputErrorNamingThePage() {
        let page = Data("""
            <table class="menugridtable"><tr><td class="menumealheader">Breakfast Menu</td></tr></table>
            """.utf8)
        let error = #expect(throws: Failure.self) {
            try FoodPro.parseUCLAMenuGrid(page, url: "default.asp?meal=1", charset: nil)
        }
        #expect(error?.place?.location == "default.asp?meal=1")
    }

    @Test func legendWordingMapsToWebCodesAndUnknownWordingStaysRaw() {
        #expect(FoodPro.webCode(forLegend: "Vegan Menu Option") == "VG")
        #expect(FoodPro.webCode(forLegend: "Vegetarian Menu Option") == "V")
        #expect(FoodPro.webCode(forLegend: "Vegetarian") == "V")
        #expect(FoodPro.webCode(forLegend: "Contains Eggs") == "AEGG")
        #expect(FoodPro.webCode(forLegend: "Kosher Menu Option") == "Kosher Menu Option")
    }
}
