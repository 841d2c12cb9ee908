import Feeds
import FoodModel
import Foundation
import Logging
import Pipeline
import Snapshot
import Testing
import TestSupport

/// `publish: feeds: true` on real sources: the seven saved nights of UCLA's live feed and a
/// Bon Appétit day (St. Olaf, with a closed day after it). Every feed validates (libxml2 against
/// OpenMensa's XSD, Python's `icalendar`); what they say is checked against the test's own
/// reading of the saved files.
@Suite struct FeedsPipelineTests {
    private func feeds(of report: RunReport) throws -> URL {
        URL(fileURLWithPath: try #require(report.snapshotPath) + SnapshotStore.feedsSuffix)
    }

    private func run(_ spec: PipelineSpec, workspace: URL, today: ServiceDate) async throws -> RunReport {
        try await PipelineRunner(
            spec: spec, options: RunOptions(workspace: Workspace(root: workspace), today: today),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
    }

    /// (meal, section, item) of every item of a day file.
    private func served(_ file: URL) throws -> Set<[String]> {
        let day = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var triples: Set<[String]> = []
        for meal in day["meals"] as? [[String: Any]] ?? [] {
            for section in meal["sections"] as? [[String: Any]] ?? [] {
                for item in section["items"] as? [[String: Any]] ?? [] {
                    triples.insert([meal["name"] as? String ?? "", section["name"] as? String ?? "", item["name"] as? String ?? ""])
                }
            }
        }
        return triples
    }

    /// Night after night: valid feeds, every item the day files list under the restaurant, and
    /// the events of a date two nights both publish keep their UIDs.
    @Test func sevenRealUCLANightsPublishValidFeedsWhoseEventsKeepTheirUIDs() async throws {
        let nightly = try UCLAJamixNightly(adding: "\npublish:\n  feeds: true\n")
        defer { nightly.close() }
        var previous: [String: String] = [:]
        for night in UCLAJamixNights.nights {
            nightly.feed.nightBox.set(night)
            let report = try await run(nightly.spec, workspace: nightly.workspace, today: night)
            try #require(report.published, "night \(night)")
            let folder = try feeds(of: report)
            #expect(try FeedValidation.openMensaProblems(in: folder) == [], "night \(night)")
            var uids: [String: String] = [:]
            for (file, events) in try FeedValidation.calendars(in: folder) {
                for event in events { uids["\(file) \(event.summary) \(event.start)"] = event.uid }
            }
            let shared = Set(uids.keys).intersection(previous.keys)
            #expect(night == UCLAJamixNights.nights[0] || !shared.isEmpty, "night \(night)")
            #expect(shared.filter { uids[$0] != previous[$0] }.isEmpty, "night \(night)")
            previous = uids

            let index = try #require(FeedIndex.read(in: folder))
            let date = try #require(UCLAJamixNights.dates(of: night).first)
            for entry in index.restaurants where entry.dates.contains("\(date)") {
                // The feed's store names are the places file's aliases ("De Neve Dining").
                let expected = Set(try UCLAJamixNights.rows(night: night, date: date)
                    .filter { (nightly.spec.places?.canonicalName(of: $0.store) ?? $0.store) == entry.name }
                    .map { [$0.meal, $0.station, $0.name] })
                let found = try served(folder.appendingPathComponent("\(entry.slug)/\(date).json"))
                #expect(!expected.isEmpty && expected.isSubset(of: found), "\(entry.name) \(date): \(expected.subtracting(found).prefix(3))")
            }
        }
    }

    /// St. Olaf's real answer for 2016-11-22 and the next day with no daypart (closed): Stav
    /// Hall's lunch is 10:30 to 14:00 in the file, its soup station serves tomato basil; the
    /// closed day is `<closed/>` in OpenMensa and an all-day event saying why.
    @Test func aBonAppetitDayAndAClosedOneMakeValidFeeds() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let open = try CampusesPipelineTests.answer(date: "2016-11-22")
        let closed = try CampusesPipelineTests.answer(date: "2016-11-23", closed: true)
        let server = try TestHTTPServer { request, _ in
            let body = request.path == CampusesPipelineTests.menusPath + "2016-11-22" ? open
                : request.path == CampusesPipelineTests.menusPath + "2016-11-23" ? closed : nil
            return body.map { Reply(headers: [("Content-Type", "application/json")], body: $0, keepAlive: true) }
                ?? Reply(status: 404, keepAlive: true)
        }
        defer { server.stop() }
        let yaml = CampusesPipelineTests.stolafPipeline(server)
            .replacingOccurrences(of: "to: 2016-11-22}", with: "to: 2016-11-23}") + "\npublish:\n  feeds: true\n"
        let spec = try SpecReader.parse(yaml, file: workspace.appendingPathComponent("stolaf.yml"))
        let report = try await run(spec, workspace: workspace, today: try #require(ServiceDate("2016-11-22")))
        try #require(report.published)
        let folder = try feeds(of: report)
        #expect(try FeedValidation.openMensaProblems(in: folder) == [])
        let events = try #require(try FeedValidation.calendars(in: folder)["stav-hall.ics"])
        let lunch = try #require(events.first { $0.summary == "Lunch at Stav Hall" })
        #expect(lunch.start == "2016-11-22T10:30:00" && lunch.end == "2016-11-22T14:00:00")
        #expect(lunch.description.contains("\n- tomato basil"), "\(lunch.description)")
        let shut = try #require(events.first { $0.start == "2016-11-23" })
        #expect(shut.summary == "Stav Hall closed" && shut.description == "no dayparts published for the day")
        let xml = try String(contentsOf: folder.appendingPathComponent("stav-hall.xml"), encoding: .utf8)
        #expect(xml.contains("<name>Stav Hall</name>") && xml.contains("<day date=\"2016-11-23\">\n      <closed/>\n    </day>"))
        #expect(try served(folder.appendingPathComponent("stav-hall/2016-11-22.json")).contains(["Lunch", "soup", "tomato basil"]))
    }

    /// Feeds asked for after a night was published are written by the next run, which finds its
    /// inputs unchanged, and its report page written again to link them; one that cannot write them (a file stands where their folder goes) still
    /// serves the snapshot and ends saying what was lost, with status 5.
    @Test func feedsThatCannotBeWrittenAreALostOutputAndTheNextRunWritesThem() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, _) = try SampleCopy.make(in: workspace)
        let arguments = ["run", spec.path, "--workspace", workspace.path, "--quiet"]
        let first = try await CommissaryProcess.run(arguments)
        try #require(first.status == 0, "\(first.error)")
        let store = SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))
        let snapshot = try #require(store.latest(pipeline: "sample"))
        let folder = URL(fileURLWithPath: snapshot.path + SnapshotStore.feedsSuffix)
        #expect(!FileManager.default.fileExists(atPath: folder.path))

        try Data((try String(contentsOf: spec, encoding: .utf8) + "\npublish:\n  feeds: true\n").utf8).write(to: spec)
        try Data("not a feed folder".utf8).write(to: folder)
        let blocked = try await CommissaryProcess.run(arguments)
        #expect(blocked.status == 5 && blocked.error.contains("feeds could not be written"), "\(blocked.error)")
        #expect(store.latest(pipeline: "sample") == snapshot)

        try FileManager.default.removeItem(at: folder)
        let caughtUp = try await CommissaryProcess.run(arguments)
        #expect(caughtUp.status == 0, "\(caughtUp.error)")
        #expect(store.latest(pipeline: "sample") == snapshot)
        #expect(try FeedValidation.openMensaProblems(in: folder) == [])
        #expect(FeedIndex.read(in: folder)?.restaurants.count == 3)
        let page = try String(contentsOf: URL(fileURLWithPath: snapshot.path + SnapshotStore.reportSuffix), encoding: .utf8)
        #expect(page.contains("href=\"\(folder.lastPathComponent)/index.json\""))
    }
}
