import GRDB

/// The days a snapshot has menus for: the first and the last day with a menu item, and how many
/// days have one (nil days when it has none).
public struct ServedDays: Hashable, Sendable {
    public var first: String?
    public var last: String?
    public var count: Int
}

/// The menu items one restaurant served on one day; the date as the snapshot holds it, which a
/// snapshot given on the command line may have made no date.
public struct RestaurantDayItems: Hashable, Sendable {
    public var restaurant: String
    public var date: String
    public var items: Int
}

/// A restaurant's items over the days it served, and how many of them are vegan, and vegetarian
/// or vegan, in the one vocabulary (`code_term`).
public struct RestaurantDiets: Hashable, Sendable {
    public var restaurant: String
    public var days: Int
    public var items: Int
    public var vegan: Int
    public var vegetarian: Int
}

extension ReportQueries {
    public func servedDays() throws -> ServedDays {
        let range = try Row.fetchOne(db, sql: """
            SELECT min(d.date) AS first, max(d.date) AS last, count(DISTINCT d.id) AS days
            FROM service_day d WHERE EXISTS (SELECT 1 FROM meal m JOIN menu_item mi ON mi.meal_id = m.id
                                             WHERE m.service_day_id = d.id)
            """)
        return ServedDays(first: try range?.decode(String?.self, forColumn: "first"),
                          last: try range?.decode(String?.self, forColumn: "last"),
                          count: try range?.decode(Int.self, forColumn: "days") ?? 0)
    }

    public func menuItemCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM menu_item") ?? 0
    }

    /// Menu items whose food carries a label (`labelledFoods`).
    public func labelledMenuItemCount() throws -> Int {
        try Int.fetchOne(db, sql: """
            SELECT count(*) FROM menu_item WHERE food_id IN (\(try labelledFoods()))
            """) ?? 0
    }

    /// Restaurants with at least one section.
    public func restaurantCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(DISTINCT restaurant_id) FROM section") ?? 0
    }

    /// Items per restaurant (named as `restaurantName` says) and day, in no particular order.
    public func itemsPerRestaurantDay() throws -> [RestaurantDayItems] {
        try Row.fetchAll(db, sql: """
            SELECT \(try restaurantName()) AS restaurant, d.date, count(*) AS items
            FROM menu_item mi JOIN meal m ON m.id = mi.meal_id JOIN service_day d ON d.id = m.service_day_id
            JOIN section s ON s.id = mi.section_id JOIN restaurant r ON r.id = s.restaurant_id
            GROUP BY 1, d.date
            """).map {
                try RestaurantDayItems(restaurant: $0.decode(forColumn: "restaurant"), date: $0.decode(forColumn: "date"),
                                       items: $0.decode(forColumn: "items"))
            }
    }

    /// Each restaurant's diet counts, by name; nil for a snapshot from before the vocabulary.
    public func dietsPerRestaurant() throws -> [RestaurantDiets]? {
        guard try db.tableExists("code_term") else { return nil }
        // Each food's meaning once, then the items counted against it: not a lookup per item.
        return try Row.fetchAll(db, sql: """
            WITH meaning AS (
                SELECT fc.food_id, max(ct.term = 'vegan') AS vegan, max(ct.term IN ('vegan', 'vegetarian')) AS vegetarian
                FROM food_code fc JOIN code_term ct ON ct.code = fc.code GROUP BY fc.food_id)
            SELECT \(try restaurantName()) AS restaurant, count(*) AS items, count(DISTINCT m.service_day_id) AS days,
                   coalesce(sum(t.vegan), 0) AS vegan, coalesce(sum(t.vegetarian), 0) AS vegetarian
            FROM menu_item mi JOIN meal m ON m.id = mi.meal_id
            JOIN section s ON s.id = mi.section_id JOIN restaurant r ON r.id = s.restaurant_id
            LEFT JOIN meaning t ON t.food_id = mi.food_id
            GROUP BY 1 ORDER BY 1
            """).map { row in
                try RestaurantDiets(restaurant: row.decode(forColumn: "restaurant"), days: row.decode(forColumn: "days"),
                                    items: row.decode(forColumn: "items"), vegan: row.decode(forColumn: "vegan"),
                                    vegetarian: row.decode(forColumn: "vegetarian"))
            }
    }
}
