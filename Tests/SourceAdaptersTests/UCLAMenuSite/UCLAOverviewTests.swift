import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// Expected values read by hand from the saved page (grep on its source).
@Suite struct UCLAOverviewTests {
    static let path = "ucla-menu-2019/overview-2019-10-13-sunday.html"

    static func parse() throws -> ServiceDay {
        try UCLAMenuSite.parseOverview(SharedData.load(path), url: path, charset: nil)
    }

    static func item(_ day: ServiceDay, meal: String, restaurant: String, section: String,
                     named name: String) -> MenuItem? {
        day.meals.first { $0.name == meal }?
            .restaurants.first { $0.name == restaurant }?
            .sections.first { $0.name == section }?
            .foods.first { $0.name == name }
    }

    @Test func readsOneDayWithEveryMealAndHall() throws {
        let day = try Self.parse()
        #expect(day.date == ServiceDate("2019-10-13"))
        #expect(day.meals.map(\.name) == ["Brunch", "Dinner"])
        for meal in day.meals {
            #expect(meal.restaurants.map(\.name) == ["Covel", "De Neve", "Bruin Plate"])
        }
        #expect(day.menuItems.count == 50)
        #expect(day.menuItemCount == 50)
        #expect(day.meals[0].restaurants.flatMap(\.sections).flatMap(\.foods).count == 28)
        #expect(day.meals[1].restaurants.flatMap(\.sections).flatMap(\.foods).count == 22)
        #expect(day.menuItems.allSatisfy { $0.source == "ucla-menu" })
        #expect(!day.menuItems.contains { $0.name == "Menu Filter" })
    }

    @Test func readsStationsAsTheirOwnText() throws {
        let day = try Self.parse()
        #expect(day.meals[0].restaurants[0].sections.map(\.name)
            == ["Exhibition Kitchen", "Euro Kitchen", "Grill"])
        #expect(day.meals[1].restaurants[1].sections.map(\.name)
            == ["Flex Bar", "The Front Burner", "The Kitchen", "The Pizzeria", "The Grill"])
        #expect(day.meals[1].restaurants[2].sections.map(\.name)
            == ["Freshly Bowled", "Harvest", "Stone Oven", "Simply Grilled"])
    }

    @Test func keepsRecipeIdsWithLeadingZerosAndPortions() throws {
        let day = try Self.parse()
        let eggWhite = try #require(Self.item(day, meal: "Brunch", restaurant: "Covel",
                                              section: "Exhibition Kitchen", named: "Egg White"))
        #expect(eggWhite.recipeId == "061005")
        #expect(eggWhite.portion == "1")
        #expect(eggWhite.codes == ["V", "AEGG"])
        #expect(eggWhite.description == nil)

        let bacon = try #require(Self.item(day, meal: "Brunch", restaurant: "Covel",
                                           section: "Euro Kitchen", named: "Bacon"))
        #expect(bacon.recipeId == "089003")
        #expect(bacon.portion == "2")
        #expect(bacon.codes.isEmpty)

        let waffle = try #require(Self.item(day, meal: "Brunch", restaurant: "Covel",
                                            section: "Grill", named: "Belgian Waffle"))
        #expect(waffle.recipeId == "217033")
        #expect(waffle.portion == "1!4")
        #expect(waffle.codes == ["V", "AWHT", "AGTN", "ASOY", "AMLK", "AEGG"])

        let steakSalad = try #require(Self.item(day, meal: "Dinner", restaurant: "Bruin Plate",
                                                section: "Harvest", named: "Sweet Pepper & Steak Salad"))
        #expect(steakSalad.recipeId == "041149")
        #expect(steakSalad.portion == "3")
    }

    @Test func decodesEntitiesAndKeepsSidesInTheName() throws {
        let day = try Self.parse()
        let pizza = try #require(Self.item(day, meal: "Brunch", restaurant: "Bruin Plate",
                                           section: "Stone Oven",
                                           named: "Beef, Black Bean & Cabbage Tortilla Pizza"))
        #expect(pizza.recipeId == "141085")
        let stacker = try #require(Self.item(day, meal: "Brunch", restaurant: "Bruin Plate",
                                             section: "Simply Grilled",
                                             named: "Lamb & Beef Stacker w/ Greek Yogurt Sauce"))
        #expect(stacker.recipeId == "103001")
        #expect(stacker.portion == "4")
        #expect(stacker.codes == ["AWHT", "AGTN", "ASOY", "AMLK"])
        #expect(stacker.description
            == "Lamb, Beef, Za'atar, Roma Tomato, Cucumber, Greek Yogurt, Whole Wheat Pita")
    }

    @Test func readsDescriptionsWithoutRepeatingTheCodes() throws {
        let day = try Self.parse()
        let casserole = try #require(Self.item(day, meal: "Dinner", restaurant: "De Neve",
                                               section: "Flex Bar",
                                               named: "Cajun Shrimp & Quinoa Casserole"))
        #expect(casserole.recipeId == "123012")
        #expect(casserole.description == "(Prepared with Alcohol)")
        #expect(casserole.codes == ["ASOY", "AMLK", "ACSF"])
        let tofu = try #require(Self.item(day, meal: "Dinner", restaurant: "Bruin Plate",
                                          section: "Simply Grilled", named: "Grilled Mole Tofu"))
        #expect(tofu.recipeId == "140652")
        #expect(tofu.description == "Grilled tofu marinated in a rich mole sauce then coated with a spice mixture of chile powder, paprika, cayenne, cinnamon, and cocoa powder.")
    }

    @Test func usesTheTransportCharsetWhenGiven() throws {
        let day = try UCLAMenuSite.parseOverview(SharedData.load(Self.path), url: Self.path,
                                                 charset: "utf-8")
        #expect(day.menuItems.count == 50)
    }

    @Test func buildsSitePaths() throws {
        #expect(UCLAMenuSite.overviewPath(for: try #require(ServiceDate("2026-10-12"))) == "/Menus/2026-10-12")
        #expect(UCLAMenuSite.recipePath(recipeId: "061005", portion: "1") == "/Recipes/061005/1")
        #expect(UCLAMenuSite.recipePath(recipeId: "400317", portion: "1/2") == "/Recipes/400317/1/2")
        #expect(UCLAMenuSite.hoursPath == "/Hours")
    }
}
