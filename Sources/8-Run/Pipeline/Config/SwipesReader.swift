import FoodModel
import Foundation
import YAMLConfig
import Swipes

/// Reads meal plans (`Pipelines/plans/`) and term calendars (`Pipelines/terms/`) with the same
/// located errors as pipeline files: a bad date or a missing pool names the file, line and key.
enum SwipesReader {
    static func plans(_ file: URL) throws -> PlanCatalog {
        let top = try YAMLFile.mapping(of: file, what: "plans file")
        try top.allowOnly(["plans", "price_year", "terms_per_year", "weeks_per_term", "default_periods", "priority"])
        let priceYear = try top.optional("price_year")?.string()
        var plans: [MealPlan] = []
        for node in try top.required("plans").sequence() {
            let plan = try readPlan(node, priceYear: priceYear)
            guard !plans.contains(where: { $0.code == plan.code }) else {
                throw node.error("two plans are coded \"\(plan.code)\"")
            }
            plans.append(plan)
        }
        let defaults = try YAMLMapping(top.required("default_periods"))
        try defaults.allowOnly(["weekdays", "weekends"])
        return PlanCatalog(
            plans: plans,
            periods: MealPeriods(
                weekdays: try names(defaults.required("weekdays")),
                weekends: try names(defaults.required("weekends")),
                priority: try top.optional("priority").map(names) ?? []),
            termsPerYear: try top.optional("terms_per_year").map { try positive($0) } ?? 3,
            weeksPerTerm: try top.optional("weeks_per_term").map { try positive($0) } ?? 11)
    }

    private static func readPlan(_ node: YAMLValue, priceYear: String?) throws -> MealPlan {
        let map = try YAMLMapping(node)
        try map.allowOnly(["code", "name", "kind", "daily", "pool", "annual_price"])
        let kindNode = try map.required("kind")
        guard let kind = MealPlan.Kind(rawValue: try kindNode.string()) else {
            throw kindNode.error("expected regular or premier, found \"\(try kindNode.string())\"")
        }
        let dailyNode = try map.required("daily")
        let daily = try dailyNode.sequence().map { value in
            try value.int(in: 0...100)
        }
        guard daily.count == 7 else {
            throw dailyNode.error("needs 7 numbers, Monday to Sunday, found \(daily.count)")
        }
        let pool = try map.optional("pool").map { try positive($0) }
        switch (kind, pool) {
        case (.premier, nil): throw map.node.error("a premier plan needs its term `pool`")
        case (.regular, .some): throw try map.required("pool").error("a regular plan has a weekly allowance, not a pool")
        default: break
        }
        let code = try map.required("code").string()
        return MealPlan(code: code, name: try map.optional("name")?.string() ?? code, kind: kind,
                        dailySwipes: daily, termPool: pool,
                        annualPriceCents: try map.optional("annual_price").map(cents),
                        priceYear: priceYear)
    }

    static func terms(_ file: URL) throws -> [Term] {
        let top = try YAMLFile.mapping(of: file, what: "term calendar")
        try top.allowOnly(["terms"])
        var terms: [Term] = []
        for node in try top.required("terms").sequence() {
            terms.append(try readTerm(node))
        }
        return terms
    }

    private static func readTerm(_ node: YAMLValue) throws -> Term {
        let map = try YAMLMapping(node)
        try map.allowOnly(["name", "first_day", "week_0", "week_1", "instruction_weeks", "last_day", "closures"])
        let firstDay = try map.required("first_day").date()
        let hasWeekZero = try map.optional("week_0")?.bool() ?? false
        let weekOne = try map.optional("week_1")?.date()
            ?? Term.defaultWeekOne(firstDay: firstDay, hasWeekZero: hasWeekZero)
        if let node = try map.optional("week_1") {
            guard weekOne.isoWeekday == 1 else { throw node.error("Week 1 must begin on a Monday, \(weekOne) is not") }
            guard weekOne >= firstDay else { throw node.error("is before `first_day` (\(firstDay))") }
        }
        let weeks = try map.optional("instruction_weeks").map { try positive($0) } ?? 10
        let lastDay = try map.optional("last_day")?.date()
            ?? Term.defaultLastDay(weekOne: weekOne, instructionWeeks: weeks)
        if let node = try map.optional("last_day"), lastDay < weekOne {
            throw node.error("is before Week 1 (\(weekOne))")
        }
        var term = Term(name: try map.required("name").string(), firstDay: firstDay, hasWeekZero: hasWeekZero,
                        weekOne: weekOne, instructionWeeks: weeks, lastDay: lastDay)
        for closureNode in try map.optional("closures")?.sequence() ?? [] {
            let closure = try YAMLMapping(closureNode)
            try closure.allowOnly(["date", "reason"])
            let date = try closure.required("date").date()
            guard term.week(of: date) != nil else {
                throw try closure.required("date").error(
                    "\(date) is outside the term (\(term.firstTableDay) to \(term.lastDay))")
            }
            term.closures.append(Term.Closure(date: date, reason: try closure.optional("reason")?.string()))
        }
        return term
    }

    private static func names(_ node: YAMLValue) throws -> [String] {
        let names = try node.sequence().map { try $0.string() }
        guard !names.isEmpty else { throw node.error("needs at least one meal period") }
        return names
    }

    private static func positive(_ node: YAMLValue) throws -> Int {
        try node.int(in: 1...100_000)
    }

    /// Dollars with at most two decimals, as whole cents, so that prices never drift in binary.
    private static func cents(_ node: YAMLValue) throws -> Int {
        let text = try node.string()
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let dollars = Int(parts[0]), (0...10_000_000).contains(dollars),
              parts.count == 1 || ((1...2).contains(parts[1].count) && parts[1].allSatisfy(\.isNumber)),
              let fraction = parts.count == 2 ? Int(parts[1].padding(toLength: 2, withPad: "0", startingAt: 0)) : 0
        else { throw node.error("expected a price in dollars such as 5932.56, found \"\(text)\"") }
        return dollars * 100 + fraction
    }
}
