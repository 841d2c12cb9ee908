import FoodModel
import Swipes
import Testing

/// Weeks are computed on day numbers: crossing a month, a year or a daylight-saving change
/// changes nothing, and closures and missing menus read as documented in SwipeTable.
@Suite struct CalendarEdgeTests {
    private func rows(_ term: Term, menus: [ServiceDate: [String]] = [:]) -> [SwipeBalance] {
        SwipeTable.compute(plans: Fixtures.plans, terms: [term], periods: Fixtures.periods, menus: menus)
    }

    @Test func aWeekAcrossTheEndOfDecemberIsOneWeekOfSevenDays() throws {
        // Monday 28 December 2026 to Sunday 3 January 2027 is Week 0 of this term.
        let term = try Fixtures.term("Winter 2027 (early start)", firstDay: "2026-12-28", weekZero: true)
        let week = rows(term).filter { $0.plan == "19R" && $0.week == .number(0) }
        #expect(Set(week.map(\.date)).count == 7)
        #expect(week.first?.date == ServiceDate("2026-12-28"))
        #expect(week.last?.date == ServiceDate("2027-01-03"))
        #expect(Fixtures.endOfDay(week, plan: "19R") == [16, 13, 10, 7, 4, 2, 0])
        let nextMonday = rows(term).filter { $0.plan == "19R" && $0.date == ServiceDate("2027-01-04") }
        #expect(nextMonday.map(\.balance) == [18, 17, 16])
        #expect(nextMonday.first?.week == .number(1))
    }

    @Test(arguments: [
        // US daylight saving time ends on Sunday 1 November 2026 and begins on Sunday 14 March 2027.
        ("Fall 2026", "2026-09-21", true, "2026-10-26", "Week 5"),
        ("Winter 2027", "2027-01-04", false, "2027-03-08", "Week 10"),
    ])
    func theWeekOfADaylightSavingChangeHasSevenDaysOfPeriods(name: String, firstDay: String, weekZero: Bool,
                                                          monday: String, label: String) throws {
        let term = try Fixtures.term(name, firstDay: firstDay, weekZero: weekZero)
        let start = try Fixtures.date(monday)
        let week = rows(term).filter { $0.plan == "19R" && $0.date >= start && $0.date <= start.adding(days: 6) }
        #expect(Set(week.map(\.date)).count == 7)
        #expect(week.count == 19)
        #expect(week.allSatisfy { $0.week.description == label })
        #expect(Fixtures.endOfDay(week, plan: "19R") == [16, 13, 10, 7, 4, 2, 0])
        let after = rows(term).first { $0.plan == "19R" && $0.date == start.adding(days: 7) }
        #expect(after?.balance == 18)
    }

    @Test func aDayWithNoPublishedMenuFallsBackToThePlansDefaults() throws {
        let term = try Fixtures.term("Winter 2025", firstDay: "2025-01-02")
        let saturday = try Fixtures.date("2025-01-11")
        let sunday = try Fixtures.date("2025-01-12")
        // Saturday has a published menu with a Late Night; Sunday has none.
        let table = rows(term, menus: [saturday: ["Brunch", "Dinner", "Late Night"]])
        let sat = table.filter { $0.plan == "19R" && $0.date == saturday }
        #expect(sat.map(\.period) == ["Brunch", "Dinner", "Late Night"])
        #expect(sat.map(\.swipes) == [1, 1, 0])
        #expect(sat.allSatisfy { $0.periodSource == .menu })
        let sun = table.filter { $0.plan == "19R" && $0.date == sunday }
        #expect(sun.map(\.period) == ["Brunch", "Dinner"])
        #expect(sun.allSatisfy { $0.periodSource == .planDefault })
        #expect(sun.map(\.balance) == [1, 0])
    }

    @Test func aClosureUsesNoSwipeRegularSwipesAreLostAndThePoolIsSpreadOverOpenDays() throws {
        // Wednesday 8 January 2025 closed, in Week 1 of Winter 2025.
        let term = try Fixtures.term("Winter 2025", firstDay: "2025-01-02", closures: ["2025-01-08"])
        let table = rows(term)
        let closed = table.filter { $0.date == ServiceDate("2025-01-08") && $0.plan == "19R" }
        #expect(closed.map(\.period) == ["Breakfast", "Lunch", "Dinner"])
        #expect(closed.allSatisfy { $0.periodSource == .closed && $0.swipes == 0 && $0.balance == 13 })
        // The closed day's three swipes are not used that week and do not roll over.
        #expect(Fixtures.endOfDay(table, plan: "19R").prefix(8) == [16, 13, 13, 10, 7, 5, 3, 16])
        // 19P: 209 reference swipes less the 3 of the closed day; after Tuesday's dinner
        // 209 × (206 − 6) / 206 = 202.91, and the pool still ends at 0.
        let premier = table.filter { $0.plan == "19P" }
        #expect(Fixtures.endOfDay(premier, plan: "19P").prefix(3) == [206, 203, 203])
        #expect(premier.last?.balance == 0)
    }
}
