import Basics
import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// Expected values read by hand from the saved page's table rows.
@Suite struct UCLAHoursTests {
    static let path = "ucla-hours-2014/dining-hall-hours-by-day.html"

    static func parse(referenceDate: ServiceDate?) throws -> [HoursEntry] {
        try UCLAMenuSite.parseHours(SharedData.load(path), url: path, charset: nil,
                                    referenceDate: referenceDate)
    }

    static func entry(_ entries: [HoursEntry], _ restaurant: String, _ meal: String) -> HoursEntry? {
        entries.first { $0.restaurant == restaurant && $0.meal == meal }
    }

    @Test func readsEveryHallAndMeal() throws {
        let entries = try Self.parse(referenceDate: ServiceDate("2014-02-01"))
        // 8 halls × 4 meal columns, every cell filled.
        #expect(entries.count == 32)
        #expect(Set(entries.map(\.restaurant)) == ["Bruin Cafe", "Bruin Plate", "Cafe 1919", "Covel",
                                                   "DeNeve", "Feast", "Hedrick", "Rendezvous"])
        #expect(Set(entries.map(\.meal)) == ["Breakfast", "Lunch", "Dinner", "Late Night"])
        // Thursday, February 13 falls on a Thursday in 2014, the nearest such year to 2014-02-01.
        #expect(entries.allSatisfy { $0.date == ServiceDate("2014-02-13") })
    }

    @Test func readsOpenAndClosedCellsWithTheirRemarks() throws {
        let entries = try Self.parse(referenceDate: ServiceDate("2014-02-01"))
        let date = ServiceDate("2014-02-13")
        #expect(Self.entry(entries, "Covel", "Breakfast") == HoursEntry(
            restaurant: "Covel", date: date, meal: "Breakfast", opens: "7:00am", closes: "10:00am",
            isClosed: false))
        #expect(Self.entry(entries, "Hedrick", "Breakfast") == HoursEntry(
            restaurant: "Hedrick", date: date, meal: "Breakfast", opens: nil, closes: nil,
            isClosed: true))
        #expect(Self.entry(entries, "Bruin Cafe", "Lunch") == HoursEntry(
            restaurant: "Bruin Cafe", date: date, meal: "Lunch", opens: "11:00am", closes: "5:00pm",
            isClosed: false, note: "Closed 1:30-2:00PM"))
        #expect(Self.entry(entries, "Cafe 1919", "Late Night")?.note == "Limited Menu")
        #expect(Self.entry(entries, "Hedrick", "Late Night") == HoursEntry(
            restaurant: "Hedrick", date: date, meal: "Late Night", opens: "8:00pm", closes: "1:00am",
            isClosed: false, note: "No Food after 12:00-1:00AM"))
        #expect(Self.entry(entries, "Bruin Plate", "Late Night")?.isClosed == true)
        #expect(Self.entry(entries, "Rendezvous", "Lunch")?.opens == "12:00pm")
    }

    @Test func picksTheYearNearestTheReferenceDate() throws {
        // February 13 is a Thursday in 2003, 2014, 2020 and 2025.
        let later = try Self.parse(referenceDate: ServiceDate("2021-06-01"))
        #expect(later.first?.date == ServiceDate("2020-02-13"))
        let earlier = try Self.parse(referenceDate: ServiceDate("2005-01-01"))
        #expect(earlier.first?.date == ServiceDate("2003-02-13"))
    }

    @Test func withoutAReferenceUsesTheDatesPrintedOnThePage() throws {
        // The page links to "February 14, 2014"; its copyright line says 2008, which alone
        // would point at 2003.
        let entries = try Self.parse(referenceDate: nil)
        #expect(entries.first?.date == ServiceDate("2014-02-13"))
    }

    @Test func withoutAnyYearHintItIsAClearError() throws {
        let page = """
        <table><tr><td colspan="2">Thursday, February 13</td></tr>
        <tr><td>LOCATION</td><td>DINNER</td></tr><tr><td>Covel</td><td>5:00pm - 9:00pm</td></tr></table>
        """
        let error = #expect(throws: Failure.self) {
            try UCLAMenuSite.parseHours(Data(page.utf8), url: "hours-no-year", charset: nil,
                                        referenceDate: nil)
        }
        #expect(error?.place?.location == "hours-no-year")
        #expect(error?.message.contains("Thursday, February 13") == true)
    }

    @Test func findsColumnsByTheirHeadingsNotTheirPosition() throws {
        let page = """
        <table><tr><td>Friday, February 14, 2014</td></tr>
        <tr><th>Dinner</th><th>Hall</th><th>Breakfast</th></tr>
        <tr><td>5:00pm – 8:00pm</td><td>Covel</td><td> CLOSED </td></tr></table>
        """
        let entries = try UCLAMenuSite.parseHours(Data(page.utf8), url: "reordered", charset: nil,
                                                  referenceDate: nil)
        let date = ServiceDate("2014-02-14")
        #expect(entries == [
            HoursEntry(restaurant: "Covel", date: date, meal: "Dinner", opens: "5:00pm",
                       closes: "8:00pm", isClosed: false),
            HoursEntry(restaurant: "Covel", date: date, meal: "Breakfast", opens: nil, closes: nil,
                       isClosed: true),
        ])
    }
}
