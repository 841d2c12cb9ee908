import Basics
import Foundation
import FoodModel
import Snapshot

/// A restaurant as an iCalendar file (RFC 5545) a calendar app subscribes to: one event per meal
/// with the menu in its description.
///
/// A meal whose hours the source publishes is a timed event, in the restaurant's time zone where
/// the snapshot's place has one (`TZID` with the IANA name, as Google, Apple and Outlook read it,
/// and its `VTIMEZONE`) and otherwise in floating local time (RFC 5545 3.3.5: the same wall-clock
/// time wherever the reader is, which is right for someone at the restaurant). A meal without
/// published hours is an all-day event marked free (`TRANSP:TRANSPARENT`): its menu stays in the
/// calendar, no time is made up, and since its UID is the meal's, the event becomes a timed one
/// when hours appear. A meal the source says is closed that day, menu listed all the same, is
/// such an event too, saying so. A day the source says is closed is one all-day event saying why.
enum CalendarFeed {
    /// `stamp` is the DTSTAMP of every event (`yyyyMMddTHHmmssZ`): when the snapshot was built,
    /// so the same snapshot always gives the same file.
    static func document(_ feed: RestaurantFeed, foods: [String: FeedFood], pipeline: String, stamp: String) -> String {
        let zone = feed.restaurant.place?.timeZone
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Commissary//Open feeds//EN", "CALSCALE:GREGORIAN",
                     "METHOD:PUBLISH", "X-WR-CALNAME:\(ICalendarText.escape(feed.displayName))"]
        if let zone, let first = feed.days.first.flatMap({ ServiceDate($0.date) }),
           let last = feed.days.last.flatMap({ ServiceDate($0.date) }) {
            lines.append("X-WR-TIMEZONE:\(ICalendarText.escape(zone))")
            lines += CalendarTimeZone.lines(zone, from: first, to: last) ?? []
        }
        for day in feed.days {
            let event = EventBase(feed: feed, pipeline: pipeline, stamp: stamp, date: day.date)
            if day.isClosed {
                lines += event.lines(uidPart: "closed", start: allDay(day.date), summary: "\(feed.displayName) closed",
                                     description: day.closedReason ?? "Closed, as the source says.")
            }
            for meal in day.meals {
                let said = meal.closure != nil ? " (closed, as the source says)"
                    : meal.opening == nil ? " (time not published)" : ""
                // The hours row's remarks (a closure within the meal, a closed meal's reason) come first.
                let description = (meal.remarks + [menu(meal, foods: foods)]).joined(separator: "\n\n")
                lines += event.lines(uidPart: "meal\u{1F}\(meal.name)", start: start(of: meal, on: day.date, zone: zone),
                                     summary: "\(meal.name) at \(feed.displayName)\(said)", description: description)
            }
        }
        lines.append("END:VCALENDAR")
        return lines.map(ICalendarText.fold).joined()
    }

    /// DTSTART and DTEND (or the all-day date and TRANSP) of a meal.
    private static func start(of meal: FeedMeal, on date: String, zone: String?) -> [String] {
        guard let opening = meal.opening, let day = ServiceDate(date),
              let opens = opening.opens.flatMap(ClockTime.init), let closes = opening.closes.flatMap(ClockTime.init)
        else { return allDay(date) }
        // A closing at or before the opening (`5:00pm` to `12:00am`) is on the next day.
        let endDay = closes > opens ? day : day.adding(days: 1)
        let parameter = zone.map { ";TZID=\(parameterValue($0))" } ?? ""
        return ["DTSTART\(parameter):\(dateTime(day, opens))", "DTEND\(parameter):\(dateTime(endDay, closes))"]
    }

    private static func allDay(_ date: String) -> [String] {
        let compact = date.replacingOccurrences(of: "-", with: "")
        let next = ServiceDate(date).map { $0.adding(days: 1).description.replacingOccurrences(of: "-", with: "") }
            ?? compact
        return ["DTSTART;VALUE=DATE:\(compact)", "DTEND;VALUE=DATE:\(next)", "TRANSP:TRANSPARENT"]
    }

    private static func dateTime(_ day: ServiceDate, _ time: ClockTime) -> String {
        day.description.replacingOccurrences(of: "-", with: "") + "T"
            + time.description.replacingOccurrences(of: ":", with: "") + "00"
    }

    /// A parameter value is quoted when it holds a character a bare one may not (RFC 5545 3.1).
    private static func parameterValue(_ value: String) -> String {
        value.contains(where: { ":;,".contains($0) }) ? "\"\(value.filter { $0 != "\"" })\"" : value
    }

    /// The meal's menu as plain text: each section, then its items, with their diets.
    static func menu(_ meal: FeedMeal, foods: [String: FeedFood]) -> String {
        meal.sections.map { section in
            ([section.name] + section.items.map { item in
                "- " + item.name + (ItemWords.diets(of: foods[item.foodID]).map { " (\($0))" } ?? "")
            }).joined(separator: "\n")
        }.joined(separator: "\n\n")
    }
}

/// What every event of a restaurant's day shares: its UID's parts, stamp and location.
private struct EventBase {
    let feed: RestaurantFeed
    let pipeline: String
    let stamp: String
    let date: String

    /// An event; its UID is a hash of the pipeline, the restaurant, the date and `uidPart` (the
    /// meal), so a snapshot published again tomorrow updates the event instead of adding one.
    func lines(uidPart: String, start: [String], summary: String, description: String) -> [String] {
        let key = [pipeline, feed.restaurant.name, feed.restaurant.campus ?? "", date, uidPart].joined(separator: "\u{1F}")
        var lines = ["BEGIN:VEVENT", "UID:\(sha256Hex(Data(key.utf8)).prefix(32))@feeds.commissary", "DTSTAMP:\(stamp)"]
        lines += start
        lines.append("SUMMARY:\(ICalendarText.escape(summary))")
        if let place = feed.restaurant.place {
            lines.append("LOCATION:\(ICalendarText.escape(place.address.map { "\(place.name), \($0)" } ?? place.name))")
            if let latitude = place.latitude, let longitude = place.longitude {
                lines.append(String(format: "GEO:%.6f;%.6f", latitude, longitude))
            }
        }
        lines.append("DESCRIPTION:\(ICalendarText.escape(description))")
        return lines + ["END:VEVENT"]
    }
}
