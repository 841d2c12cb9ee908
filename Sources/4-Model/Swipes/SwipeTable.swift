import FoodModel

/// Computes the expected balances of every plan over every day of every term.
///
/// Regular plans start each Monday (and a term's first day) with the whole weekly allowance and
/// spend one swipe at each period the reference week uses; what is not spent by Sunday is lost,
/// so a closure day leaves its swipes unspent that week. Premier plans spread the pool over the
/// term in proportion to the reference week: the expected balance is the pool times the share
/// of the term's swipes still to come, rounded to the nearest swipe. In a term of exactly ten
/// weeks and finals week with no closure that is the pool minus the swipes used so far (209
/// minus 19 a week); with a Week 0 or closures the pool still lasts exactly to the last period of
/// the term, because closed days weigh nothing.
public enum SwipeTable {
    /// `menus` gives the periods published for a day, in serving order; a day it lacks (or
    /// gives no period for) takes the defaults of `periods`.
    public static func compute(plans: [MealPlan], terms: [Term], periods: MealPeriods,
                               menus: [ServiceDate: [String]]) -> [SwipeBalance] {
        var rows: [SwipeBalance] = []
        for term in terms {
            let days = term.days.map { date in schedule(of: date, in: term, periods: periods, menus: menus) }
            for plan in plans {
                rows.append(contentsOf: balances(of: plan, term: term, days: days, periods: periods))
            }
        }
        return rows
    }

    /// One day's periods and where they came from.
    struct Day {
        var date: ServiceDate
        var week: TermWeek
        var periods: [String]
        var source: SwipeBalance.PeriodSource
    }

    static func schedule(of date: ServiceDate, in term: Term, periods: MealPeriods,
                         menus: [ServiceDate: [String]]) -> Day {
        let week = term.week(of: date) ?? .number(0)
        if term.closure(on: date) != nil {
            return Day(date: date, week: week, periods: periods.defaults(on: date), source: .closed)
        }
        if let published = menus[date], !published.isEmpty {
            return Day(date: date, week: week, periods: published, source: .menu)
        }
        return Day(date: date, week: week, periods: periods.defaults(on: date), source: .planDefault)
    }

    static func balances(of plan: MealPlan, term: Term, days: [Day], periods: MealPeriods) -> [SwipeBalance] {
        let premier = plan.kind == .premier
        let spreads = days.map { day in
            day.source == .closed ? day.periods.map { _ in 0 }
                : periods.spread(plan.swipes(on: day.date), over: day.periods, severalPerPeriod: premier)
        }
        let total = spreads.joined().reduce(0, +)
        let pool = plan.termPool ?? 0
        var rows: [SwipeBalance] = []
        var used = 0
        var weekStart: ServiceDate?
        for (day, spread) in zip(days, spreads) {
            let monday = day.date.adding(days: 1 - day.date.isoWeekday)
            if !premier, monday != weekStart {
                weekStart = monday
                used = 0
            }
            for (index, period) in day.periods.enumerated() {
                used += spread[index]
                let balance = premier ? share(of: pool, remaining: total - used, total: total)
                    : plan.weeklySwipes - used
                rows.append(SwipeBalance(
                    plan: plan.code, term: term.name, date: day.date, week: day.week, period: period,
                    position: index + 1, periodSource: day.source, swipes: spread[index], balance: balance))
            }
        }
        return rows
    }

    /// pool × remaining / total, rounded half up, in integers so that no float error moves it.
    static func share(of pool: Int, remaining: Int, total: Int) -> Int {
        guard total > 0 else { return pool }
        return (2 * pool * remaining + total) / (2 * total)
    }
}
