import FoodModel

/// One academic term as the registrar publishes it, read from `Pipelines/terms/`, so that no
/// year is tied to the code (BruinLife hard-coded its week numbers for one year).
///
/// Weeks run Monday to Sunday, as the Regular plans' weekly allowances do; so the weekend before
/// the registrar's finals (which begin on a Saturday) is labelled Week 10, and Finals Week is
/// the following Monday to the term's last day.
public struct Term: Hashable, Sendable, Codable {
    public var name: String
    /// The registrar's first day of the quarter.
    public var firstDay: ServiceDate
    /// Fall has a Week 0: the days from the first day to the Sunday before Week 1.
    public var hasWeekZero: Bool
    /// The Monday of Week 1.
    public var weekOne: ServiceDate
    public var instructionWeeks: Int
    /// The last day of finals week, when the plans expire.
    public var lastDay: ServiceDate
    public var closures: [Closure]

    /// A day the dining halls are closed: no meal period is served and no swipe is used.
    public struct Closure: Hashable, Sendable, Codable {
        public var date: ServiceDate
        public var reason: String?

        public init(date: ServiceDate, reason: String? = nil) {
            self.date = date
            self.reason = reason
        }
    }

    public init(name: String, firstDay: ServiceDate, hasWeekZero: Bool, weekOne: ServiceDate,
                instructionWeeks: Int = 10, lastDay: ServiceDate, closures: [Closure] = []) {
        self.name = name
        self.firstDay = firstDay
        self.hasWeekZero = hasWeekZero
        self.weekOne = weekOne
        self.instructionWeeks = instructionWeeks
        self.lastDay = lastDay
        self.closures = closures
    }

    /// Week 1 when the term does not say: the Monday after the first day's week when there is a
    /// Week 0 before it, else the first Monday on or after the first day (Winter 2025 began on
    /// Thursday 2 January and taught from Monday 6 January).
    public static func defaultWeekOne(firstDay: ServiceDate, hasWeekZero: Bool) -> ServiceDate {
        let toNextMonday = 8 - firstDay.isoWeekday
        if hasWeekZero { return firstDay.adding(days: toNextMonday) }
        return firstDay.isoWeekday == 1 ? firstDay : firstDay.adding(days: toNextMonday)
    }

    /// The Sunday ending finals week, when the term does not give its last day.
    public static func defaultLastDay(weekOne: ServiceDate, instructionWeeks: Int) -> ServiceDate {
        weekOne.adding(days: 7 * (instructionWeeks + 1) - 1)
    }

    /// The first day of the balance table: Week 0's first day, or Week 1's Monday. In a term with
    /// no Week 0 the registrar's days before Week 1 belong to no week and are not in the table.
    public var firstTableDay: ServiceDate { hasWeekZero ? firstDay : weekOne }

    /// Every day of the table, in order; computed on day numbers, never on clock time, so a
    /// daylight-saving change cannot add or lose a day.
    public var days: [ServiceDate] {
        let first = firstTableDay.daysSinceEpoch
        let last = lastDay.daysSinceEpoch
        guard first <= last else { return [] }
        return (first...last).map(ServiceDate.init(daysSinceEpoch:))
    }

    public func closure(on date: ServiceDate) -> Closure? {
        closures.first { $0.date == date }
    }

    /// The week a day falls in, or nil outside the table.
    public func week(of date: ServiceDate) -> TermWeek? {
        guard date >= firstTableDay, date <= lastDay else { return nil }
        let offset = date.daysSinceEpoch - weekOne.daysSinceEpoch
        if offset < 0 { return .number(0) }
        let number = offset / 7 + 1
        return number <= instructionWeeks ? .number(number) : .finals(after: instructionWeeks)
    }
}

/// Week 0 … Week 10, or Finals Week.
public enum TermWeek: Hashable, Sendable, Codable, CustomStringConvertible {
    case number(Int)
    /// The week after the last week of instruction.
    case finals(after: Int)

    /// A number that sorts weeks in order: finals week is the one after the last of instruction.
    public var ordinal: Int {
        switch self {
        case .number(let number): number
        case .finals(let after): after + 1
        }
    }

    public var description: String {
        switch self {
        case .number(let number): "Week \(number)"
        case .finals: "Finals Week"
        }
    }
}
