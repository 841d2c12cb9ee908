import FoodModel
import Swipes
import Testing

/// BruinLife's "swipes you should have left at the start of each day" (docs/meal-plans.md), reproduced
/// from the plans' reference weeks. The start of Monday is the weekly allowance; the start of
/// each next day is the balance after the last period of the day before.
@Suite struct RegularTableTests {
    /// Winter 2025: the registrar's first day is Thursday 2 January; Week 1 is Monday 6 January.
    private func rows() throws -> [SwipeBalance] {
        SwipeTable.compute(plans: Fixtures.plans, terms: [try Fixtures.term("Winter 2025", firstDay: "2025-01-02")],
                           periods: Fixtures.periods, menus: [:])
    }

    @Test(arguments: [
        ("19R", [19, 16, 13, 10, 7, 4, 2, 0]),
        ("14R", [14, 12, 10, 8, 6, 4, 2, 0]),
        ("11R", [11, 9, 8, 6, 5, 3, 1, 0]),
    ])
    func reproducesBruinLifesStartOfDayTable(plan: String, table: [Int]) throws {
        let rows = try rows()
        #expect(rows.first { $0.plan == plan }?.date == ServiceDate("2025-01-06"))
        let perDay = Fixtures.endOfDay(rows, plan: plan)
        // Week 1 (Monday 6 to Sunday 12 January) and Week 7: every week is the same table.
        #expect([table[0]] + perDay.prefix(7) == table)
        #expect([table[0]] + perDay[42..<49] == table)
    }

    @Test func spendsOneSwipeAtEachPeriodTheDayUsesBestRankedFirst() throws {
        let monday = try rows().filter { $0.date == ServiceDate("2025-01-06") }
        func day(_ plan: String) -> [String] {
            monday.filter { $0.plan == plan }.map { "\($0.period) \($0.swipes) \($0.balance)" }
        }
        #expect(day("19R") == ["Breakfast 1 18", "Lunch 1 17", "Dinner 1 16"])
        #expect(day("14R") == ["Breakfast 0 14", "Lunch 1 13", "Dinner 1 12"])
        #expect(day("11R") == ["Breakfast 0 11", "Lunch 1 10", "Dinner 1 9"])
        let tuesday = try rows().filter { $0.date == ServiceDate("2025-01-07") && $0.plan == "11R" }
        #expect(tuesday.map { "\($0.period) \($0.swipes) \($0.balance)" } == ["Breakfast 0 9", "Lunch 0 9", "Dinner 1 8"])
        let saturday = try rows().filter { $0.date == ServiceDate("2025-01-11") && $0.plan == "19R" }
        #expect(saturday.map { "\($0.period) \($0.balance)" } == ["Brunch 3", "Dinner 2"])
        #expect(saturday.allSatisfy { $0.periodSource == .planDefault && $0.week == .number(1) })
    }

    @Test func labelsTenWeeksOfInstructionThenFinalsWeek() throws {
        let rows = try rows().filter { $0.plan == "19R" }
        #expect(rows.first?.week.description == "Week 1")
        #expect(rows.first { $0.date == ServiceDate("2025-03-16") }?.week.description == "Week 10")
        #expect(rows.first { $0.date == ServiceDate("2025-03-17") }?.week.description == "Finals Week")
        #expect(rows.last?.date == ServiceDate("2025-03-23"))
        #expect(rows.last?.week.ordinal == 11)
        // 11 weeks × (5 weekdays × 3 periods + 2 weekend days × 2 periods).
        #expect(rows.count == 11 * 19)
    }
}
