import FoodModel
import Swipes
import Testing

/// Premier pools (docs/meal-plans.md: 11 × the weekly allowance) spread over the term.
@Suite struct PremierPoolTests {
    @Test(arguments: [("19P", 209, 206, 190), ("14P", 154, 152, 140), ("11P", 121, 119, 110)])
    func aTermOfElevenFullWeeksSpendsThePoolAtTheWeeklyRate(plan: String, pool: Int, afterMonday: Int,
                                                           afterWeekOne: Int) throws {
        let term = try Fixtures.term("Spring 2025", firstDay: "2025-03-26")
        let rows = SwipeTable.compute(plans: Fixtures.plans, terms: [term], periods: Fixtures.periods, menus: [:])
            .filter { $0.plan == plan }
        let perDay = Fixtures.endOfDay(rows, plan: plan)
        // The pool before the first period: the first period's balance plus what it used.
        #expect((rows.first.map { $0.balance + $0.swipes }) == pool)
        #expect(perDay.first == afterMonday)
        #expect(perDay[6] == afterWeekOne)
        #expect(rows.last?.balance == 0)
        #expect(rows.last?.week == .finals(after: 10))
        #expect(rows.last?.date == ServiceDate("2025-06-15"))
        #expect(rows.map(\.balance) == rows.map(\.balance).sorted(by: >))
    }

    @Test func aFallTermWithWeekZeroStillEndsTheEmptyPoolAfterTheLastPeriodOfFinals() throws {
        // Fall 2024 began on Monday 23 September: Week 0 is 23–29 September, a whole week more
        // than the pool pays for, so the pool is spread over 12 weeks of the reference rate.
        let term = try Fixtures.term("Fall 2024", firstDay: "2024-09-23", weekZero: true)
        let rows = SwipeTable.compute(plans: Fixtures.plans, terms: [term], periods: Fixtures.periods, menus: [:])
        for (plan, pool) in [("19P", 209), ("14P", 154), ("11P", 121)] {
            let own = rows.filter { $0.plan == plan }
            #expect(own.first?.week == .number(0))
            #expect(own.first?.date == ServiceDate("2024-09-23"))
            #expect(own.last?.balance == 0, "\(plan)")
            #expect(own.last?.date == ServiceDate("2024-12-15"))
            #expect(own.last?.week.description == "Finals Week")
            #expect(own.map(\.balance).max() ?? 0 <= pool)
        }
        // 19P after Monday 23 September: 209 × (228 − 3) / 228 = 206.25, to the nearest swipe.
        #expect(Fixtures.endOfDay(rows, plan: "19P").first == 206)
        // After Week 0: 209 × (228 − 19) / 228 = 191.58.
        #expect(Fixtures.endOfDay(rows, plan: "19P")[6] == 192)
        #expect(rows.first { $0.plan == "19R" && $0.date == ServiceDate("2024-09-30") }?.week == .number(1))
    }
}
