import Basics
import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// Days as the parse cache keeps them come back equal, field for field: every day of the 2016
/// dataset, a real overview page (portions, codes, descriptions), a FoodPro grid (sides), and a
/// day with every optional field set, empty and absent (an item's own label among them). Bytes
/// it did not write are an error.
@Suite struct ServiceDayBytesTests {
    private func roundTrip(_ days: [ServiceDay], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let decoded = try ServiceDayBytes.decode(ServiceDayBytes.encode(days))
        #expect(decoded.count == days.count, sourceLocation: sourceLocation)
        for (got, expected) in zip(decoded, days) where got != expected {
            Issue.record("\(expected.date) differs after a round trip", sourceLocation: sourceLocation)
        }
    }

    @Test func everyDayOfTheDatasetComesBackEqual() throws {
        let folder = Paths.sharedData.appendingPathComponent("ucla-dataset-2016")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count == 134)
        let days = try files.map { name in
            let date = try #require(ServiceDate(String(name.dropLast(5))))
            let url = folder.appendingPathComponent(name)
            return try UCLADataset.parseDay(Data(contentsOf: url), date: date, location: name).day
        }
        #expect(days.reduce(0) { $0 + $1.menuItemCount } == 37_037)
        try roundTrip(days)
    }

    @Test func pagesWithPortionsCodesDescriptionsAndSidesComeBackEqual() throws {
        let overviewPath = "ucla-menu-2019/overview-2019-10-13-sunday.html"
        let overview = try UCLAMenuSite.parseOverview(SharedData.load(overviewPath), url: overviewPath, charset: nil)
        #expect(overview.menuItems.contains { $0.portion != nil && !$0.codes.isEmpty && $0.description != nil })
        let grid = try #require(try FoodPro.parseUCLAMenuGrid(Data(contentsOf: FoodProUCLAGridTests.fixture),
                                                               url: "default.asp?meal=1", charset: nil))
        #expect(grid.menuItems.contains { $0.servedWith != nil })
        try roundTrip([overview, grid])
    }

    private static let everyField = ServiceDay(date: ServiceDate("2026-10-11")!, meals: [
        Meal(name: "Dinner", restaurants: [
            Restaurant(name: "De Neve", sections: [
                Section(name: "Grill", foods: [
                    MenuItem(source: "ucla", recipeId: "041180", name: "Quinoa Tabbouleh ☕", portion: "1/2",
                             codes: ["V", "AWHT", ""], description: "", plannedPortions: -3, servedWith: Int.max),
                    MenuItem(source: "", recipeId: "", name: ""),
                    MenuItem(source: "nutrislice", recipeId: "1309638", name: "Tofu", label: PrintedLabel(
                        servingSize: "4.5 oz", serving: ServingSize(amount: 4.5, unit: "oz"), calories: 135,
                        nutrients: [
                            NutrientValue(key: .protein, name: "Protein", amount: 12, unit: "g",
                                          printedDailyValuePercent: 24, computedDailyValuePercent: 24.000_000_1,
                                          dailyValueStandard: "fda-2016"),
                            NutrientValue(key: .dietaryFiber, name: "Dietary Fiber", amount: nil, unit: "g",
                                          printedAmount: "< 1", amountBelow: 1, amountAtLeast: 0),
                        ],
                        basis: .serving)),
                    MenuItem(source: "nutrislice", recipeId: "1", name: "Bar", label: PrintedLabel()),
                    MenuItem(source: "ucla", recipeId: "2", name: "Per 100 g",
                             label: PrintedLabel(nutrients: [NutrientValue(key: .sodium, name: "", amount: 0, unit: nil)],
                                                 basis: .hundredGrams)),
                ]),
                Section(name: "", foods: []),
            ]),
            Restaurant(name: "Empty", sections: []),
        ]),
        Meal(name: "Late Night", restaurants: []),
    ])

    @Test func everyFieldSetEmptyAndAbsentComesBackEqual() throws {
        try roundTrip([Self.everyField, ServiceDay(date: ServiceDate("2026-10-12")!, meals: [])])
        try roundTrip([])
    }

    @Test func bytesItDidNotWriteAreAnError() throws {
        let bytes = ServiceDayBytes.encode([Self.everyField])
        for length in 0..<bytes.count {
            #expect(throws: Failure.self) { try ServiceDayBytes.decode(bytes.prefix(length)) }
        }
        #expect(throws: Failure.self) { try ServiceDayBytes.decode(bytes + [0]) }
        // The count of days claims more than the bytes can hold.
        var inflated = bytes
        inflated[0] = 0xFF
        #expect(throws: Failure.self) { try ServiceDayBytes.decode(inflated) }
    }
}
