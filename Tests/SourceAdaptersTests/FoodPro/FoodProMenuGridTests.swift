import Basics
import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// Berkeley's page of 31 March 2016: one item (Brown Rice, Crossroads, Breakfast, in the
/// legend's Vegan colour #800040, so web code VG); every other cell says Closed.
@Suite struct FoodProMenuGridTests {
    static let path = "foodpro-berkeley-2016/todaysentrees.html"

    @Test func readsTheOnlyItemWithItsHallMealAndVeganMark() throws {
        let day = try FoodPro.parseMenuGrid(SharedData.load(Self.path), url: Self.path, charset: nil)
        #expect(day.date == ServiceDate("2016-03-31"))
        #expect(day.meals.map(\.name) == ["Breakfast"])
        #expect(day.meals.first?.restaurants.map(\.name) == ["CROSSROADS"])
        #expect(day.menuItems == [
            MenuItem(source: "foodpro", recipeId: "153002", name: "Brown Rice", portion: "4",
                     codes: ["VG"]),
        ])
    }

    @Test func aPageWithoutItemsOrDateIsAnInputError() {
        let error = #expect(throws: Failure.self) {
            try FoodPro.parseMenuGrid(Data("<p>Closed</p>".utf8), url: "entrees", charset: nil)
        }
        #expect(error?.place?.location == "entrees")
    }
}
