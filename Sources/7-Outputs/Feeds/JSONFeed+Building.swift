import FoodModel
import Foundation
import Snapshot

extension JSONFeed {
    /// A restaurant's day as its JSON file holds it.
    static func day(_ day: FeedDay, of feed: RestaurantFeed, foods: [String: FeedFood]) -> Day {
        Day(restaurant: restaurant(feed), date: day.date, closed: day.isClosed, closedReason: day.closedReason,
            hours: day.openings.map {
                Hours(meal: $0.meal, opens: $0.opens, closes: $0.closes, closed: $0.isClosed, note: $0.note)
            },
            meals: day.meals.map { meal in
                Meal(name: meal.name, opens: meal.opening?.opens.flatMap(ClockTime.init)?.description,
                     closes: meal.opening?.closes.flatMap(ClockTime.init)?.description,
                     sections: meal.sections.map { section in
                         Section(name: section.name, items: section.items.map { item(for: $0, food: foods[$0.foodID]) })
                     })
            })
    }

    static func restaurant(_ feed: RestaurantFeed) -> Restaurant {
        let place = feed.restaurant.place
        return Restaurant(name: feed.restaurant.name, campus: feed.restaurant.campus, slug: feed.slug, place: place?.name,
                          address: place?.address, latitude: place?.latitude, longitude: place?.longitude,
                          timeZone: place?.timeZone)
    }

    private static func item(for item: FeedItem, food: FeedFood?) -> Item {
        let nutrients = food.flatMap { food in
            food.basis.map { basis in
                Nutrients(basis: basis, servingGrams: food.servingGrams, values: food.nutrients.map {
                    Value(key: $0.key, name: $0.name, amount: $0.amount, unit: $0.unit, printedAmount: $0.printedAmount,
                          printedDvPercent: $0.printedDailyValuePercent)
                })
            }
        }
        return Item(name: item.name, foodId: item.foodID, description: item.description, servingSize: food?.servingSize,
                    caloriesPerServing: food?.caloriesPerServing,
                    terms: food?.terms.map { Term(name: $0.name, kind: $0.kind, label: $0.label, presence: $0.presence) } ?? [],
                    nutrients: nutrients)
    }
}

/// `index.json`: the snapshot the feeds were made from, and each restaurant with its files.
public struct FeedIndex: Codable, Hashable, Sendable {
    public var pipeline: String
    public var runId: String
    public var builtAt: String
    public var restaurants: [Entry]

    public struct Entry: Codable, Hashable, Sendable {
        public var name: String
        public var campus: String?
        public var slug: String
        /// `<slug>.xml`, `<slug>.ics`, relative to the folder.
        public var openmensa: String
        public var icalendar: String
        /// The days with a file `<slug>/<date>.json`.
        public var dates: [String]
    }

    init(_ set: FeedSet) {
        pipeline = set.facts.pipeline
        runId = set.facts.runID
        builtAt = set.facts.builtAt
        restaurants = set.restaurants.map { feed in
            Entry(name: feed.restaurant.name, campus: feed.restaurant.campus, slug: feed.slug, openmensa: "\(feed.slug).xml",
                  icalendar: "\(feed.slug).ics", dates: feed.days.map(\.date))
        }
    }

    /// The index of the feed folder at `folder`, or nil when it has none (or one this version
    /// cannot read): what the report page links from.
    public static func read(in folder: URL) -> FeedIndex? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("index.json")) else { return nil }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try? decoder.decode(FeedIndex.self, from: data)
    }
}
