import Foundation
import Synchronization

/// ISO 8601 timestamps as the raw store's records and the run ledger write them.
///
/// An `ISO8601DateFormatter` is expensive to create, and a run formats a time for every
/// document, and it is not documented as safe to share between threads, so each
/// format is made once and used under a lock. `Date.ISO8601FormatStyle` would need no lock, but
/// it rounds milliseconds differently and parses fractions to different `Date`s than the
/// formatter, and records written before must read back to the same dates.
public enum ISOTimestamp {
    private static let seconds = Mutex(formatter([.withInternetDateTime]))
    private static let milliseconds = Mutex(formatter([.withInternetDateTime, .withFractionalSeconds]))

    /// "2026-11-22T03:59:49Z": the ledger's and manifests' timestamps.
    public static func string(from date: Date) -> String {
        fastString(from: date, milliseconds: false) ?? seconds.withLock { $0.string(from: date) }
    }

    /// "2026-11-22T03:59:49.123Z": milliseconds, so that two fetches in one second still order.
    public static func millisecondString(from date: Date) -> String {
        fastString(from: date, milliseconds: true) ?? milliseconds.withLock { $0.string(from: date) }
    }

    /// The formatter's text for a moment from 1970 to 9999, written by hand: every document
    /// stored is stamped twice, and the formatter under its lock cost as much as writing the
    /// document's record. The time is rounded to the nearest millisecond, then cut to the second
    /// when no fraction is written, as the formatter does (checked against it in
    /// `ISOTimestampTests`). Nil for other moments,
    /// which the formatter writes.
    static func fastString(from date: Date, milliseconds withMilliseconds: Bool) -> String? {
        let interval = date.timeIntervalSince1970
        guard interval >= 0, interval < 253_402_300_800 else { return nil }
        let total = Int((interval * 1000).rounded(.toNearestOrAwayFromZero))
        let (days, inDay) = (total / 86_400_000, total % 86_400_000)
        let (year, month, day) = CivilCalendar.date(daysSinceEpoch: days)
        var text = [UInt8]()
        text.reserveCapacity(24)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                text.append(UInt8(48 + value / divisor % 10))
                divisor /= 10
            }
        }
        digits(year, 4); text.append(UInt8(ascii: "-")); digits(month, 2); text.append(UInt8(ascii: "-"))
        digits(day, 2); text.append(UInt8(ascii: "T")); digits(inDay / 3_600_000, 2); text.append(UInt8(ascii: ":"))
        digits(inDay / 60_000 % 60, 2); text.append(UInt8(ascii: ":")); digits(inDay / 1000 % 60, 2)
        if withMilliseconds {
            text.append(UInt8(ascii: "."))
            digits(inDay % 1000, 3)
        }
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// "2026-11-22T03:59:49Z" back to its `Date`: the hand reader below with no fraction, the
    /// formatter for any other shape.
    public static func date(fromString text: String) -> Date? {
        if text.utf8.count == 20, text.hasSuffix("Z"),
           let date = fastDate(fromMillisecondString: String(text.dropLast()) + ".000Z") {
            return date
        }
        return seconds.withLock { $0.date(from: text) }
    }

    public static func date(fromMillisecondString text: String) -> Date? {
        if let date = fastDate(fromMillisecondString: text) { return date }
        return milliseconds.withLock { $0.date(from: text) }
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` read by hand: every stored record's time is read back on each
    /// run, and the formatter under its lock was 5% of a night of UCLA's feed (perf). Nil for any
    /// other shape, which the formatter then reads. Gives the formatter's `Date` exactly: whole
    /// seconds since 1970 plus the milliseconds over 1000, as it computes them (checked against
    /// it in `ISOTimestampTests`).
    static func fastDate(fromMillisecondString text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              bytes[19] == UInt8(ascii: "."), bytes[23] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              let millisecond = number(20..<23), (1...12).contains(month), (1...31).contains(day),
              hour < 24, minute < 60, second < 60, day <= daysIn(month: month, year: year) else { return nil }
        let days = CivilCalendar.daysSinceEpoch(year: year, month: month, day: day)
        let whole = ((days * 24 + hour) * 60 + minute) * 60 + second
        return Date(timeIntervalSince1970: Double(whole) + Double(millisecond) / 1000)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func formatter(_ options: ISO8601DateFormatter.Options) -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = options
        return formatter
    }
}
