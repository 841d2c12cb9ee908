@testable import Feeds
import FoodModel
import Foundation
@testable import Snapshot
import Testing
import TestSupport

/// The feeds of a restaurant made up to reach what the saved sources do not: a place with a time
/// zone (schema 21's `place.time_zone`), a day the source says is closed with its reason, a day
/// with hours and no menu, a meal past midnight, a name over OpenMensa's limit, markup and
/// iCalendar's separators in names. Read back by libxml2 against the XSD and by `icalendar`.
@Suite struct FeedRenderingTests {
    static let longName = String(repeating: "Roasted root vegetables, ", count: 12)

    static func set() -> FeedSet {
        let place = FeedPlace(name: "Stav Hall", address: "1520 St. Olaf Ave, Northfield, MN", latitude: 44.4619,
                              longitude: -93.1836, timeZone: "America/Chicago")
        let restaurant = FeedRestaurant(id: 7, name: "Stav Hall & <Grill>", campus: "St. Olaf", place: place)
        let items = [
            FeedItem(date: "2026-10-20", meal: "Lunch", section: "Grill", name: longName, foodID: "x:1", description: nil),
            FeedItem(date: "2026-10-20", meal: "Late Night", section: "Pizza; Pasta", name: "Pizza, \"cheese\"", foodID: "x:2",
                     description: "Thin crust"),
        ]
        let openings = [
            FeedOpening(date: "2026-10-20", meal: "Lunch", opens: "11:00am", closes: "2:00pm", isClosed: false, note: nil),
            FeedOpening(date: "2026-10-20", meal: "Late Night", opens: "9:00pm", closes: "12:00am", isClosed: false, note: nil),
            FeedOpening(date: "2026-10-21", meal: "Lunch", opens: nil, closes: nil, isClosed: true, note: "Fall Break"),
            FeedOpening(date: "2026-10-21", meal: "Dinner", opens: nil, closes: nil, isClosed: true, note: "Fall Break"),
            FeedOpening(date: "2026-10-22", meal: "Lunch", opens: "11:00am", closes: "2:00pm", isClosed: false, note: nil),
        ]
        let food = FeedFood(id: "x:1", servingSize: "1 cup", basis: "serving", servingGrams: nil, caloriesPerServing: 212.4,
                            terms: [FeedTerm(name: "vegan", kind: "diet", label: "Vegan", presence: "contains"),
                                    FeedTerm(name: "tree_nuts", kind: "allergen", label: "Tree nuts", presence: "contains"),
                                    FeedTerm(name: "peanuts", kind: "allergen", label: "Peanuts", presence: "may_contain")],
                            nutrients: [FeedNutrient(key: "sodium", name: "Sodium", amount: 310, unit: "mg", printedAmount: nil,
                                                     printedDailyValuePercent: 13)])
        let feed = RestaurantFeed(restaurant: restaurant, slug: "stav-hall-grill-st-olaf",
                                  days: FeedDay.days(items: items, openings: openings))
        return FeedSet(facts: FeedSnapshotFacts(pipeline: "test", runID: "r1", builtAt: "2026-10-19T02:15:00.123Z"),
                       restaurants: [feed], foods: ["x:1": food])
    }

    static func written(_ set: FeedSet = set()) throws -> URL {
        let folder = try Paths.temporaryFolder("rendered")
        for (path, data) in try FeedWriter.render(set, stamp: "20261019T021500Z") {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
        }
        return folder
    }

