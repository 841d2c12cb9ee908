import FoodModel
import Testing

@Suite struct ServiceDateTests {
    @Test func parsesAndPrintsISODates() {
        #expect(ServiceDate("2019-10-13")?.description == "2019-10-13")
        #expect(ServiceDate("2019-13-01") == nil)
        #expect(ServiceDate("2023-02-29") == nil)
        #expect(ServiceDate("2024-02-29") != nil)
        #expect(ServiceDate("19-10-13") == nil)
        #expect(ServiceDate("0001-01-01")?.description == "0001-01-01")
        #expect(ServiceDate("9999-12-31")?.description == "9999-12-31")
    }

    /// Only `YYYY-MM-DD` in ASCII digits is a date: not a part with a sign (which `Int` reads),
    /// not another script's digits, not a text of another length or shape.
    @Test func refusesEverythingButTheISOForm() {
        for text in ["+201-01-01", "2019-+1-13", "2019--1-13", "2019-10-+3", "0000-01-01", "2019-00-13",
                     "2019-10-00", "2019/10/13", "2019-10-13 ", " 2019-10-13", "2019-1-013", "20191013",
                     "2019-10-1", "\u{FF12}019-10-13", "2019-10-1\u{0663}", "2019-10-13\u{0301}", "", "-"] {
            #expect(ServiceDate(text) == nil, "\(text)")
        }
    }

    @Test func countsDaysAcrossMonthAndYearBoundaries() throws {
        let newYearsEve = try #require(ServiceDate("2025-12-31"))
        #expect(newYearsEve.adding(days: 1).description == "2026-01-01")
        #expect(try #require(ServiceDate("2024-02-28")).adding(days: 1).description == "2024-02-29")
        #expect(try #require(ServiceDate("1970-01-01")).daysSinceEpoch == 0)
        #expect(try #require(ServiceDate("2000-03-01")).daysSinceEpoch == 11_017)
    }

    @Test func knowsTheWeekday() throws {
        // 13 October 2019 was a Sunday (the saved UCLA overview page says so).
        #expect(try #require(ServiceDate("2019-10-13")).isoWeekday == 7)
        #expect(try #require(ServiceDate("2026-11-23")).isoWeekday == 1)
    }
}
