import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

@Suite struct UCLADetailedMenuTests {
    static let path = "ucla-menu-2021/detailed-menu-fragment.html"

    @Test func readsStationsAndItems() throws {
        let sections = try UCLAMenuSite.parseDetailedMenu(SharedData.load(Self.path), url: Self.path,
                                                          charset: nil)
        #expect(sections.map(\.name) == ["Flex Bar", "The Front Burner"])
        #expect(sections.flatMap(\.foods).map(\.recipeId)
            == ["977026", "977085", "123056", "138012", "141301"])
        #expect(sections[0].foods.map(\.name) == ["Italian Minestrone Soup", "Turkey & Rice Soup"])
    }

    @Test func keepsTheSidesMarkerAndItsCodes() throws {
        let sections = try UCLAMenuSite.parseDetailedMenu(SharedData.load(Self.path), url: Self.path,
                                                          charset: nil)
        let side = try #require(sections[1].foods.first { $0.recipeId == "138012" })
        #expect(side.name == "w/ Toasted Herb & Cheese Bread")
        #expect(side.portion == "1")
        #expect(side.codes == ["V", "AWHT", "AGTN", "AMLK"])
        #expect(side.description == nil)

        let soup = sections[0].foods[0]
        #expect(soup.portion == "6")
        #expect(soup.codes == ["VG", "AWHT", "AGTN", "ASOY", "LC"])
        #expect(soup.description
            == "Tomato, Onion, Celery, Carrot, Spinach, Chickpea, Kidney Bean, Pasta, Basil, Oregano")
        #expect(sections[0].foods[1].codes.isEmpty)
        #expect(sections[1].foods[0].description == "(Prepared with Alcohol)")
    }
}