    @Test func aClosedDaySaysWhyAndADayWithoutAMenuIsLeftOut() throws {
        let folder = try Self.written()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try FeedValidation.openMensaProblems(in: folder) == [])
        let xml = try String(contentsOf: folder.appendingPathComponent("stav-hall-grill-st-olaf.xml"), encoding: .utf8)
        #expect(xml.contains("<day date=\"2026-10-21\">\n      <closed/>\n    </day>"))
        #expect(!xml.contains("2026-10-22"))
        // No weekly times from one week: each weekday is seen once, and Wednesday's closing is
        // Fall Break's.
        #expect(!xml.contains("<times"))
        #expect(xml.contains("<name>Stav Hall &amp; &lt;Grill&gt; (St. Olaf)</name>"))
        #expect(xml.contains("<location latitude=\"44.4619\" longitude=\"-93.1836\"/>"))
        #expect(xml.contains("<note>Vegan</note>") && xml.contains("<note>Allergen: Tree nuts</note>")
                && xml.contains("<note>212 kcal per serving</note>"))
        // A cross-contact warning is never told as an allergen the dish holds.
        #expect(xml.contains("<note>May contain: Peanuts</note>") && !xml.contains("Allergen: Peanuts"))
        let events = try #require(try FeedValidation.calendars(in: folder)["stav-hall-grill-st-olaf.ics"])
        let closed = try #require(events.first { $0.start == "2026-10-21" })
        #expect(closed.description == "Fall Break" && closed.transparent)
        let day = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(
            "stav-hall-grill-st-olaf/2026-10-21.json"))) as? [String: Any]
        #expect(day?["closed"] as? Bool == true && day?["closed_reason"] as? String == "Fall Break")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("stav-hall-grill-st-olaf/2026-10-22.json").path))
    }

    /// Weekly times are a rule the dated hours show: a weekday seen twice alike, closed twice
    /// without a reason, but not one whose closing has a reason, that varies, or is seen once.
    @Test func weeklyTimesNeedTwoDaysAlikeAndNoHoliday() {
        func open(_ date: String, _ opens: String = "11:00am", _ closes: String = "2:00pm") -> FeedOpening {
            FeedOpening(date: date, meal: "Lunch", opens: opens, closes: closes, isClosed: false, note: nil)
        }
        func closed(_ date: String, because note: String? = nil) -> FeedOpening {
            FeedOpening(date: date, meal: "Lunch", opens: nil, closes: nil, isClosed: true, note: note)
        }
        // Mondays 19 and 26 differ; Tuesdays 20 and 27 agree; Wednesday 21 is Fall Break and 28
        // open; Thursdays 22 and 29 are closed without a reason; Friday 23 is seen once.
        let served = ["2026-10-19", "2026-10-26", "2026-10-20", "2026-10-27", "2026-10-28", "2026-10-23"]
        let items = served.map { FeedItem(date: $0, meal: "Lunch", section: "Grill", name: "Soup", foodID: "x:1", description: nil) }
        let openings = [open("2026-10-19"), open("2026-10-26", "11:00am", "3:00pm"), open("2026-10-20"), open("2026-10-27"),
                        closed("2026-10-21", because: "Fall Break"), open("2026-10-28"), closed("2026-10-22"),
                        closed("2026-10-29"), open("2026-10-23")]
        let lines = WeeklyTimes.elements(of: FeedDay.days(items: items, openings: openings))
        #expect(lines == ["    <times type=\"opening\">", "      <tuesday open=\"11:00-14:00\"/>",
                          "      <thursday closed=\"true\"/>", "    </times>"])
    }

    @Test func mealsAreTimedInTheRestaurantsZoneAndALongNameIsShortened() throws {
        let folder = try Self.written()
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = try #require(try FeedValidation.calendars(in: folder)["stav-hall-grill-st-olaf.ics"])
        let lunch = try #require(events.first { $0.summary.hasPrefix("Lunch") })
        #expect(lunch.start == "2026-10-20T11:00:00-05:00" && lunch.end == "2026-10-20T14:00:00-05:00")
        #expect(lunch.timeZone == "America/Chicago")
        // The zone's own block: Chicago's 2026 changes, each at its local start.
        let ics = try String(contentsOf: folder.appendingPathComponent("stav-hall-grill-st-olaf.ics"), encoding: .utf8)
        #expect(ics.contains("BEGIN:VTIMEZONE\r\nTZID:America/Chicago\r\n"))
        #expect(ics.contains("BEGIN:STANDARD\r\nDTSTART:20261101T020000\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0600\r\n"))
        #expect(ics.contains("BEGIN:DAYLIGHT\r\nDTSTART:20260308T020000\r\nTZOFFSETFROM:-0600\r\nTZOFFSETTO:-0500\r\n"))
        #expect(lunch.description == "Grill\n- \(Self.longName) (Vegan)")
        let late = try #require(events.first { $0.summary.hasPrefix("Late Night") })
        #expect(late.end == "2026-10-21T00:00:00-05:00")
        #expect(late.description == "Pizza; Pasta\n- Pizza, \"cheese\"")
        let xml = try String(contentsOf: folder.appendingPathComponent("stav-hall-grill-st-olaf.xml"), encoding: .utf8)
        let shortened = String(XMLText.limited(Self.longName))
        #expect(shortened.unicodeScalars.count == 250 && xml.contains("<name>\(shortened)</name>"))
        #expect(xml.contains("<category name=\"Late Night: Pizza; Pasta\">"))
    }

    /// A meal the source says is closed that day, its menu listed all the same, is said to be
    /// closed, with its reason, in the calendar and in OpenMensa's categories (it used to be
    /// "time not published"); a closure within an open meal is in its event's description (it
    /// used to reach the JSON alone).
    @Test func aClosedMealAndAClosureWithinAMealAreSaid() throws {
        let restaurant = FeedRestaurant(id: 3, name: "De Neve", campus: "UCLA", place: nil)
        let items = [
            FeedItem(date: "2026-10-11", meal: "Brunch", section: "Grill", name: "Omelet", foodID: "x:1", description: nil),
            FeedItem(date: "2026-10-11", meal: "Dinner", section: "Grill", name: "Tacos", foodID: "x:2", description: nil),
        ]
        let openings = [
            FeedOpening(date: "2026-10-11", meal: "Lunch", opens: "10:00am", closes: "3:00pm", isClosed: false,
                        note: "Brunch; Closed 1:30-2:00PM"),
            FeedOpening(date: "2026-10-11", meal: "Dinner", opens: nil, closes: nil, isClosed: true, note: "Staff event"),
        ]
        let feed = RestaurantFeed(restaurant: restaurant, slug: "de-neve-ucla", days: FeedDay.days(items: items, openings: openings))
        let folder = try Self.written(FeedSet(facts: FeedSnapshotFacts(pipeline: "test", runID: "r1", builtAt: "2026-10-19T02:15:00Z"),
                                              restaurants: [feed], foods: [:]))
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = try #require(try FeedValidation.calendars(in: folder)["de-neve-ucla.ics"])
        let brunch = try #require(events.first { $0.summary.hasPrefix("Brunch") })
        #expect(brunch.summary == "Brunch at De Neve (UCLA)" && brunch.start == "2026-10-11T10:00:00")
        #expect(brunch.description == "Closed 1:30-2:00PM\n\nGrill\n- Omelet")
        let dinner = try #require(events.first { $0.summary.hasPrefix("Dinner") })
        #expect(dinner.summary == "Dinner at De Neve (UCLA) (closed, as the source says)")
        #expect(dinner.description == "Staff event\n\nGrill\n- Tacos" && dinner.start == "2026-10-11" && dinner.transparent)
        #expect(try FeedValidation.openMensaProblems(in: folder) == [])
        let xml = try String(contentsOf: folder.appendingPathComponent("de-neve-ucla.xml"), encoding: .utf8)
        #expect(xml.contains("<category name=\"Dinner (closed): Grill\">") && xml.contains("<category name=\"Brunch: Grill\">"))
    }

    /// A day the source says is closed all day (a closed day, with its reason) while its menu is
    /// listed: each meal is said closed, with the day's reason, as a closed meal is; nothing is
    /// timed, and the menu is published as listed.
    @Test func aClosedDayWhoseMenuIsListedClosesEachMeal() throws {
        let restaurant = FeedRestaurant(id: 3, name: "De Neve", campus: "UCLA", place: nil)
        let items = [
            FeedItem(date: "2026-10-12", meal: "Lunch", section: "Grill", name: "Omelet", foodID: "x:1", description: nil),
            FeedItem(date: "2026-10-12", meal: "Dinner", section: "Grill", name: "Tacos", foodID: "x:2", description: nil),
        ]
        let openings = [FeedOpening(date: "2026-10-12", meal: HoursEntry.closedDayMeal, opens: nil, closes: nil,
                                    isClosed: true, note: "Fall Break")]
        let days = FeedDay.days(items: items, openings: openings)
        #expect(days.count == 1 && days[0].isClosed == false)
        #expect(days[0].meals.map { [$0.name, $0.closure?.note ?? "-"] + $0.remarks } == [["Lunch", "Fall Break", "Fall Break"],
                                                                                         ["Dinner", "Fall Break", "Fall Break"]])
        #expect(days[0].meals.allSatisfy { $0.opening == nil })
        let feed = RestaurantFeed(restaurant: restaurant, slug: "de-neve-ucla", days: days)
        let folder = try Self.written(FeedSet(facts: FeedSnapshotFacts(pipeline: "test", runID: "r1", builtAt: "2026-10-19T02:15:00Z"),
                                              restaurants: [feed], foods: [:]))
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = try #require(try FeedValidation.calendars(in: folder)["de-neve-ucla.ics"])
        #expect(events.map(\.summary).sorted() == ["Dinner at De Neve (UCLA) (closed, as the source says)",
                                                   "Lunch at De Neve (UCLA) (closed, as the source says)"])
        #expect(events.allSatisfy { $0.start == "2026-10-12" && $0.transparent && $0.description.hasPrefix("Fall Break\n\n") })
        #expect(try FeedValidation.openMensaProblems(in: folder) == [])
        let xml = try String(contentsOf: folder.appendingPathComponent("de-neve-ucla.xml"), encoding: .utf8)
        #expect(xml.contains("<category name=\"Lunch (closed): Grill\">") && xml.contains("<category name=\"Dinner (closed): Grill\">"))
    }

    /// The validators are no rubber stamps: a name over 250 characters, and a calendar line over
    /// 75 octets, are refused.
    @Test func theValidatorsRefuseWhatTheFormatsForbid() throws {
        let folder = try Paths.temporaryFolder("refused")
        defer { try? FileManager.default.removeItem(at: folder) }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <openmensa version="2.1" xmlns="http://openmensa.org/open-mensa-v2"><canteen><day date="2026-10-20">\
            <category name="Grill"><meal><name>\(String(repeating: "x", count: 251))</name></meal></category></day>\
            </canteen></openmensa>
            """
        try Data(xml.utf8).write(to: folder.appendingPathComponent("long.xml"))
        #expect(try FeedValidation.openMensaProblems(in: folder).count == 1)
        let ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nX-LONG:\(String(repeating: "y", count: 80))\r\nEND:VCALENDAR\r\n"
        try Data(ics.utf8).write(to: folder.appendingPathComponent("long.ics"))
        #expect(throws: FeedValidation.ValidationFailure.self) { try FeedValidation.calendars(in: folder) }
    }
}
