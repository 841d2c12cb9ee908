import Foundation
import Snapshot

/// The static JSON API: `<slug>/<date>.json`, a restaurant's day, and `index.json`, what there
/// is. Keys are snake_case, absent values `null`; the shapes are documented in docs/feeds.md.
enum JSONFeed {
    struct Day: Encodable {
        var restaurant: Restaurant
        var date: String
        /// The source says the restaurant is closed this day (all its hours closed, no menu).
        var closed: Bool
        var closedReason: String?
        var hours: [Hours]
        var meals: [Meal]
    }

    struct Restaurant: Encodable {
        var name: String
        var campus: String?
        var slug: String
        var place: String?
        var address: String?
        var latitude: Double?
        var longitude: Double?
        var timeZone: String?
    }

    /// A row of the day's hours as published: local times as printed, `closed` with its note.
    struct Hours: Encodable {
        var meal: String
        var opens: String?
        var closes: String?
        var closed: Bool
        var note: String?
    }

    struct Meal: Encodable {
        var name: String
        /// `HH:MM`, 24-hour, local to the restaurant; null when the source publishes no hours.
        var opens: String?
        var closes: String?
        var sections: [Section]
    }

    struct Section: Encodable {
        var name: String
        var items: [Item]
    }

    struct Item: Encodable {
        var name: String
        var foodId: String
        var description: String?
        var servingSize: String?
        var caloriesPerServing: Double?
        var terms: [Term]
        var nutrients: Nutrients?
    }

    struct Term: Encodable {
        var name: String
        var kind: String
        var label: String
        /// `contains` or `may_contain`.
        var presence: String
    }

    /// The label's values, each per `basis`: `serving` (a US label) or `100 g` (a kitchen
    /// system's recipe document, whose serving weighs `serving_grams`).
    struct Nutrients: Encodable {
        var basis: String
        var servingGrams: Double?
        var values: [Value]
    }

    struct Value: Encodable {
        var key: String
        var name: String
        var amount: Double?
        var unit: String?
        var printedAmount: String?
        var printedDvPercent: Double?
    }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
