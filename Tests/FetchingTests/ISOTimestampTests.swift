@testable import Basics
import Foundation
import Testing

/// The hand reader of the raw store's timestamps gives the formatter's `Date`, bit for bit, so
/// that records written before read back to the same times.
@Suite struct ISOTimestampTests {
    static func formatterDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    @Test func theHandReaderAgreesWithTheFormatter() throws {
        var generator = SystemRandomNumberGenerator()
        // Every millisecond of a second, and random moments from 1970 to 2100 (leap days included).
        var texts = (0..<1000).map { String(format: "2025-04-07T02:00:05.%03dZ", $0) }
        texts += ["2024-02-29T23:59:59.999Z", "2000-02-29T00:00:00.000Z", "1970-01-01T00:00:00.000Z",
                  "2099-12-31T23:59:59.999Z"]
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for _ in 0..<20_000 {
            let milliseconds = Int64.random(in: 0..<4_102_444_800_000, using: &generator)
            texts.append(formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000)))
        }
        for text in texts {
            let fast = try #require(ISOTimestamp.fastDate(fromMillisecondString: text), "\(text)")
            #expect(fast == Self.formatterDate(text), "\(text)")
            #expect(ISOTimestamp.millisecondString(from: fast) == text)
        }
    }

    /// The hand writer gives the formatter's text, to the second and to the millisecond, for
    /// moments with any fraction (the formatter rounds it to the millisecond, and a second form
    /// of 0.9995 s is the next second), from 1970 to past 2100.
    @Test func theHandWriterAgreesWithTheFormatter() throws {
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let whole = ISO8601DateFormatter()
        whole.formatOptions = [.withInternetDateTime]
        var generator = SystemRandomNumberGenerator()
        var moments: [Double] = [0, 0.0004, 0.9995, 0.999_999_9, 951_782_400, 951_868_799.999_9, 1_709_251_199.5,
                                 4_102_444_799.999, 4_102_444_800, 13_569_465_600.25]
        for _ in 0..<30_000 {
            moments.append(Double.random(in: 0..<4_200_000_000, using: &generator))
        }
        // The moments a clock stamps: whole microseconds near now.
        for _ in 0..<10_000 {
            moments.append(Double(Int64.random(in: 1_700_000_000_000_000..<1_900_000_000_000_000, using: &generator)) / 1e6)
        }
        for moment in moments {
            let date = Date(timeIntervalSince1970: moment)
            #expect(ISOTimestamp.fastString(from: date, milliseconds: true) == withFraction.string(from: date), "\(moment)")
            #expect(ISOTimestamp.fastString(from: date, milliseconds: false) == whole.string(from: date), "\(moment)")
        }
        #expect(ISOTimestamp.fastString(from: Date(timeIntervalSince1970: -1), milliseconds: true) == nil)
        #expect(ISOTimestamp.millisecondString(from: Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
    }

    @Test func otherShapesAreLeftToTheFormatter() {
        for text in ["2025-04-07T02:00:05Z", "2025-02-30T00:00:00.000Z", "2025-13-01T00:00:00.000Z",
                     "2025-04-07T24:00:00.000Z", "2025-04-07 02:00:05.000Z", "2025-04-07T02:00:05.000+01:00",
                     "２025-04-07T02:00:05.000Z", "2025-04-07T02:00:5a.000Z"] {
            #expect(ISOTimestamp.fastDate(fromMillisecondString: text) == nil, "\(text)")
            #expect(ISOTimestamp.date(fromMillisecondString: text) == Self.formatterDate(text), "\(text)")
        }
    }

    /// The seconds form the ledger and partition states write reads back to its moment, the
    /// same as the formatter's, and round-trips.
    @Test func theSecondsFormReadsBack() throws {
        // 2026-11-22T03:59:49Z: 20,779 days after 1970-01-01 (1,795,305,600 s) plus 03:59:49 (14,389 s);
        // an hour earlier in UTC when the clock reads the same an hour east.
        let date = try #require(ISOTimestamp.date(fromString: "2026-11-22T03:59:49Z"))
        #expect(date == Date(timeIntervalSince1970: 1_795_319_989))
        #expect(ISOTimestamp.string(from: date) == "2026-11-22T03:59:49Z")
        #expect(ISOTimestamp.date(fromString: "2026-11-22T03:59:49+01:00") == Date(timeIntervalSince1970: 1_795_316_389))
        #expect(ISOTimestamp.date(fromString: "yesterday") == nil)
    }
}
