import Feeds
import FoodModel
import Foundation
import GRDB
import Logging
import Pipeline
import Report
import Snapshot
import Testing
import TestSupport

/// The sample pipeline with `publish: feeds: true`: every feed beside the snapshot validates
/// (libxml2 against OpenMensa's XSD, Python's `icalendar`), says what the sample's pages print,
/// is what `commissary feeds` writes, keeps its UIDs when the night is published again, and
/// goes with its snapshot under retention.
@Suite struct SampleFeedsTests {
    /// A name printed on the copied menu page, over OpenMensa's 250 characters.
    static let longName = "Buttermilk Pancakes " + String(repeating: "with maple syrup, whipped butter and berries ", count: 7)

    private func publish(_ spec: URL, in workspace: URL, force: Bool = false) async throws -> URL {
        let report = try await PipelineRunner(
            spec: try SpecReader.read(spec),
            options: RunOptions(workspace: Workspace(root: workspace), today: try #require(ServiceDate("2026-10-12")),
                                force: force),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        #expect(report.published)
        return URL(fileURLWithPath: try #require(report.snapshotPath))
    }

    private func feeds(of snapshot: URL) -> URL {
        URL(fileURLWithPath: snapshot.path + SnapshotStore.feedsSuffix)
    }

    @Test func everyFeedOfTheSampleValidatesAndSaysWhatItsPagesPrint() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, site) = try SampleCopy.make(in: workspace, adding: "\npublish:\n  feeds: true\n")
        let page = site.appendingPathComponent("Menus/2026-10-11.html")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains(">Buttermilk Pancakes</a>"))
        try Data(html.replacingOccurrences(of: ">Buttermilk Pancakes</a>", with: ">\(Self.longName)</a>").utf8).write(to: page)
        let snapshot = try await publish(spec, in: workspace)
        let folder = feeds(of: snapshot)

        #expect(try FeedValidation.openMensaProblems(in: folder) == [])
        let calendars = try FeedValidation.calendars(in: folder)
        let meals = try QueryResult.run("SELECT count(*) FROM (SELECT DISTINCT restaurant, date, meal FROM v_menu)",
                                        on: snapshot).rows
        #expect(meals == [[.integer(Int64(calendars.values.map(\.count).reduce(0, +)))]])
        #expect(calendars.keys.sorted() == ["bruin-plate-ucla.ics", "de-neve-ucla.ics", "epicuria-at-covel-ucla.ics"])

