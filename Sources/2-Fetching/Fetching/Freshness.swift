import Foundation

/// How long a stored document of one kind is used without asking the server again, when the
/// server itself said nothing about it (`fetch.revalidate` in a pipeline file).
public enum RevalidationPeriod: Hashable, Sendable, CustomStringConvertible {
    /// Asked every run (conditionally, when validators are stored).
    case always
    /// Never asked again once stored (what every food document got before periods existed).
    case never
    /// Asked again on the run at least this many UTC calendar days after its last answer.
    case days(Int)

    public var description: String {
        switch self {
        case .always: "always"
        case .never: "never"
        case .days(let days): "\(days)d"
        }
    }
}

/// Whether a stored answer may be used without asking (RFC 9111 §4.2): the server's own
/// lifetime first (`Cache-Control: max-age`, else `Expires`), else the period the pipeline
/// gives the document's kind.
public struct Freshness: Sendable, Hashable {
    public var period: RevalidationPeriod

    public init(period: RevalidationPeriod) {
        self.period = period
    }

    /// True when `record`, as stored, is still fresh at `now`.
    public func isFresh(_ record: FetchRecord, now: Date) -> Bool {
        let directives = Self.directives(record.headers["cache-control"])
        if directives.contains("no-cache") || directives.contains("no-store") { return false }
        if let maxAge = directives.lazy.compactMap(Self.maxAge).first {
            let age = Double(record.headers["age"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0)
            return now.timeIntervalSince(record.fetchedAt) + age < Double(maxAge)
        }
        if let expires = record.headers["expires"] {
            // An Expires that is not a date (often "0" or "-1") means already expired (§5.3).
            guard let expiry = HeaderValues.httpDate(expires) else { return false }
            // Measured against the server's own Date, so that a clock set wrong on either side
            // does not stretch or cut the lifetime.
            let served = record.headers["date"].flatMap(HeaderValues.httpDate) ?? record.fetchedAt
            return now.timeIntervalSince(record.fetchedAt) < expiry.timeIntervalSince(served)
        }
        switch period {
        case .always: return false
        case .never: return true
        case .days(let days): return UTCDay.between(record.fetchedAt, and: now) < days
        }
    }

    private static func directives(_ value: String?) -> [String] {
        (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// `max-age=N` (also quoted); nil for any other directive or an unreadable number.
    private static func maxAge(_ directive: String) -> Int? {
        guard directive.hasPrefix("max-age=") else { return nil }
        let value = directive.dropFirst("max-age=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        return Int(value).flatMap { $0 >= 0 ? $0 : nil }
    }
}

/// Nights are counted in UTC calendar days, not in 24-hour spans: a run at 02:00 after one that
/// finished at 02:03 the night before is one day later, as the schedule means.
public enum UTCDay {
    private static let secondsPerDay = 86_400.0

    /// Whole calendar days from `start`'s day to `end`'s (negative when `end` is earlier). A UTC
    /// day is always 86,400 s of Unix time (no offset, no daylight saving, leap seconds not
    /// counted), so day numbers are plain division; `Calendar` took most of an unchanged night's
    /// look at its food documents.
    public static func between(_ start: Date, and end: Date) -> Int {
        guard let first = dayNumber(start), let last = dayNumber(end) else { return 0 }
        return last - first
    }

    /// The start of the day `days` after `date`'s day.
    public static func adding(_ days: Int, to date: Date) -> Date {
        guard let day = dayNumber(date) else { return date }
        return Date(timeIntervalSince1970: Double(day + days) * secondsPerDay)
    }

    /// The number of `date`'s UTC day since 1970-01-01; nil for a date no calendar holds.
    private static func dayNumber(_ date: Date) -> Int? {
        let day = (date.timeIntervalSince1970 / secondsPerDay).rounded(.down)
        return day.isFinite && abs(day) < 1e12 ? Int(day) : nil
    }
}
