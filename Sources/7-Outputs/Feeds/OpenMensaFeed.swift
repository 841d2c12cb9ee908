import FoodModel
import Foundation
import Snapshot

/// A restaurant as an OpenMensa Feed v2.1 document (openmensa.org's XML format, validated by its
/// XSD): the canteen's name, address and location where the snapshot's place gives them, its
/// weekly opening times, and each day's categories (the menu's sections) and meals, or
/// `<closed/>` on a day the source says it is closed.
///
/// No `<price>`: no platform Commissary reads stores a price in the snapshot (docs/feeds.md).
enum OpenMensaFeed {
    static func document(_ feed: RestaurantFeed, foods: [String: FeedFood]) -> String {
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<openmensa version=\"2.1\" xmlns=\"http://openmensa.org/open-mensa-v2\" "
                + "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                + "xsi:schemaLocation=\"http://openmensa.org/open-mensa-v2 http://openmensa.org/open-mensa-v2.xsd\">",
            "  <canteen>",
            "    <name>\(XMLText.escape(feed.displayName))</name>",
        ]
        if let address = feed.restaurant.place?.address, !address.isEmpty {
            lines.append("    <address>\(XMLText.escape(address))</address>")
        }
        if let place = feed.restaurant.place, let latitude = place.latitude, let longitude = place.longitude {
            lines.append("    <location latitude=\"\(latitude)\" longitude=\"\(longitude)\"/>")
        }
        lines += WeeklyTimes.elements(of: feed.days)
        for day in feed.days {
            lines += dayElement(day, foods: foods)
        }
        lines += ["  </canteen>", "</openmensa>", ""]
        return lines.joined(separator: "\n")
    }

    private static func dayElement(_ day: FeedDay, foods: [String: FeedFood]) -> [String] {
        guard !day.isClosed else {
            return ["    <day date=\"\(XMLText.escape(day.date))\">", "      <closed/>", "    </day>"]
        }
        var lines = ["    <day date=\"\(XMLText.escape(day.date))\">"]
        // OpenMensa has no meal periods: a section served at two meals is one category per meal.
        let many = day.meals.count > 1
        for meal in day.meals {
            // OpenMensa has no note on a category nor a meal period: a meal the source says is
            // closed that day says so in its categories' names.
            let period = meal.closure != nil ? "\(meal.name) (closed)" : meal.name
            for section in meal.sections {
                let name = many || meal.closure != nil ? "\(period): \(section.name)" : section.name
                lines.append("      <category name=\"\(XMLText.escape(nonEmpty(XMLText.limited(name), or: meal.name)))\">")
                for item in section.items {
                    lines += mealElement(item, food: foods[item.foodID])
                }
                lines.append("      </category>")
            }
        }
        return lines + ["    </day>"]
    }

    private static func mealElement(_ item: FeedItem, food: FeedFood?) -> [String] {
        let name = nonEmpty(XMLText.limited(item.name), or: item.foodID)
        var lines = ["        <meal>", "          <name>\(XMLText.escape(name))</name>"]
        for note in ItemWords.notes(of: food) {
            let limited = XMLText.limited(note)
            if !limited.isEmpty { lines.append("          <note>\(XMLText.escape(limited))</note>") }
        }
        return lines + ["        </meal>"]
    }

    /// OpenMensa refuses an empty name; a source that printed none is named by what else it gave.
    private static func nonEmpty(_ text: String, or fallback: String) -> String {
        if !text.isEmpty { return text }
        let other = XMLText.limited(fallback)
        return other.isEmpty ? "Menu" : other
    }
}

/// OpenMensa's `<times type="opening">`: one interval per weekday, a weekly rule, which the
/// snapshot's dated hours give only where they show one: at least two such weekdays, every one
/// agreeing (from the first opening to the last closing of the day), or closed on all of them. A
/// day closed for a reason the source gives (a holiday, a break) is an exception, not the rule,
/// and is not counted; one weekday seen once would make a rule of one day. A weekday that varies,
/// is seen once or has no hours is left out rather than guessed.
enum WeeklyTimes {
    static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    static func elements(of days: [FeedDay]) -> [String] {
        var spans: [Int: [String]] = [:]
        for day in days where day.closedReason == nil {
            guard let date = ServiceDate(day.date), let span = span(of: day) else { continue }
            spans[date.isoWeekday, default: []].append(span)
        }
        let lines = (1...7).compactMap { weekday -> String? in
            guard let found = spans[weekday], found.count >= 2, Set(found).count == 1, let span = found.first else { return nil }
            let name = weekdays[weekday - 1]
            return span == "closed" ? "      <\(name) closed=\"true\"/>" : "      <\(name) open=\"\(span)\"/>"
        }
        return lines.isEmpty ? [] : ["    <times type=\"opening\">"] + lines + ["    </times>"]
    }

    /// `HH:mm-HH:mm` from the day's first opening to its last closing (a closing at or before
    /// its opening is after midnight), `closed`, or nil when the day's hours cannot be read.
    private static func span(of day: FeedDay) -> String? {
        if day.isClosed { return "closed" }
        let open = day.openings.filter { !$0.isClosed }
        let times = open.compactMap { opening -> (opens: Int, closes: Int)? in
            guard let opens = opening.opens.flatMap(ClockTime.init), let closes = opening.closes.flatMap(ClockTime.init)
            else { return nil }
            return (opens.minutes, closes > opens ? closes.minutes : closes.minutes + 24 * 60)
        }
        guard !open.isEmpty, times.count == open.count, let first = times.map(\.opens).min(),
              let last = times.map(\.closes).max() else { return nil }
        return "\(clock(first))-\(clock(last % (24 * 60)))"
    }

    private static func clock(_ minutes: Int) -> String {
        String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
}
