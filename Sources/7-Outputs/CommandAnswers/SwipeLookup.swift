import Basics
import FoodModel
import Foundation
import Pipeline
import Snapshot
import Swipes

/// What `commissary swipes` answers: a plan's expected balance after the periods of one day.
///
/// It reads a published snapshot by default, because the snapshot's table took each day's
/// periods from the menus actually published; from a pipeline file it computes the table from
/// the plans and terms files alone (every day on the default periods), which works before any
/// run and for days no menu covers yet.
public enum SwipeLookup {
    public struct Line: Hashable, Sendable {
        public var plan: String
        public var term: String
        public var date: String
        public var weekLabel: String
        public var period: String
        public var periodSource: String
        public var balance: Int
    }

    /// From the `swipes:` section of a pipeline file.
    public static func fromFiles(_ settings: SwipeSettings, plan code: String, date: ServiceDate,
                                 meal: String?) throws -> [Line] {
        guard let plan = settings.catalog.plan(code) else {
            throw Failure.badInput("no plan \"\(code)\"; plans: \(settings.catalog.plans.map(\.code).joined(separator: ", "))",
                                   at: settings.plansFile.path)
        }
        guard let term = settings.terms.first(where: { $0.week(of: date) != nil }) else {
            let spans = settings.terms.map { "\($0.name) \($0.firstTableDay) to \($0.lastDay)" }.joined(separator: "; ")
            throw Failure.badInput("\(date) is in no configured term (\(spans))",
                                   at: settings.termFiles.map(\.path).joined(separator: ", "))
        }
        let lines = SwipeTable.compute(plans: [plan], terms: [term], periods: settings.catalog.periods, menus: [:])
            .filter { $0.date == date }
            .map { Line(plan: $0.plan, term: $0.term, date: $0.date.description, weekLabel: $0.week.description,
                        period: $0.period, periodSource: $0.periodSource.rawValue, balance: $0.balance) }
        return try only(meal, in: lines, at: settings.plansFile.path)
    }

    /// From a snapshot's `swipe_balance` table.
    public static func fromSnapshot(_ url: URL, plan code: String, date: ServiceDate, meal: String?) throws -> [Line] {
        // The date is a parsed ServiceDate, so it is safe in the SQL text; the plan and meal are
        // compared in Swift, never spliced in.
        let result = try QueryResult.run("""
            SELECT plan, term, date, week_label, period, period_source, balance FROM swipe_balance
            WHERE date = '\(date)' ORDER BY plan, position
            """, on: url)
        let lines = result.rows.compactMap { row -> Line? in
            guard row.count == 7, case .text(let plan) = row[0], case .text(let term) = row[1],
                  case .text(let day) = row[2], case .text(let week) = row[3], case .text(let period) = row[4],
                  case .text(let source) = row[5], case .integer(let balance) = row[6]
            else { return nil }
            return Line(plan: plan, term: term, date: day, weekLabel: week, period: period, periodSource: source,
                        balance: Int(balance))
        }
        guard !lines.isEmpty else {
            throw Failure.badInput("no swipe balances for \(date) (no configured term covers it)", at: url.path)
        }
        let own = lines.filter { $0.plan.lowercased() == code.lowercased() }
        guard !own.isEmpty else {
            let plans = Array(Set(lines.map(\.plan))).sorted().joined(separator: ", ")
            throw Failure.badInput("no plan \"\(code)\"; plans: \(plans)", at: url.path)
        }
        return try only(meal, in: own, at: url.path)
    }

    private static func only(_ meal: String?, in lines: [Line], at location: String) throws -> [Line] {
        guard let meal else { return lines }
        let chosen = lines.filter { $0.period.lowercased() == meal.lowercased() }
        guard !chosen.isEmpty else {
            let periods = lines.map(\.period).joined(separator: ", ")
            throw Failure.badInput("no meal period \"\(meal)\" on \(lines.first?.date ?? "that day"); periods: \(periods)",
                                   at: location)
        }
        return chosen
    }
}
