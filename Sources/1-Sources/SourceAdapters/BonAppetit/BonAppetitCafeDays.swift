import Basics
import FoodModel
import Foundation
import SourceReading

extension CafeReader {
    /// The café's hours: its open days' dayparts, and its closed days with their reasons.
    mutating func hours(of cafe: [String: Any], name: String) -> [HoursEntry] {
        var entries: [HoursEntry] = []
        for (index, value) in JSONFields.array(cafe["days"]).enumerated() {
            guard let day = value as? [String: Any], let date = JSONFields.text(day["date"]).flatMap(ServiceDate.init) else {
                problems.append("\(location): café \(id) days[\(index)] has no date (YYYY-MM-DD): left out")
                continue
            }
            guard days?.contains(date) ?? true else { continue }
            entries += hours(of: day, on: date, name: name)
        }
        return entries
    }

    /// One day: `status` says open or closed; anything else (the answer leaves it empty for days
    /// it has not scheduled) is no data, which is not a closed day.
    private mutating func hours(of day: [String: Any], on date: ServiceDate, name: String) -> [HoursEntry] {
        let place = "\(location): café \(id) on \(date)"
        switch JSONFields.text(day["status"])?.lowercased() {
        case "closed":
            closedDays += 1
            return [.closedDay(name, on: date, reason: reason(day["message"]))]
        case "open":
            let dayparts = BonAppetitMenu.flattened(day["dayparts"])
            if dayparts.isEmpty { problems.append("\(place) is open with no dayparts: no times for it") }
            return dayparts.enumerated().compactMap { position, daypart in
                hours(of: daypart, at: "\(place) daypart \(position)", on: date, name: name)
            }
        case let status?:
            problems.append("\(place) has status \"\(status)\", neither open nor closed: no hours for the day")
            return []
        case nil:
            problems.append("\(place) has no status: no hours for the day (no data, not closed)")
            return []
        }
    }

    /// A daypart's meal and times; a time that does not read as one is left out (said, not
    /// guessed), the meal kept.
    private mutating func hours(of daypart: [String: Any], at place: String, on date: ServiceDate,
                                name: String) -> HoursEntry? {
        guard let meal = JSONFields.text(daypart["label"]).map(BonAppetitText.plain), !meal.isEmpty else {
            problems.append("\(place) has no label (meal name): left out")
            return nil
        }
        let times = ["starttime", "endtime"].map { key -> String? in
            guard let text = JSONFields.text(daypart[key]) else { return nil }
            guard ClockTime(text) != nil else {
                problems.append("\(place) (\(meal)): \(key) \"\(text)\" is not a time of day: left out")
                return nil
            }
            return text
        }
        return HoursEntry(restaurant: name, date: date, meal: meal, opens: times[0], closes: times[1], isClosed: false,
                          note: JSONFields.text(daypart["message"]).map(BonAppetitText.plain))
    }

    /// A closed day's reason as the café's manager typed it ("Fall Break"); the platform writes
    /// `false` or `0` where none was typed, which is no reason.
    private func reason(_ value: Any?) -> String? {
        guard let text = JSONFields.text(value).map(BonAppetitText.plain), !["false", "0"].contains(text) else { return nil }
        return text.isEmpty ? nil : text
    }
}
