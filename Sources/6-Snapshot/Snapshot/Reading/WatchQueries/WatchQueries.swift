import Basics
import FoodModel
import Foundation
import GRDB

/// The snapshot as `commissary watch` reads it: the menus of the days ahead with what each
/// item's food means in the one vocabulary, and which items a previous snapshot already had.
/// Each question is a function answering plain values, so the watch sees neither SQL nor GRDB.
///
/// A handle lives only inside `read(_:_:)`, on the connection that call opened; like that
/// connection it is not `Sendable`.
public struct WatchQueries {
    let db: Database

    /// Reads the snapshot at `url` through typed queries; a damaged file fails as
    /// `SnapshotReader.read` says, naming the file.
    public static func read<T>(_ url: URL, _ body: (WatchQueries) throws -> T) throws -> T {
        try SnapshotReader.read(url) { db in
            // Restaurants have a campus from schema 17; an older file would fail as "damaged".
            guard try db.columns(in: "restaurant").contains(where: { $0.name == "campus" }) else {
                throw Failure(.snapshot, "is older than schema 17, which watch reads: publish the pipeline again "
                              + "with this version of Commissary", at: url.path)
            }
            return try body(WatchQueries(db: db))
        }
    }

    /// Every menu item served on `from` or later, in the order of the menus (day, meal, place on
    /// the page), each with the terms its food's codes mean.
    public func upcomingItems(from date: ServiceDate) throws -> [UpcomingItem] {
        let terms = try upcomingTerms(from: date)
        return try Row.fetchAll(db, sql: """
            SELECT mi.id, d.date, d.weekday, m.name AS meal, r.name AS restaurant, r.campus, s.name AS section,
                   mi.name AS item, mi.food_id, f.name AS food
            \(SnapshotView.menuItemPlaces())
            JOIN food f ON f.id = mi.food_id
            WHERE d.id >= ?
            ORDER BY d.date, m.position, mi.position, mi.id
            """, arguments: [Self.dayID(date)]).map { row in
                let food: String = try row.decode(forColumn: "food_id")
                return try UpcomingItem(
                    id: row.decode(forColumn: "id"), date: row.decode(forColumn: "date"),
                    weekday: row.decode(forColumn: "weekday"), meal: row.decode(forColumn: "meal"),
                    restaurant: row.decode(forColumn: "restaurant"), campus: row.decode(forColumn: "campus"),
                    section: row.decode(forColumn: "section"), item: row.decode(forColumn: "item"),
                    foodID: food, food: row.decode(forColumn: "food"), terms: terms.contained[food] ?? [],
                    mayContain: terms.mayContain[food] ?? [])
            }
    }

    /// The hours rows of `from` and later, for `UpcomingHours.rows(of:campus:on:)`.
    public func upcomingHours(from date: ServiceDate) throws -> UpcomingHours {
        guard try db.tableExists("hours") else { return UpcomingHours(rows: [:]) }
        var rows: [UpcomingHours.Key: [(campus: String?, opening: FeedOpening)]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT restaurant, campus, date, meal, opens, closes, is_closed, note FROM hours
            WHERE date >= ? ORDER BY date, id
            """, arguments: [date.description]) {
            let opening = try FeedOpening(date: row.decode(forColumn: "date"), meal: row.decode(forColumn: "meal"),
                                          opens: row.decode(forColumn: "opens"), closes: row.decode(forColumn: "closes"),
                                          isClosed: row.decode(Int?.self, forColumn: "is_closed") == 1,
                                          note: row.decode(forColumn: "note"))
            let key = UpcomingHours.Key(restaurant: try row.decode(forColumn: "restaurant"), date: opening.date)
            rows[key, default: []].append((try row.decode(forColumn: "campus"), opening))
        }
        return UpcomingHours(rows: rows)
    }

    /// The ids of the menu items served on `from` or later: what a previous snapshot held of the
    /// days ahead. An item keeps its id from night to night (docs/changes.md), so an id missing
    /// here is an item that appeared since.
    public func upcomingItemIDs(from date: ServiceDate) throws -> Set<Int64> {
        Set(try Int64.fetchAll(db, sql: """
            SELECT mi.id FROM menu_item mi JOIN meal m ON m.id = mi.meal_id
            WHERE m.service_day_id >= ?
            """, arguments: [Self.dayID(date)]))
    }

    /// The terms of the foods served on `from` or later, each food's in name order, apart by what
    /// its codes say (a term some code says it contains is not also one it may contain): one
    /// query for all, not one per item.
    private func upcomingTerms(from date: ServiceDate) throws -> (contained: [String: [String]], mayContain: [String: [String]]) {
        let rows = try Row.fetchAll(db, sql: """
            SELECT fc.food_id, ct.term, min(ct.presence) AS presence
            FROM food_code fc JOIN code_term ct ON ct.code = fc.code
            WHERE fc.food_id IN (SELECT mi.food_id FROM menu_item mi JOIN meal m ON m.id = mi.meal_id
                                 WHERE m.service_day_id >= ?)
            GROUP BY fc.food_id, ct.term ORDER BY fc.food_id, ct.term
            """, arguments: [Self.dayID(date)])
        var contained: [String: [String]] = [:]
        var mayContain: [String: [String]] = [:]
        for row in rows {
            let food: String = try row.decode(forColumn: "food_id")
            let term: String = try row.decode(forColumn: "term")
            if try row.decode(String.self, forColumn: "presence") == TermPresence.mayContain.rawValue {
                mayContain[food, default: []].append(term)
            } else {
                contained[food, default: []].append(term)
            }
        }
        return (contained, mayContain)
    }

    /// A service day's id, `yyyymmdd` (docs/changes.md), so the days ahead are read by the key.
    private static func dayID(_ date: ServiceDate) -> Int {
        date.year * 10000 + date.month * 100 + date.day
    }
}

/// One menu item of the days ahead, as a watch matches it.
public struct UpcomingItem: Hashable, Sendable, Codable {
    /// `menu_item.id`: the same item keeps it from night to night.
    public var id: Int64
    public var date: String
    /// ISO weekday: 1 = Monday.
    public var weekday: Int
    public var meal: String
    public var restaurant: String
    public var campus: String?
    public var section: String
    /// The name printed on this menu.
    public var item: String
    public var foodID: String
    /// The food's own name.
    public var food: String
    /// The terms of the one vocabulary its food's codes mean (`vegan`, `peanuts`), in name order.
    public var terms: [String]
    /// The allergens its codes say it may contain (cross-contact), and no code says it contains.
    public var mayContain: [String]

    public init(id: Int64, date: String, weekday: Int, meal: String, restaurant: String, campus: String?,
                section: String, item: String, foodID: String, food: String, terms: [String], mayContain: [String]) {
        self.id = id
        self.date = date
        self.weekday = weekday
        self.meal = meal
        self.restaurant = restaurant
        self.campus = campus
        self.section = section
        self.item = item
        self.foodID = foodID
        self.food = food
        self.terms = terms
        self.mayContain = mayContain
    }
}

/// The hours of the days ahead, by restaurant and day.
public struct UpcomingHours: Sendable {
    struct Key: Hashable, Sendable {
        var restaurant: String
        var date: String
    }

    let rows: [Key: [(campus: String?, opening: FeedOpening)]]

    /// A restaurant's rows of a day, matched as the feeds match them: by its name within its
    /// campus, a row without a campus belonging to any.
    public func rows(of restaurant: String, campus: String?, on date: String) -> [FeedOpening] {
        (rows[Key(restaurant: restaurant, date: date)] ?? [])
            .filter { $0.campus == nil || $0.campus == campus }.map(\.opening)
    }
}
