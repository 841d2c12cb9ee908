import FoodModel
import Foundation
import Logging
import Pipeline
import Snapshot
import Testing
import TestSupport

/// Three platforms of three campuses in one pipeline, served from 127.0.0.1: a night of UCLA's
/// live feed, a Nutrislice week (UW–Madison) and the real Bon Appétit answer (St. Olaf), with a
/// second St. Olaf café and the Nutrislice location both named "Commons". Expected counts are
/// read from the files by this test's own walk of the JSON.
@Suite struct CampusesPipelineTests {
    static let stOlaf = Paths.sharedData.appendingPathComponent("bonappetit-2016/261-stav-2016-11-22.json")
    static let uclaNight = ServiceDate("2025-04-10")!
    static let menusPath = "/api/2/menus?cafe=261,262&date="

    /// The real answer, with café 262 added as a copy of Stav Hall named "Commons"; `date` moved.
    static func answer(date: String, closed: Bool = false) throws -> Data {
        var top = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: stOlaf)) as? [String: Any])
        var days = try #require(top["days"] as? [[String: Any]])
        var cafes = try #require(days[0]["cafes"] as? [String: Any])
        var stav = try #require(cafes["261"] as? [String: Any])
        if closed { stav["dayparts"] = [[Any]]() }
        var commons = stav
        commons["name"] = "Commons"
        cafes = ["261": stav, "262": commons]
        days[0]["cafes"] = cafes
        days[0]["date"] = date
        top["days"] = days
        return try JSONSerialization.data(withJSONObject: top)
    }

    /// The items the real answer's dayparts list (those printing `icon`, if given), counted from the file.
    /// St. Olaf's cafés 261 and 262 on 2016-11-22 from `server`, fetched without waits or retries;
    /// `places` names a places file beside the pipeline. No St. Olaf cafés answer is saved, so the
    /// hours are the menus' dayparts (`cafes_answer: false`).
    static func stolafPipeline(_ server: TestHTTPServer, places: String? = nil) -> String {
        """
        pipeline: stolaf
        licence: test
        \(places.map { "places: \($0)" } ?? "")
        sources:
          - name: stolaf
            adapter: bonappetit
            location: \(server.url(""))
            cafes: [261, 262]
            cafes_answer: false
            dates: {from: 2016-11-22, to: 2016-11-22}
        checks:
          min_menu_items: 1
        fetch: {delay_ms: 0, retries: 0, timeout_seconds: 10}
        """
    }

    static func stavItems(icon: String? = nil) throws -> Int {
        let top = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: stOlaf)) as? [String: Any])
        let day = try #require((top["days"] as? [[String: Any]])?.first)
        let cafe = try #require((day["cafes"] as? [String: Any])?["261"] as? [String: Any])
        let dayparts = (cafe["dayparts"] as? [[[String: Any]]] ?? []).flatMap { $0 }
        let items = top["items"] as? [String: [String: Any]] ?? [:]
        let listed = dayparts.flatMap { $0["stations"] as? [[String: Any]] ?? [] }.flatMap { $0["items"] as? [String] ?? [] }
        guard let icon else { return listed.count }
        return listed.filter { ((items[$0]?["cor_icon"] as? [String: String]) ?? [:]).values.contains(icon) }.count
    }

    private func json(_ body: Data) -> Reply {
        Reply(headers: [("Content-Type", "application/json")], body: body, keepAlive: true)
    }

    private func rows(_ sql: String, _ report: RunReport) throws -> [[SQLValue]] {
        try QueryResult.run(sql, on: URL(fileURLWithPath: try #require(report.snapshotPath))).rows
    }

    private func run(_ yaml: String, workspace: URL) async throws -> RunReport {
        let spec = try SpecReader.parse(yaml, file: workspace.appendingPathComponent("campuses.yml"))
        return try await PipelineRunner(
            spec: spec, options: RunOptions(workspace: Workspace(root: workspace), today: Self.uclaNight),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
    }

    @Test func threeCampusesInOneSnapshotKeepTwoCommonsApart() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let feed = try UCLAJamixFeedServer()
        defer { feed.server.stop() }
        feed.nightBox.set(Self.uclaNight)
        let week = try VendorPlatformsPipelineTests.week()
        let open = try Self.answer(date: "2016-11-22")
        let closed = try Self.answer(date: "2016-11-23", closed: true)
        let server = try TestHTTPServer { request, _ in
            switch request.path {
            case VendorPlatformsPipelineTests.weekPath: json(week)
            case Self.menusPath + "2016-11-22": json(open)
            case Self.menusPath + "2016-11-23": json(closed)
            default: Reply(status: 404, keepAlive: true)
            }
        }
        defer { server.stop() }
        let yaml = """
            pipeline: campuses
            licence: test
            sources:
              - name: ucla
                adapter: ucla-jamix
                campus: UCLA
                location: \(feed.server.url(""))
                food_documents: false
                dates: {from: \(Self.uclaNight), to: \(Self.uclaNight)}
              - name: wisc
                adapter: nutrislice
                campus: UW–Madison
                location: \(server.url(""))
                school: lowell-market
                menu_types: [breakfast]
                restaurant: Commons
                dates: {from: 2026-03-23, to: 2026-03-23}
              - name: stolaf
                adapter: bonappetit
                campus: St. Olaf
                location: \(server.url(""))
                cafes: [261, 262]
                cafes_answer: false
                dates: {from: 2016-11-22, to: 2016-11-23}
            checks:
              min_menu_items: 1
            fetch: {delay_ms: 0, retries: 0, timeout_seconds: 10}
            """
        let report = try await run(yaml, workspace: workspace)
        #expect(report.published, "\(report.blockingChecks.map(\.message))")
        #expect(try rows("SELECT DISTINCT campus FROM restaurant ORDER BY campus", report)
                == [[.text("St. Olaf")], [.text("UCLA")], [.text("UW–Madison")]])
        // Two restaurants named Commons, one per campus, each with its own menus.
        #expect(try rows("SELECT campus FROM restaurant WHERE name = 'Commons' ORDER BY campus", report)
                == [[.text("St. Olaf")], [.text("UW–Madison")]])
        let items = try Self.stavItems()
        #expect(try rows("""
            SELECT campus, restaurant, count(*) FROM v_menu WHERE restaurant IN ('Commons', 'Stav Hall')
            GROUP BY campus, restaurant ORDER BY campus, restaurant
            """, report) == [
            [.text("St. Olaf"), .text("Commons"), .integer(Int64(items))],
            [.text("St. Olaf"), .text("Stav Hall"), .integer(Int64(items))],
            [.text("UW–Madison"), .text("Commons"), .integer(12)],
        ])
        // A question of docs/querying.md asked per campus: items and vegan items. St. Olaf's vegan
        // items are the station entries whose item prints the vegan icon, counted in the file, in
        // both of its cafés.
        let byCampus = try rows("""
            SELECT campus, count(*), sum(is_vegan) FROM v_menu_macros GROUP BY campus ORDER BY campus
            """, report)
        #expect(byCampus.map { [$0[0], $0[1]] } == (try rows("""
            SELECT campus, count(*) FROM v_menu GROUP BY campus ORDER BY campus
            """, report)))
        #expect(byCampus.first == [.text("St. Olaf"), .integer(Int64(2 * items)), .integer(Int64(2 * (try Self.stavItems(icon: "vegan"))))])
        // The report page reads campus by campus: each Commons is a row of its own.
        let page = try String(contentsOfFile: try #require(report.snapshotPath) + ".report.html", encoding: .utf8)
        #expect(page.contains("<td>Commons (St. Olaf)</td>") && page.contains("<td>Commons (UW–Madison)</td>"))
        // The closed day: no St. Olaf meals on 2016-11-23, and hours that say closed.
        #expect(try rows("SELECT count(*) FROM v_menu WHERE date = '2016-11-23'", report) == [[.integer(0)]])
        #expect(try rows("""
            SELECT restaurant, is_closed FROM hours WHERE date = '2016-11-23' ORDER BY restaurant
            """, report) == [[.text("Commons"), .integer(1)], [.text("Stav Hall"), .integer(1)]])
        #expect(try rows("""
            SELECT meal, opens, closes FROM hours WHERE date = '2016-11-22' AND restaurant = 'Stav Hall' ORDER BY opens
            """, report) == [
            [.text("Breakfast"), .text("07:00"), .text("09:45")],
            [.text("Lunch"), .text("10:30"), .text("14:00")],
            [.text("Dinner"), .text("16:30"), .text("19:30")],
        ])
    }

    /// A Bon Appétit day that answers 404, then one cut short: each keeps its last good version,
    /// marked stale and naming the address, as the other platforms' days do.
    @Test func aMissingOrTruncatedAnswerKeepsTheLastGoodDay() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let open = try Self.answer(date: "2016-11-22")
        let mode = VendorPlatformsPipelineTests.BrokenSwitch()
        let truncated = VendorPlatformsPipelineTests.BrokenSwitch()
        let server = try TestHTTPServer { request, _ in
            guard request.path == Self.menusPath + "2016-11-22" else { return Reply(status: 404, keepAlive: true) }
            if mode.isOn { return Reply(status: 404, keepAlive: true) }
            return json(truncated.isOn ? open.prefix(open.count / 2) : open)
        }
        defer { server.stop() }
        let yaml = Self.stolafPipeline(server)
        let good = try await run(yaml, workspace: workspace)
        #expect(good.published)
        let served = try rows("SELECT count(*) FROM v_menu", good)
        #expect(served == [[.integer(Int64(2 * (try Self.stavItems())))]])
        for breakage in [mode, truncated] {
            breakage.isOn = true
            defer { breakage.isOn = false }
            let bad = try await run(yaml, workspace: workspace)
            #expect(bad.stale.count == 1, "\(bad.stale)")
            let messages = bad.manifest.partitions.compactMap(\.message).joined(separator: "\n")
            #expect(messages.contains(server.url(Self.menusPath + "2016-11-22")), "\(messages)")
            #expect(try rows("SELECT count(*) FROM v_menu", bad) == served)
        }
    }

    /// `near --open-at` on the real binary reads the cafés' hours from the dayparts: at 12:30 Stav
    /// Hall serves lunch (10:30 to 14:00 in the file), at 15:00 nothing (between lunch and dinner,
    /// 16:30). The places file's campus is the restaurant's, its source naming none.
    @Test func nearOpenAtAnswersFromTheDayparts() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let open = try Self.answer(date: "2016-11-22")
        let server = try TestHTTPServer { request, _ in
            request.path == Self.menusPath + "2016-11-22" ? json(open) : Reply(status: 404, keepAlive: true)
        }
        defer { server.stop() }
        // Test data: the hall at about St. Olaf College's place on the map.
        try """
            campus: St. Olaf
            restaurants:
              - {name: Stav Hall, kind: residential hall, latitude: 44.4622, longitude: -93.1833,
                 coordinates_source: this test}
            """.write(to: workspace.appendingPathComponent("stolaf-places.yml"), atomically: true, encoding: .utf8)
        let pipeline = workspace.appendingPathComponent("stolaf.yml")
        try Self.stolafPipeline(server, places: "stolaf-places.yml").write(to: pipeline, atomically: true, encoding: .utf8)
        let run = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", workspace.path, "--quiet"])
        try #require(run.status == 0, "\(run.error)")
        let noon = try await CommissaryProcess.run(["near", "--lat", "44.4622", "--lon", "-93.1833", "--date", "2016-11-22",
                                                    "--open-at", "12:30", "--workspace", workspace.path])
        #expect(noon.status == 0, "\(noon.error)")
        let lines = noon.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[1].hasPrefix("Stav Hall") && lines[1].hasSuffix("Lunch 10:30–14:00"), "\(noon.output)")
        let afternoon = try await CommissaryProcess.run(["near", "--lat", "44.4622", "--lon", "-93.1833", "--date",
                                                         "2016-11-22", "--open-at", "3pm", "--workspace", workspace.path])
        #expect(afternoon.output.split(separator: "\n").last?.hasSuffix("closed") == true, "\(afternoon.output)")
        let campus = try await CommissaryProcess.run(["query", "latest", "SELECT name, campus FROM restaurant ORDER BY name",
                                                      "--format", "csv", "--workspace", workspace.path])
        #expect(campus.output.replacingOccurrences(of: "\r\n", with: "\n") == "name,campus\nCommons,\nStav Hall,St. Olaf\n")
    }
}
