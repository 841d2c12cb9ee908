import Foundation

/// A time of day in minutes after midnight, as hours pages print it (`10:00am`, `5:00pm`,
/// `12:00am` for midnight) or as people type it (`18:30`).
public struct ClockTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let minutes: Int

    public init?(_ text: String) {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces).lowercased())
        var half: Int?
        if rest.hasSuffix("am") || rest.hasSuffix("pm") {
            half = rest.hasSuffix("pm") ? 12 : 0
            rest = Substring(rest.dropLast(2).trimmingCharacters(in: .whitespaces))
        }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let hour = Int(parts[0]),
              let minute = parts.count == 2 ? Int(parts[1]) : 0, parts.count == 1 || parts[1].count == 2,
              (0..<60).contains(minute) else { return nil }
        if let half {
            guard (1...12).contains(hour) else { return nil }
            minutes = (hour % 12 + half) * 60 + minute
        } else {
            guard (0..<24).contains(hour), parts.count == 2 else { return nil }
            minutes = hour * 60 + minute
        }
    }

    /// The time `minutes` after midnight; nil outside one day.
    public init?(minutes: Int) {
        guard (0..<24 * 60).contains(minutes) else { return nil }
        self.minutes = minutes
    }

    public static func < (a: ClockTime, b: ClockTime) -> Bool { a.minutes < b.minutes }

    /// `HH:MM`, 24-hour.
    public var description: String {
        let hour = minutes / 60, minute = minutes % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    /// Whether `self`, on the opening's own day, falls in the opening from `opens` to `closes`. A
    /// closing at or before the opening (`9:00pm` to `2:00am`) runs past midnight: its hours after
    /// midnight are the next day's (`isAfterMidnight(within:closes:)`), not the small hours of
    /// its own day, which belong to the opening of the day before.
    public func isWithin(opens: ClockTime, closes: ClockTime) -> Bool {
        closes > opens ? opens <= self && self < closes : self >= opens
    }

    /// Whether `self`, on the day after an opening from `opens` to `closes`, is still in it: the
    /// opening runs past midnight and `self` is before its closing.
    public func isAfterMidnight(within opens: ClockTime, closes: ClockTime) -> Bool {
        closes <= opens && self < closes
    }
}
