import Basics
import Foundation

/// A calendar day on which a dining hall serves food, with no time zone attached.
///
/// Menus are published per local day ("October 13, 2019"); tying them to an instant would
/// invite off-by-one days across zones, so the day is kept as year, month and day only.
/// It encodes as `YYYY-MM-DD`, which also sorts correctly as text.
public struct ServiceDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Creates a date, returning nil for a day that does not exist (2026-02-30).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...ServiceDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`, in ASCII digits; nil for anything else (a sign, a space, another
    /// script's digits, a day that does not exist). Read byte by byte: a run parses a date for
    /// every day it keeps, in its caches and on its page, and splitting the text into parts
    /// cost eight times as much (15 ms of a three-year night's CPU, against 2 ms).
    public init?(_ text: String) {
        let bytes = text.utf8
        guard bytes.count == 10 else { return nil }
        var year = 0, month = 0, day = 0
        for (offset, byte) in bytes.enumerated() {
            if offset == 4 || offset == 7 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int(byte - UInt8(ascii: "0"))
            switch offset {
            case ..<4: year = year * 10 + digit
            case ..<7: month = month * 10 + digit
            default: day = day * 10 + digit
            }
        }
        self.init(year: year, month: month, day: day)
    }

    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public static func < (lhs: ServiceDate, rhs: ServiceDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (`CivilCalendar`), so that
    /// date arithmetic needs no Calendar and no time zone.
    public var daysSinceEpoch: Int {
        CivilCalendar.daysSinceEpoch(year: year, month: month, day: day)
    }

    /// The date `daysSinceEpoch` days after 1970-01-01.
    public init(daysSinceEpoch: Int) {
        (year, month, day) = CivilCalendar.date(daysSinceEpoch: daysSinceEpoch)
    }

    public func adding(days: Int) -> ServiceDate {
        ServiceDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    /// 1 = Monday ... 7 = Sunday (ISO 8601).
    public var isoWeekday: Int {
        // 1970-01-01 was a Thursday (ISO 4).
        let offset = (daysSinceEpoch + 3) % 7
        return (offset < 0 ? offset + 7 : offset) + 1
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = ServiceDate(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a date as YYYY-MM-DD, found \"\(text)\"")
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension ServiceDate {
    /// The day `instant` falls on in `zone`; by default today in the machine's time zone: the
    /// dining hall's "today" when the job runs where the hall is.
    public static func today(in zone: TimeZone = .current, at instant: Date = Date()) -> ServiceDate {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: zone, from: instant)
        return ServiceDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
            ?? ServiceDate(daysSinceEpoch: 0)
    }
}
