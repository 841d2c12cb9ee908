import Basics
import GRDB

/// A `meal_plan` row. Snapshot does not depend on the Swipes module: the pipeline fills these
/// plain rows from its values.
public struct MealPlanRow: Hashable, Sendable {
    public var code: String
    public var name: String
    public var kind: String
    public var weeklySwipes: Int
    public var dailySwipes: [Int]
    public var termPool: Int?
    public var swipesPerTerm: Int
    public var annualPrice: Double?
    public var priceYear: String?
    public var pricePerSwipe: Double?

    public init(code: String, name: String, kind: String, weeklySwipes: Int, dailySwipes: [Int],
                termPool: Int?, swipesPerTerm: Int, annualPrice: Double?, priceYear: String?,
                pricePerSwipe: Double?) {
        self.code = code
        self.name = name
        self.kind = kind
        self.weeklySwipes = weeklySwipes
        self.dailySwipes = dailySwipes
        self.termPool = termPool
        self.swipesPerTerm = swipesPerTerm
        self.annualPrice = annualPrice
        self.priceYear = priceYear
        self.pricePerSwipe = pricePerSwipe
    }
}

/// A `swipe_balance` row: the expected balance of a plan after one meal period of one day.
public struct SwipeBalanceRow: Hashable, Sendable {
    public var plan: String
    public var term: String
    /// YYYY-MM-DD.
    public var date: String
    public var weekday: Int
    public var week: Int
    public var weekLabel: String
    public var position: Int
    public var period: String
    public var periodSource: String
    public var swipes: Int
    public var balance: Int

    public init(plan: String, term: String, date: String, weekday: Int, week: Int, weekLabel: String,
                position: Int, period: String, periodSource: String, swipes: Int, balance: Int) {
        self.plan = plan
        self.term = term
        self.date = date
        self.weekday = weekday
        self.week = week
        self.weekLabel = weekLabel
        self.position = position
        self.period = period
        self.periodSource = periodSource
        self.swipes = swipes
        self.balance = balance
    }
}

extension StagingSnapshot {
    /// Writes the plans and their balance tables in one transaction with cached statements
    /// (a year of three terms is about 25,000 rows).
    public func writeSwipes(plans: [MealPlanRow], balances: [SwipeBalanceRow]) throws {
        let queue = try self.queue
        do {
            try queue.write { db in
                let plan = try db.cachedStatement(sql: """
                    INSERT INTO meal_plan (code, name, kind, weekly_swipes, daily_swipes, term_pool,
                                           swipes_per_term, annual_price, price_year, price_per_swipe)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for row in plans.sorted(by: { $0.code < $1.code }) {
                    try plan.execute(arguments: [
                        row.code, row.name, row.kind, row.weeklySwipes,
                        row.dailySwipes.map(String.init).joined(separator: ","), row.termPool,
                        row.swipesPerTerm, row.annualPrice, row.priceYear, row.pricePerSwipe,
                    ])
                }
                let balance = try db.cachedStatement(sql: """
                    INSERT INTO swipe_balance (plan, term, date, weekday, week, week_label, position,
                                               period, period_source, swipes, balance)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for row in balances {
                    try balance.execute(arguments: [
                        row.plan, row.term, row.date, row.weekday, row.week, row.weekLabel, row.position,
                        row.period, row.periodSource, row.swipes, row.balance,
                    ])
                }
            }
        } catch {
            throw Failure(.fileSystem, "cannot write the swipe tables: \(plainMessage(error))", at: url.path, cause: error)
        }
    }
}