        // Hours.html: De Neve, Saturday October 10, LUNCH "10:00am - 3:00pm (Brunch)"; the menu page
        // of that day: De Neve's Grill serves "Tofu Scramble w/ Peppers &amp; Onions", Vegan.
        let brunch = try #require(calendars["de-neve-ucla.ics"]?.first { $0.start == "2026-10-10T10:00:00" })
        #expect(brunch.summary == "Brunch at De Neve (UCLA)" && brunch.end == "2026-10-10T15:00:00" && brunch.timeZone == nil)
        #expect(brunch.description.contains("Grill\n- Tofu Scramble w/ Peppers & Onions (Vegan, Low carbon footprint)"))
        let xml = try String(contentsOf: folder.appendingPathComponent("de-neve-ucla.xml"), encoding: .utf8)
        #expect(xml.contains("<name>De Neve (UCLA)</name>"))
        #expect(xml.contains("<category name=\"Brunch: Grill\">\n        <meal>\n          <name>Tofu Scramble w/ Peppers &amp; Onions</name>\n          <note>Vegan</note>"))
        let day = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("de-neve-ucla/2026-10-10.json")))
        let firstMeal = try #require(((day as? [String: Any])?["meals"] as? [[String: Any]])?.first)
        #expect(firstMeal["name"] as? String == "Brunch" && firstMeal["opens"] as? String == "10:00" && firstMeal["closes"] as? String == "15:00")

        // The long name, shortened to 250 characters with an ellipsis in the XML, whole in the JSON.
        let sunday = try String(contentsOf: folder.appendingPathComponent("de-neve-ucla.xml"), encoding: .utf8)
            + String(contentsOf: folder.appendingPathComponent("bruin-plate-ucla.xml"), encoding: .utf8)
            + String(contentsOf: folder.appendingPathComponent("epicuria-at-covel-ucla.xml"), encoding: .utf8)
        let shortened = try #require(sunday.components(separatedBy: "<name>Buttermilk Pancakes with").dropFirst().first)
        let name = "Buttermilk Pancakes with" + shortened.prefix { $0 != "<" }
        #expect(name.unicodeScalars.count == 250 && name.hasSuffix("…"))
        let jsonText = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix("2026-10-11.json") }
            .map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }.joined()
        #expect(jsonText.contains(Self.longName.trimmingCharacters(in: .whitespaces)))

        // The report page beside the snapshot links them.
        let report = try String(contentsOf: URL(fileURLWithPath: snapshot.path + SnapshotStore.reportSuffix), encoding: .utf8)
        #expect(report.contains("href=\"\(snapshot.lastPathComponent).feeds/de-neve-ucla.ics\""))
    }

    @Test func theCommandWritesWhatThePipelinePublishesAndUIDsHoldAcrossNights() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, _) = try SampleCopy.make(in: workspace, adding: "\npublish:\n  feeds: true\nretention:\n  keep_last: 1\n")
        let first = try await publish(spec, in: workspace)
        let out = workspace.appendingPathComponent("out/feeds")
        let command = try await CommissaryProcess.run(["feeds", first.path, "--out", out.path])
        #expect(command.status == 0, "\(command.error)")
        #expect(command.output.hasPrefix("Wrote "))
        for path in try FileManager.default.subpathsOfDirectory(atPath: feeds(of: first).path).sorted() {
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: feeds(of: first).appendingPathComponent(path).path, isDirectory: &isFolder)
            if isFolder.boolValue { continue }
            #expect(try Data(contentsOf: out.appendingPathComponent(path)) == Data(contentsOf: feeds(of: first).appendingPathComponent(path)),
                    "\(path)")
        }
        // Written again over itself: replaced whole; over a folder that is not a feed folder: refused.
        #expect(try await CommissaryProcess.run(["feeds", first.path, "--out", out.path]).status == 0)
        let refused = try await CommissaryProcess.run(["feeds", first.path, "--out", workspace.appendingPathComponent("Pipelines").path])
        #expect(refused.status == 1 && refused.error.contains("is not a feed folder"), "\(refused.error)")

        let uids = try FeedValidation.calendars(in: feeds(of: first)).mapValues { Set($0.map(\.uid)) }
        let second = try await publish(spec, in: workspace, force: true)
        #expect(second != first)
        #expect(try FeedValidation.calendars(in: feeds(of: second)).mapValues { Set($0.map(\.uid)) } == uids)
        // Retention (keep_last: 1) took the first snapshot's feeds with it.
        #expect(!FileManager.default.fileExists(atPath: first.path))
        #expect(!FileManager.default.fileExists(atPath: feeds(of: first).path))
    }

    /// The page of a snapshot without feeds is the page it always was: only the feeds' section
    /// and its link differ.
    @Test func thePageWithoutFeedsIsUnchanged() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, _) = try SampleCopy.make(in: workspace, adding: "\npublish:\n  feeds: true\n")
        let snapshot = try await publish(spec, in: workspace)
        let with = try ReportPage.html(for: snapshot, previous: nil)
        try FileManager.default.moveItem(at: feeds(of: snapshot), to: workspace.appendingPathComponent("aside"))
        let without = try ReportPage.html(for: snapshot, previous: nil)
        #expect(!without.contains("feeds"))
        let section = try #require(with.range(of: "\n<section id=\"feeds\">")
            .flatMap { start in with.range(of: "</section>", range: start.upperBound..<with.endIndex).map { start.lowerBound..<$0.upperBound } })
        let stripped = with.replacingCharacters(in: section, with: "").replacingOccurrences(of: " <a href=\"#feeds\">Open feeds</a>", with: "")
        #expect(stripped == without)
    }

    /// A place with a `time_zone` (schema 21; set here in a copy of the sample's snapshot, whose
    /// places file names none) times its meals in that zone; a place without one, in floating
    /// local time.
    @Test func aPlacesTimeZoneTimesTheMealsInIt() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, _) = try SampleCopy.make(in: workspace)
        let published = try await publish(spec, in: workspace)
        let copy = workspace.appendingPathComponent("zoned.sqlite")
        try FileManager.default.copyItem(at: published, to: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
        try await DatabaseQueue(path: copy.path).write { db in
            try db.execute(sql: "UPDATE place SET time_zone = 'America/Los_Angeles' WHERE name = 'De Neve'")
        }
        let folder = workspace.appendingPathComponent("feeds")
        _ = try FeedWriter.write(copy, to: folder)
        let calendars = try FeedValidation.calendars(in: folder)
        let brunch = try #require(calendars["de-neve-ucla.ics"]?.first { $0.summary.hasPrefix("Brunch") })
        #expect(brunch.timeZone == "America/Los_Angeles" && brunch.start == "2026-10-10T10:00:00-07:00")
        #expect(calendars["bruin-plate-ucla.ics"]?.allSatisfy { $0.timeZone == nil } == true)
        let day = try String(contentsOf: folder.appendingPathComponent("de-neve-ucla/2026-10-10.json"), encoding: .utf8)
        #expect(day.contains("\"time_zone\":\"America/Los_Angeles\""))
    }

    /// De Neve's Saturday brunch (Hours.html: its Lunch cell, "10:00am - 3:00pm (Brunch)") with
    /// a second remark in its cell, as the page prints on weekday lunches ("(Closed 1:30-2:00PM
    /// )"): the brunch keeps its time, 10:00 to 15:00, in the calendar and in the day's JSON.
    @Test func aBrunchWhoseCellHasASecondRemarkKeepsItsTime() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, site) = try SampleCopy.make(in: workspace, adding: "\npublish:\n  feeds: true\n")
        let hours = site.appendingPathComponent("Hours.html")
        var html = try String(contentsOf: hours, encoding: .utf8)
        let row = try #require(html.range(of: "<strong>\n                                      De Neve"))
        let brunch = try #require(html.range(of: "(Brunch)\n                                                  </span>",
                                             range: row.upperBound..<html.endIndex))
        html.insert(contentsOf: "<span class=\"epi-font1\">(Closed 1:30-2:00PM )</span>", at: brunch.upperBound)
        try Data(html.utf8).write(to: hours)
        let snapshot = try await publish(spec, in: workspace)
        let notes = try QueryResult.run("""
            SELECT note FROM hours WHERE restaurant = 'De Neve' AND date = '2026-10-10' AND meal = 'Lunch'
            """, on: snapshot).rows
        #expect(notes == [[.text("Brunch; Closed 1:30-2:00PM")]])

        let folder = feeds(of: snapshot)
        let calendars = try FeedValidation.calendars(in: folder)
        let event = try #require(calendars["de-neve-ucla.ics"]?.first { $0.summary.hasPrefix("Brunch") })
        #expect(event.start == "2026-10-10T10:00:00" && event.end == "2026-10-10T15:00:00", "\(event)")
        let day = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("de-neve-ucla/2026-10-10.json")))
        let meal = try #require(((day as? [String: Any])?["meals"] as? [[String: Any]])?.first)
        #expect(meal["name"] as? String == "Brunch" && meal["opens"] as? String == "10:00" && meal["closes"] as? String == "15:00")
    }
}
