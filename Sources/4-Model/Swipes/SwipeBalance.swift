import FoodModel

/// One row of the balance table: a plan, a meal period of a day of a term, and the balance a
/// student who eats as the plan intends should have after that period.
public struct SwipeBalance: Hashable, Sendable, Codable {
    /// Where the day's periods came from.
    public enum PeriodSource: String, Hashable, Sendable, Codable {
        /// The menus published for that day.
        case menu
        /// The plans file's defaults: no menu was published for that day.
        case planDefault = "default"
        /// A closure of the term calendar: the defaults are listed, and no swipe is used.
        case closed
    }

    public var plan: String
    public var term: String
    public var date: ServiceDate
    public var week: TermWeek
    public var period: String
    /// The period's place in the day, from 1.
    public var position: Int
    public var periodSource: PeriodSource
    /// Swipes the reference week uses at this period.
    public var swipes: Int
    /// The expected balance after this period.
    public var balance: Int

    public init(plan: String, term: String, date: ServiceDate, week: TermWeek, period: String,
                position: Int, periodSource: PeriodSource, swipes: Int, balance: Int) {
        self.plan = plan
        self.term = term
        self.date = date
        self.week = week
        self.period = period
        self.position = position
        self.periodSource = periodSource
        self.swipes = swipes
        self.balance = balance
    }
}
