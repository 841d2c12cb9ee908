import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// The cafés reader on Penn's real answer (`bonappetit-2022/penn-cafes-2022-10-08.json`, 15 cafés,
/// 2022-10-08..14). The values expected were read from the file by hand: 1920 Commons (593) at
/// 3800 Locust Walk, 39.95253 / -75.19932, brunch 09:00–14:00 on the 8th; English House (637)
/// closed for Fall Break on the 8th, breakfast 08:00–10:30 on the 10th; Lauder College House
/// (1442) at `0.00000`, `0.00000` and closed on the 14th with the message `false`; Pret a Manger
/// MBA (1732) with an empty status on the 14th.
@Suite struct BonAppetitCafesTests {
    static let file = "bonappetit-2022/penn-cafes-2022-10-08.json"

    private func parsed(days: Set<ServiceDate>? = nil) throws -> BonAppetitCafes.Parsed {
        try BonAppetitCafes.parse(SharedData.load(Self.file), days: days, location: Self.file)
    }

    private func place(_ name: String) throws -> Place {
        try #require(try parsed().places.first { $0.name == name })
    }

    @Test func everyCaféIsAPlaceFoundInsidePennsWrapper() throws {
        let parsed = try parsed()
        #expect(parsed.places.count == 15)
        let commons = try place("1920 Commons")
        #expect(commons.address == "3800 Locust Walk, Philadelphia, PA 19104")
        #expect(commons.coordinates == Coordinates(latitude: 39.95253, longitude: -75.19932))
        #expect(commons.timeZone == "America/New_York")
        #expect(try place("English House").address == "3465 Sansom St., Philadelphia, PA 19104")
        // Entities read as characters, so that the name meets the menus answer's.
        #expect(try place("Joe's Café").coordinates == Coordinates(latitude: 39.95253, longitude: -75.19932))
    }

    @Test func zeroCoordinatesAreUnknownNotAPointAtSea() throws {
        let lauder = try place("Lauder College House")
        #expect(lauder.coordinates == nil && lauder.coordinatesSource == nil)
        #expect(lauder.address == nil)
        #expect(try parsed().places.filter { $0.coordinates == nil }.count == 4)
    }

    @Test func aClosedDayIsOneClosedRowWithItsReason() throws {
        let hours = try parsed().hours
        let english = hours.filter { $0.restaurant == "English House" && $0.date == ServiceDate("2022-10-08") }
        #expect(english == [HoursEntry(restaurant: "English House", date: ServiceDate("2022-10-08"), meal: "All day",
                                       opens: nil, closes: nil, isClosed: true, note: "Fall Break")])
        // `false` is the platform's "no message", not a reason.
        let lauder = hours.filter { $0.restaurant == "Lauder College House" && $0.date == ServiceDate("2022-10-14") }
        #expect(lauder.map(\.isClosed) == [true] && lauder.map(\.note) == [nil])
    }

    @Test func anOpenDayHasItsDaypartsTimes() throws {
        let hours = try parsed().hours
        let brunch = try #require(hours.first { $0.restaurant == "1920 Commons" && $0.date == ServiceDate("2022-10-08") })
        #expect(brunch.meal == "Brunch" && brunch.opens == "09:00" && brunch.closes == "14:00" && !brunch.isClosed)
        #expect(brunch.note == "Fall Break")
        let english = hours.filter { $0.restaurant == "English House" && $0.date == ServiceDate("2022-10-10") }
        #expect(english.map(\.meal) == ["Breakfast", "Lunch", "Dinner"])
        #expect(english.first.map { [$0.opens, $0.closes] } == ["08:00", "10:30"])
    }

    @Test func aDayWithoutStatusIsNoDataAndSaidSo() throws {
        let parsed = try parsed()
        #expect(!parsed.hours.contains { $0.restaurant == "Pret a Manger MBA" && $0.date == ServiceDate("2022-10-14") })
        #expect(parsed.problems.contains { $0.contains("café 1732 on 2022-10-14 has no status") })
        // 22 café days say `closed` in the file, 21 of them for Fall Break (counted by status).
        #expect(parsed.closedDays == 22)
        #expect(parsed.hours.filter(\.isClosed).count == 22)
        #expect(parsed.hours.filter { $0.isClosed && $0.note == "Fall Break" }.count == 21)
    }

    @Test func theRunsDaysAndCafésKeepOnlyThose() throws {
        let day = try #require(ServiceDate("2022-10-09"))
        let parsed = try BonAppetitCafes.parse(SharedData.load(Self.file), cafes: ["637", "593"], days: [day],
                                               location: Self.file)
        #expect(parsed.places.map(\.name) == ["1920 Commons", "English House"])
        #expect(Set(parsed.hours.map(\.date)) == [day])
    }

    @Test func oneOddCaféCostsOnlyItself() throws {
        let answer = Data("""
            {"cafes": {"1": {"name": "Good", "latitude": "91", "longitude": "0", "timezone": "Mars/Base", "colour": "red",
                             "days": [{"date": "2022-10-08", "status": "open",
                                       "dayparts": [{"label": "Lunch", "starttime": "noonish", "endtime": "14:00"}]}]},
                       "2": "not a café", "3": {"address": "no name"}}}
            """.utf8)
        let parsed = try BonAppetitCafes.parse(answer, location: "test")
        #expect(parsed.places == [Place(name: "Good")])
        #expect(parsed.hours == [HoursEntry(restaurant: "Good", date: ServiceDate("2022-10-08"), meal: "Lunch",
                                            opens: nil, closes: "14:00", isClosed: false)])
        for said in ["café 2 is not an object", "café 3 has no name", "off the Earth", "\"Mars/Base\" is no IANA zone",
                     "starttime \"noonish\"", "not read (unknown to the adapter): colour"] {
            #expect(parsed.problems.contains { $0.contains(said) }, "\(said): \(parsed.problems)")
        }
    }

    @Test func anAnswerWithoutCafésFailsNamingWhatItFound() {
        #expect(throws: (any Error).self) { try BonAppetitCafes.parse(Data(#"{"days": []}"#.utf8), location: "test") }
    }
}
