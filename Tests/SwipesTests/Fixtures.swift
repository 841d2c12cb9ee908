import FoodModel
import Swipes
import Testing

/// The plans of docs/meal-plans.md as values, so that the computation is tested apart from the files
/// (PipelineTests read `Pipelines/plans/ucla.yml` and check the same tables).
enum Fixtures {
    static let periods = MealPeriods(weekdays: ["Breakfast", "Lunch", "Dinner"], weekends: ["Brunch", "Dinner"],
                                     priority: ["Dinner", "Brunch", "Lunch", "Breakfast"])
    static let week19 = [3, 3, 3, 3, 3, 2, 2]
    static let week14 = [2, 2, 2, 2, 2, 2, 2]
    static let week11 = [2, 1, 2, 1, 2, 2, 1]

    static func regular(_ code: String, _ week: [Int]) -> MealPlan {
        MealPlan(code: code, name: code, kind: .regular, dailySwipes: week)
    }

    static func premier(_ code: String, _ week: [Int], pool: Int) -> MealPlan {
        MealPlan(code: code, name: code, kind: .premier, dailySwipes: week, termPool: pool)
    }

    static let plans = [
        regular("19R", week19), premier("19P", week19, pool: 209),
        regular("14R", week14), premier("14P", week14, pool: 154),
        regular("11R", week11), premier("11P", week11, pool: 121),
    ]

    static func date(_ text: String) throws -> ServiceDate {
        try #require(ServiceDate(text))
    }

    /// A term as the files describe it, with the readers' defaults for Week 1 and the last day.
    static func term(_ name: String, firstDay: String, weekZero: Bool = false,
                     closures: [String] = []) throws -> Term {
        let first = try date(firstDay)
        let weekOne = Term.defaultWeekOne(firstDay: first, hasWeekZero: weekZero)
        return Term(name: name, firstDay: first, hasWeekZero: weekZero, weekOne: weekOne,
                    lastDay: Term.defaultLastDay(weekOne: weekOne, instructionWeeks: 10),
                    closures: try closures.map { Term.Closure(date: try date($0)) })
    }

    /// The balance after the last period of each day, in date order.
    static func endOfDay(_ rows: [SwipeBalance], plan: String) -> [Int] {
        var last: [ServiceDate: Int] = [:]
        for row in rows where row.plan == plan { last[row.date] = row.balance }
        return last.keys.sorted().compactMap { last[$0] }
    }
}
