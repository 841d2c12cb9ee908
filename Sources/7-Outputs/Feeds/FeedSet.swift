import FoodModel
import Foundation
import Snapshot

/// Everything the feeds of one snapshot say, read once: per restaurant, its slug and its days
/// (menus by meal and section, the hours of each day), and the foods the menus serve.
public struct FeedSet: Sendable {
    public var facts: FeedSnapshotFacts
    public var restaurants: [RestaurantFeed]
    public var foods: [String: FeedFood]

    /// Reads the snapshot at `url` through `FeedQueries`.
    public static func read(_ url: URL) throws -> FeedSet {
        try FeedQueries.read(url) { queries in
            let restaurants = try queries.restaurants()
            let slugs = Slug.assign(restaurants)
            let feeds = try restaurants.map { restaurant in
                RestaurantFeed(restaurant: restaurant, slug: slugs[restaurant.id] ?? "restaurant-\(restaurant.id)",
                               days: FeedDay.days(items: try queries.items(of: restaurant),
                                                  openings: try queries.openings(of: restaurant)))
            }
            return FeedSet(facts: try queries.facts(), restaurants: feeds.filter { !$0.days.isEmpty },
                           foods: try queries.servedFoods())
        }
    }
}

/// One restaurant's feed: its days with a menu or closed, in date order.
public struct RestaurantFeed: Sendable {
    public var restaurant: FeedRestaurant
    public var slug: String
    public var days: [FeedDay]

    /// The name a feed shows: with its campus where the snapshot names one ("Commons (St. Olaf)"),
    /// so two campuses' restaurants of one name stay two.
    public var displayName: String {
        restaurant.name + (restaurant.campus.map { " (\($0))" } ?? "")
    }
}

/// A day of a restaurant: its meals as served, and its published hours.
public struct FeedDay: Hashable, Sendable {
    public var date: String
    public var meals: [FeedMeal]
    public var openings: [FeedOpening]

    /// The source says the restaurant is closed that day: it publishes hours for the day, every
    /// one of them closed, and nothing is served. A day without hours is a day without data.
    public var isClosed: Bool {
        meals.isEmpty && !openings.isEmpty && openings.allSatisfy(\.isClosed)
    }

    /// Why a closed day is closed, as the source says it (the notes beside its hours), or nil.
    public var closedReason: String? {
        guard isClosed else { return nil }
        let notes = openings.compactMap(\.note).filter { !$0.isEmpty }
        let distinct = notes.enumerated().filter { notes.firstIndex(of: $0.element) == $0.offset }.map(\.element)
        return distinct.isEmpty ? nil : distinct.joined(separator: "; ")
    }

    /// The days with a menu or closed, from a restaurant's items (in menu order) and hours.
    static func days(items: [FeedItem], openings: [FeedOpening]) -> [FeedDay] {
        let hoursByDate = Dictionary(grouping: openings, by: \.date)
        let itemsByDate = Dictionary(grouping: items, by: \.date)
        // A date that is no day (only a damaged or foreign snapshot holds one) names no feed
        // file: it would be a path of its own choosing.
        let dates = Set(hoursByDate.keys).union(itemsByDate.keys).filter { ServiceDate($0) != nil }.sorted()
        return dates.map { date in
            FeedDay(date: date, meals: FeedMeal.meals(of: itemsByDate[date] ?? [], openings: hoursByDate[date] ?? []),
                    openings: hoursByDate[date] ?? [])
        }.filter { !$0.meals.isEmpty || $0.isClosed }
    }
}

/// A meal period of a day with its sections, in menu order, and its hours where published.
public struct FeedMeal: Hashable, Sendable {
    public var name: String
    public var sections: [FeedSection]
    /// The open hours row of this meal with both times readable; nil when the source publishes
    /// none: a meal's time is never guessed.
    public var opening: FeedOpening?
    /// The hours row that says this meal is closed that day, when it has no open one: the source
    /// still lists its menu, which is published as listed, and said to be closed.
    public var closure: FeedOpening?

    /// What the meal's hours row remarks besides naming the meal ("Closed 7:30-8:00PM", a
    /// closure within the meal): what a reader at the door needs beside the times.
    public var remarks: [String] {
        HoursNote.remarks((opening ?? closure)?.note, besides: name)
    }

    static func meals(of items: [FeedItem], openings: [FeedOpening]) -> [FeedMeal] {
        ordered(items, by: \.meal).map { name, mealItems in
            let hours = FeedOpening.hours(of: name, among: openings)
            return FeedMeal(name: name, sections: ordered(mealItems, by: \.section).map { FeedSection(name: $0, items: $1) },
                            opening: hours.opening, closure: hours.closure)
        }
    }
}

/// A section (station) of a meal with its items in menu order.
public struct FeedSection: Hashable, Sendable {
    public var name: String
    public var items: [FeedItem]
}

/// Groups `items` by `key`, the groups in the order their first item came, items kept in order.
func ordered<Key: Hashable>(_ items: [FeedItem], by key: KeyPath<FeedItem, Key>) -> [(Key, [FeedItem])] {
    var order: [Key] = []
    var groups: [Key: [FeedItem]] = [:]
    for item in items {
        if groups[item[keyPath: key]] == nil { order.append(item[keyPath: key]) }
        groups[item[keyPath: key], default: []].append(item)
    }
    return order.map { ($0, groups[$0] ?? []) }
}
