import GRDB

/// One row of a restaurant's published hours: a meal period of a day, open from `opens` to
/// `closes` (local times as printed), or closed, with the remark printed beside it.
public struct FeedOpening: Hashable, Sendable {
    public var date: String
    public var meal: String
    public var opens: String?
    public var closes: String?
    /// The source says closed (`hours.is_closed`), which is not the same as no hours at all.
    public var isClosed: Bool
    /// The remark printed beside the hours; for a closed day, the reason ("Fall Break").
    public var note: String?
}

extension FeedQueries {
    /// The dated hours of one restaurant, in date then page order. Hours name their restaurant
    /// as the hours page spells it, matched by name within the campus, as `near` matches them.
    public func openings(of restaurant: FeedRestaurant) throws -> [FeedOpening] {
        guard try db.tableExists("hours") else { return [] }
        return try Row.fetchAll(db, sql: """
            SELECT h.date, h.meal, h.opens, h.closes, h.is_closed, h.note FROM hours h
            WHERE h.restaurant = ? AND h.date IS NOT NULL AND (h.campus IS NULL OR h.campus IS ?)
            ORDER BY h.date, h.id
            """, arguments: [restaurant.name, restaurant.campus]).map { row in
                try FeedOpening(date: row.decode(forColumn: "date"), meal: row.decode(forColumn: "meal"),
                                opens: row.decode(forColumn: "opens"), closes: row.decode(forColumn: "closes"),
                                isClosed: row.decode(Int?.self, forColumn: "is_closed") == 1, note: row.decode(forColumn: "note"))
            }
    }
}
