import FoodModel
import Foundation
import Testing

/// An instant on one clock read on another: the day changes where the clocks' offset crosses
/// midnight, and summer time is the zone's own (offsets from the IANA rules, checked by hand).
@Suite struct WallClockTests {
    private func clock(_ day: String, _ time: String) throws -> WallClock {
        WallClock(day: try #require(ServiceDate(day)), time: try #require(ClockTime(time)))
    }

    private func zone(_ name: String) throws -> TimeZone { try #require(TimeZone(identifier: name)) }

    @Test func theSameInstantOnAnotherClockMayBeAnotherDay() throws {
        // Tokyo is UTC+9 all year; New York is UTC-4 in October (EDT) and UTC-5 in January.
        #expect(try clock("2022-10-09", "01:30").converted(from: zone("Asia/Tokyo"), to: zone("America/New_York"))
                == (try clock("2022-10-08", "12:30")))
        #expect(try clock("2023-01-09", "01:30").converted(from: zone("Asia/Tokyo"), to: zone("America/New_York"))
                == (try clock("2023-01-08", "11:30")))
        #expect(try clock("2022-10-08", "23:45").converted(from: zone("America/Chicago"), to: zone("America/New_York"))
                == (try clock("2022-10-09", "00:45")))
        #expect(try clock("2022-10-08", "12:30").converted(from: zone("UTC"), to: zone("UTC"))
                == (try clock("2022-10-08", "12:30")))
    }

    @Test func aClockTimeIsWithinOneDay() {
        #expect(ClockTime(minutes: 0)?.description == "00:00" && ClockTime(minutes: 1439)?.description == "23:59")
        #expect(ClockTime(minutes: 1440) == nil && ClockTime(minutes: -1) == nil)
    }
}
