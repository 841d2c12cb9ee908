import FoodModel
import Foundation
import SourceAdapters
import Swipes
import Testing

/// Meal periods taken from real published menus: the 2016 UCLA dataset around Thanksgiving.
/// By hand from the files: 19–20 November (weekend) list brunch under `l` and dinner under `d`;
/// 21–23 November list `b`, `l` and `d`; there is no file for 24, 25 and 26 November; on
/// Sunday 27 November only `d` has halls (Dinner only).
@Suite struct PublishedPeriodsTests {
    static let dataset = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/data/ucla-dataset-2016")

    private func menus() throws -> [ServiceDate: [String]] {
        var menus: [ServiceDate: [String]] = [:]
        for day in ["2016-11-19", "2016-11-20", "2016-11-21", "2016-11-22", "2016-11-23", "2016-11-27"] {
            let date = try Fixtures.date(day)
            let file = Self.dataset.appendingPathComponent("\(day).json")
            let parsed = try UCLADataset.parseDay(try Data(contentsOf: file), date: date, location: file.path)
            menus[date] = parsed.day.meals.map(\.name)
        }
        return menus
    }

    @Test func thanksgivingWeekOf2016ReadsItsPeriodsFromTheMenusAndFallsBackWhereNoneWasPublished() throws {
        // Built for the test: a Fall 2016 term whose Week 0 is 19–25 September, so that the
        // week of 21 November is Week 9.
        let term = try Fixtures.term("Fall 2016", firstDay: "2016-09-19", weekZero: true)
        let table = SwipeTable.compute(plans: Fixtures.plans, terms: [term], periods: Fixtures.periods,
                                       menus: try menus())
        func day(_ plan: String, _ date: String) throws -> [SwipeBalance] {
            let date = try Fixtures.date(date)
            return table.filter { $0.plan == plan && $0.date == date }
        }
        let saturday = try day("19R", "2016-11-19")
        #expect(saturday.map(\.period) == ["Lunch", "Dinner"])
        #expect(saturday.map(\.swipes) == [1, 1])
        #expect(try day("19R", "2016-11-21").map { "\($0.period) \($0.balance) \($0.periodSource.rawValue)" }
                == ["Breakfast 18 menu", "Lunch 17 menu", "Dinner 16 menu"])
        let thursday = try day("19R", "2016-11-24")
        #expect(thursday.map(\.period) == ["Breakfast", "Lunch", "Dinner"])
        #expect(thursday.allSatisfy { $0.periodSource == .planDefault && $0.week.description == "Week 9" })
        #expect(try day("19R", "2016-11-26").map(\.period) == ["Brunch", "Dinner"])
        // Dinner only: a Regular plan spends one swipe (one a period) and loses the other; a
        // Premier plan may swipe twice at that dinner.
        let sunday = try day("19R", "2016-11-27")
        #expect(sunday.map { "\($0.period) \($0.swipes) \($0.balance)" } == ["Dinner 1 1"])
        let premier = try day("19P", "2016-11-27")
        #expect(premier.map(\.swipes) == [2])
        // Weeks 0 to 9 used: 209 × (228 − 190) / 228 = 34.83.
        #expect(premier.map(\.balance) == [35])
    }
}
