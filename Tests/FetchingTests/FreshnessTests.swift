import Basics
@testable import Fetching
import Foundation
import Testing

/// When a stored answer may be used without asking (RFC 9111 §4.2 and the pipeline's period),
/// and when a missing document may be asked again: the rules of docs/pipelines.md, on values.
@Suite struct FreshnessTests {
    /// 2025-11-01T02:00:00Z.
    static let fetched = Date(timeIntervalSince1970: 1_761_962_400)

    static func record(_ headers: [String: String]) -> FetchRecord {
        FetchRecord(url: "https://example.org/recipes/1.json", status: 200, headers: headers, charset: nil,
                    sha256: String(repeating: "0", count: 64), size: 10, fetchedAt: fetched)
    }

    static func at(_ seconds: Double) -> Date { fetched.addingTimeInterval(seconds) }

    @Test func aPeriodCountsCalendarDays() {
        let week = Freshness(period: .days(7))
        // 2025-11-07 23:59 is six days on; 2025-11-08 00:00 is seven.
        #expect(week.isFresh(Self.record([:]), now: Self.at(6 * 86_400 + 21 * 3_600 + 59 * 60)))
        #expect(!week.isFresh(Self.record([:]), now: Self.at(6 * 86_400 + 22 * 3_600)))
        #expect(!Freshness(period: .always).isFresh(Self.record([:]), now: Self.fetched))
        #expect(Freshness(period: .never).isFresh(Self.record([:]), now: Self.at(400 * 86_400)))
    }

    /// Days counted on UTC's calendar, worked by hand: a second across midnight is a day, a
    /// day less a second within one is none, and the count runs back across 1970 and forward
    /// across a leap day (2028-02-29) and a year's end.
    @Test func utcDaysAreTheCalendarsDays() {
        func date(_ text: String) -> Date { ISOTimestamp.date(fromString: text)! }
        #expect(UTCDay.between(date("2026-11-28T23:59:59Z"), and: date("2026-11-29T00:00:00Z")) == 1)
        #expect(UTCDay.between(date("2026-11-29T00:00:00Z"), and: date("2026-11-29T23:59:59Z")) == 0)
        #expect(UTCDay.between(date("2026-11-29T12:00:00Z"), and: date("2026-11-20T23:00:00Z")) == -9)
        #expect(UTCDay.between(date("1969-12-31T12:00:00Z"), and: date("1970-01-01T00:00:00Z")) == 1)
        #expect(UTCDay.between(date("2028-02-28T10:00:00Z"), and: date("2028-03-01T10:00:00Z")) == 2)
        #expect(UTCDay.adding(3, to: date("2026-12-30T15:30:00Z")) == date("2027-01-02T00:00:00Z"))
        #expect(UTCDay.adding(-1, to: date("1970-01-01T06:00:00Z")) == date("1969-12-31T00:00:00Z"))
    }

    @Test func theServersLifetimeComesFirst() {
        let week = Freshness(period: .days(7))
        let hour = Self.record(["cache-control": "public, max-age=3600"])
        #expect(week.isFresh(hour, now: Self.at(3_599)))
        #expect(!week.isFresh(hour, now: Self.at(3_600)))
        // Ten minutes old when it was served: fifty minutes left.
        let aged = Self.record(["cache-control": "max-age=3600", "age": "600"])
        #expect(week.isFresh(aged, now: Self.at(2_999)))
        #expect(!week.isFresh(aged, now: Self.at(3_000)))
        #expect(!week.isFresh(Self.record(["cache-control": "no-cache, max-age=3600"]), now: Self.at(1)))
        // Expires an hour after the server's Date, whatever the two clocks say.
        let expiring = Self.record(["date": "Sat, 01 Nov 2025 01:00:00 GMT", "expires": "Sat, 01 Nov 2025 02:00:00 GMT"])
        #expect(week.isFresh(expiring, now: Self.at(3_599)))
        #expect(!week.isFresh(expiring, now: Self.at(3_600)))
        #expect(!week.isFresh(Self.record(["expires": "0"]), now: Self.fetched))
        // A max-age that is not a number is no lifetime: the period decides.
        #expect(week.isFresh(Self.record(["cache-control": "max-age=soon"]), now: Self.at(86_400)))
    }

    static func missing(times: Int, url: String = "https://example.org/recipes/1.json") -> MissingDocument {
        MissingDocument(url: url, partition: "2025-11-01", status: 404, times: times, firstMissing: fetched,
                        lastAsked: fetched)
    }

    @Test func theBackOffDoublesAndStopsAtItsCeiling() {
        let backOff = MissingBackOff()
        for index in 0..<50 {
            let url = "https://example.org/recipes/\(index).json"
            #expect((2..<6).contains(backOff.wait(for: Self.missing(times: 1, url: url))), "\(url)")
            #expect((4..<12).contains(backOff.wait(for: Self.missing(times: 2, url: url))), "\(url)")
            #expect((8...14).contains(backOff.wait(for: Self.missing(times: 3, url: url))), "\(url)")
            #expect(backOff.wait(for: Self.missing(times: 4, url: url)) == 14)
            #expect(backOff.wait(for: Self.missing(times: 60, url: url)) == 14)
            #expect(MissingBackOff(retryAfterDays: 1, maxDays: 3).wait(for: Self.missing(times: 2, url: url)) == 3)
        }
        // The same path waits alike on any host; fifty addresses spread over the four days the first wait may take.
        #expect(backOff.wait(for: Self.missing(times: 1, url: "http://127.0.0.1:8080/recipes/7.json"))
                == backOff.wait(for: Self.missing(times: 1, url: "https://example.org/recipes/7.json")))
        let firstWaits = Set((0..<50).map { backOff.wait(for: Self.missing(times: 1, url: "https://example.org/recipes/\($0).json")) })
        #expect(firstWaits.count >= 3, "\(firstWaits)")
    }

    @Test func aDocumentIsDueOnTheDayItsWaitEnds() {
        let backOff = MissingBackOff()
        let document = Self.missing(times: 1)
        let wait = backOff.wait(for: document)
        #expect(!backOff.isDue(document, now: Self.at(Double(wait - 1) * 86_400 + 21 * 3_600)))
        #expect(backOff.isDue(document, now: Self.at(Double(wait) * 86_400 - 2 * 3_600)))
        #expect(backOff.nextAsk(document) == Self.at(Double(wait) * 86_400 - 2 * 3_600))
        // A clock set back before the last ask does not hold the document for ever.
        #expect(backOff.isDue(document, now: Self.at(-86_400)))
    }
}
