import GRDB

/// One period of a meal plan's table: the balance expected after it, and where the period comes
/// from (`closed` for a closure).
public struct SwipePeriod: Hashable, Sendable {
    public var term: String
    public var plan: String
    public var periodSource: String
    public var balance: Double
}

extension ReportQueries {
    /// Every plan's periods, by term, plan, then date and position in the day; nil for a
    /// snapshot from before meal plans.
    public func swipePeriods() throws -> [SwipePeriod]? {
        guard try db.tableExists("v_swipe_table") || db.viewExists("v_swipe_table") else { return nil }
        return try Row.fetchAll(db, sql: """
            SELECT term, plan, date, position, period_source, balance FROM v_swipe_table ORDER BY term, plan, date, position
            """).map {
                try SwipePeriod(term: $0.decode(forColumn: "term"), plan: $0.decode(forColumn: "plan"),
                                periodSource: $0.decode(forColumn: "period_source"), balance: $0.decode(forColumn: "balance"))
            }
    }
}
