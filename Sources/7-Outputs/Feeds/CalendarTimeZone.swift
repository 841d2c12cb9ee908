import FoodModel
import Foundation

/// The `VTIMEZONE` block RFC 5545 asks for beside every `TZID` an event names (3.2.19), made from
/// the system's time-zone database: the offset a year before the first day, then each change
/// until a year after the last, each as the local time it starts at. Calendar apps that know the
/// IANA name use their own rules; this is for those that read only the file.
enum CalendarTimeZone {
    /// Nil when the system does not know the zone: the events then name it alone, as most apps accept.
    static func lines(_ identifier: String, from first: ServiceDate, to last: ServiceDate) -> [String]? {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        let day: TimeInterval = 24 * 60 * 60
        var moment = Date(timeIntervalSince1970: TimeInterval(first.daysSinceEpoch - 366) * day)
        let end = Date(timeIntervalSince1970: TimeInterval(last.daysSinceEpoch + 367) * day)
        var offset = zone.secondsFromGMT(for: moment)
        var lines = ["BEGIN:VTIMEZONE", "TZID:\(identifier)"]
        lines += observance(zone, at: moment, from: offset)
        while let change = zone.nextDaylightSavingTimeTransition(after: moment), change < end {
            lines += observance(zone, at: change, from: offset)
            offset = zone.secondsFromGMT(for: change)
            moment = change
        }
        return lines + ["END:VTIMEZONE"]
    }

    /// One `STANDARD` or `DAYLIGHT` component: the offset from `moment` on, which starts at the
    /// local time `moment` has under the offset before it.
    private static func observance(_ zone: TimeZone, at moment: Date, from before: Int) -> [String] {
        let kind = zone.isDaylightSavingTime(for: moment) ? "DAYLIGHT" : "STANDARD"
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(secondsFromGMT: 0) ?? utc.timeZone
        let local = utc.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                       from: moment.addingTimeInterval(TimeInterval(before)))
        let start = String(format: "%04d%02d%02dT%02d%02d%02d", local.year ?? 1970, local.month ?? 1, local.day ?? 1,
                           local.hour ?? 0, local.minute ?? 0, local.second ?? 0)
        var lines = ["BEGIN:\(kind)", "DTSTART:\(start)", "TZOFFSETFROM:\(offset(before))",
                     "TZOFFSETTO:\(offset(zone.secondsFromGMT(for: moment)))"]
        if let name = zone.abbreviation(for: moment) { lines.append("TZNAME:\(ICalendarText.escape(name))") }
        return lines + ["END:\(kind)"]
    }

    /// `-0700`, `+0530`.
    private static func offset(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + String(format: "%02d%02d", minutes / 60, minutes % 60)
    }
}
