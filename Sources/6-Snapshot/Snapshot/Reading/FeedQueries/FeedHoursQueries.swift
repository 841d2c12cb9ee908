import FoodModel
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

extension FeedOpening {
    /// A meal's hours among its day's rows (one restaurant's): the open row of its own name with
    /// both times readable, else such a row one of whose remarks names it (`HoursNote`: UCLA's
    /// weekend Lunch column remarked "(Brunch)"); without one, the row that says the meal is
    /// closed that day, else the row that says the restaurant is closed all day (a closed day
    /// whose menu is listed all the same: each of its meals is closed, as the source says, with
    /// its reason). Both nil when the source publishes neither: a meal's time is never guessed.
    public static func hours(of meal: String, among rows: [FeedOpening]) -> (opening: FeedOpening?, closure: FeedOpening?) {
        let readable = rows.filter {
            !$0.isClosed && $0.opens.flatMap(ClockTime.init) != nil && $0.closes.flatMap(ClockTime.init) != nil
        }
        if let opening = row(of: meal, in: readable) { return (opening, nil) }
        let closed = rows.filter(\.isClosed)
        return (nil, row(of: meal, in: closed) ?? closed.first { $0.meal == HoursEntry.closedDayMeal })
    }

    /// The row of the meal's own name, else the row one of whose remarks names it.
    private static func row(of meal: String, in rows: [FeedOpening]) -> FeedOpening? {
        rows.first { $0.meal.lowercased() == meal.lowercased() } ?? rows.first { HoursNote.names(meal, in: $0.note) }
    }
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
