import DiningSources
import FoodModel
import Foundation
import Testing

/// UCLA's FoodPro grid, on an excerpt of a real page (Breakfast, Monday 20 June 2016; its
/// provenance is in the fixture's first comment). Every expected value below was read off the
/// fixture by hand.
@Suite struct FoodProUCLAGridTests {
    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/foodpro-ucla/default-2016-06-20-meal-1.html")

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
        // 3 + 4 + 3 at Covel, 2 + 2 + 1 at Sproul, 2 + 2 + 1 + 3 at Rieber, sides folded.
        #expect(day.menuItems.count == 23)
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

    @Test func sidesStartingWithWOrAmpersandAreFoldedIntoTheDishAboveThem() throws {
        let day = try day()
        #expect(try section("Pizza Oven", of: "Sproul Dining", in: day) == [
            MenuItem(source: "foodpro", recipeId: "217033",
                     name: "Belgian Waffle w/ Chocolate Syrup & Peach Toppping & Strawberry Topping",
                     portion: "1/2", codes: ["V"]),
        ])
        // The flatbread has no mark of its own; its sides' V marks are not its marks.
        #expect(try section("Pizza Oven", of: "Rieber Dining", in: day) == [
            MenuItem(source: "foodpro", recipeId: "082130",
                     name: "Strawberry Cream Cheese Flatbread w/ Bananas Foster & Blueberry Topping & Chocolate Syrup & Strawberry Topping",
                     portion: "1/2"),
        ])
        let omeletBar = try section("Exhibition", of: "Sproul Dining", in: day)
        #expect(omeletBar.map(\.name) == [
            "Egg White",
            "Omelet Bar w/ Bacon & Diced Green Peppers & Diced Tomatoes & Feta Cheese & Green Onions & Ham & Shredded Cheddar Cheese & Sliced Mushrooms & Spinach",
        ])
        #expect(omeletBar.last?.recipeId == "061035")
    }

    @Test func aPageWithoutAMenuGridIsNoMealNotAnError() throws {
        let page = Data("<html><body><p>No menu is available for this meal.</p></body></html>".utf8)
        #expect(try FoodPro.parseUCLAMenuGrid(page, url: "meal=3", charset: nil) == nil)
    }

    @Test func aGridWithoutADatedHeaderIsAnInputErrorNamingThePage() {
        let page = Data("""
            <table class="menugridtable"><tr><td class="menumealheader">Breakfast Menu</td></tr></table>
            """.utf8)
        let error = #expect(throws: InputError.self) {
            try FoodPro.parseUCLAMenuGrid(page, url: "default.asp?meal=1", charset: nil)
        }
        #expect(error?.location == "default.asp?meal=1")
    }

    @Test func legendWordingMapsToWebCodesAndUnknownWordingStaysRaw() {
        #expect(FoodPro.webCode(forLegend: "Vegan Menu Option") == "VG")
        #expect(FoodPro.webCode(forLegend: "Vegetarian Menu Option") == "V")
        #expect(FoodPro.webCode(forLegend: "Vegetarian") == "V")
        #expect(FoodPro.webCode(forLegend: "Contains Eggs") == "AEGG")
        #expect(FoodPro.webCode(forLegend: "Kosher Menu Option") == "Kosher Menu Option")
    }
}
