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
    /// Restaurants with at least one section.
    public func restaurantCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(DISTINCT restaurant_id) FROM section") ?? 0
    }
}
