import FoodModel
import Foundation
import Snapshot
import Testing
import TestSupport

/// Places, meal times and closed days from where they are published, with no places file: Penn's
/// real Bon Appétit cafés answer served on 127.0.0.1 (menus for 1920 Commons made from St. Olaf's
/// real answer under Penn's café id), and a pipeline-level `hours:` file for a source that
/// publishes none (the Nutrislice week). `near --open-at` is asked of the real binary.
@Suite struct PlatformHoursPipelineTests {
    static let pennCafes = Paths.sharedData.appendingPathComponent("bonappetit-2022/penn-cafes-2022-10-08.json")
    static let cafesPath = "/api/2/cafes?cafe=593,637"
    static let menusPath = "/api/2/menus?cafe=593,637&date="

    /// St. Olaf's real menus answer, its café 261 renamed as Penn's 593 (1920 Commons), on `date`.
    /// English House (637) is in no menus answer: the cafés answer says it is closed.
    static func commonsMenus(date: String) throws -> Data {
        var top = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: CampusesPipelineTests.stOlaf))
                               as? [String: Any])
        var days = try #require(top["days"] as? [[String: Any]])
        var stav = try #require((days[0]["cafes"] as? [String: Any])?["261"] as? [String: Any])
        stav["name"] = "1920 Commons"
        days[0]["cafes"] = ["593": stav]
        days[0]["date"] = date
        top["days"] = days
        return try JSONSerialization.data(withJSONObject: top)
    }

    private static func json(_ body: Data) -> Reply {
        Reply(headers: [("Content-Type", "application/json")], body: body, keepAlive: true)
    }

    /// Runs the real binary on `pipeline` (its checks and fetch settings added), which must publish.
    private func run(_ pipeline: String, in workspace: URL) async throws {
        let file = workspace.appendingPathComponent("pipeline.yml")
        try (pipeline + """

            checks:
              min_menu_items: 1
            fetch: {delay_ms: 0, retries: 0, timeout_seconds: 10}
            """).write(to: file, atomically: true, encoding: .utf8)
        let run = try await CommissaryProcess.run(["run", file.path, "--workspace", workspace.path, "--quiet"])
        try #require(run.status == 0, "\(run.error)")
    }

    private func query(_ sql: String, _ workspace: URL) async throws -> String {
        let answer = try await CommissaryProcess.run(["query", "latest", sql, "--format", "csv", "--workspace", workspace.path])
        try #require(answer.status == 0, "\(answer.error)")
        return answer.output.replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// `near` at Penn's 1920 Commons as JSON: each place's name, time zone, open meals and reason.
    private func near(at time: String, on date: String, _ workspace: URL, clock: String? = nil) async throws
        -> [[String: Any]] {
        let zone = clock.map { ["--time-zone", $0] } ?? []
        let answer = try await CommissaryProcess.run(["near", "--lat", "39.95253", "--lon", "-75.19932", "--date", date,
                                                      "--open-at", time, "--format", "json", "--workspace", workspace.path]
                                                     + zone)
        try #require(answer.status == 0, "\(answer.error)")
        return try #require(try JSONSerialization.jsonObject(with: Data(answer.output.utf8)) as? [[String: Any]])
    }

    @Test func aBonAppetitPipelinePublishesTheCafésPlacesHoursAndClosedDays() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let cafes = try Data(contentsOf: Self.pennCafes)
        let menus = try ["2022-10-08", "2022-10-09"].map { ($0, try Self.commonsMenus(date: $0)) }
        let server = try TestHTTPServer { request, _ in
            if request.path == Self.cafesPath { return Self.json(cafes) }
            guard let menu = menus.first(where: { request.path == Self.menusPath + $0.0 }) else {
                return Reply(status: 404, keepAlive: true)
            }
            return Self.json(menu.1)
        }
        defer { server.stop() }
        try await run("""
            pipeline: penn
            licence: test
            sources:
              - name: penn
                adapter: bonappetit
                campus: Penn
                location: \(server.url(""))
                cafes: [593, 637]
                dates: {from: 2022-10-08, to: 2022-10-09}
            """, in: workspace)
        #expect(server.requests(to: Self.cafesPath).count == 1)
        // Places as the answer gives them (values read from the file by hand), with no places file.
        #expect(try await query("SELECT name, campus, address, latitude, longitude, time_zone FROM place ORDER BY name", workspace)
                == """
                name,campus,address,latitude,longitude,time_zone
                1920 Commons,Penn,"3800 Locust Walk, Philadelphia, PA 19104",39.95253,-75.19932,America/New_York
                English House,Penn,"3465 Sansom St., Philadelphia, PA 19104",39.95417,-75.1939,America/New_York

                """)
        // The closed days with their reason; 1920 Commons' two dayparts a day, and no daypart
        // times from the menus beside them.
        #expect(try await query("""
            SELECT date, restaurant, meal, opens, closes, is_closed, note FROM hours ORDER BY date, restaurant, opens
            """, workspace) == """
            date,restaurant,meal,opens,closes,is_closed,note
            2022-10-08,1920 Commons,Brunch,09:00,14:00,0,Fall Break
            2022-10-08,1920 Commons,Dinner,17:00,20:00,0,Fall Break
            2022-10-08,English House,All day,,,1,Fall Break
            2022-10-09,1920 Commons,Brunch,09:00,14:00,0,Fall Break
            2022-10-09,1920 Commons,Dinner,17:00,21:30,0,Fall Break
            2022-10-09,English House,All day,,,1,Fall Break

            """)
        let noon = try await near(at: "12:30", on: "2022-10-08", workspace)
        #expect(noon.map { $0["place"] as? String } == ["1920 Commons", "English House"])
        #expect(noon.map { $0["time_zone"] as? String } == ["America/New_York", "America/New_York"])
        // The cafés answer remarks the day's hours "Fall Break": said beside them.
        #expect(noon[0]["open_at"] as? [String] == ["Brunch 09:00–14:00 (Fall Break)"])
        #expect(noon[1]["open_at"] as? [String] == [] && noon[1]["closed_because"] as? String == "Fall Break")
        // Asked on another clock: 01:30 on the 9th in Tokyo (UTC+9) is 12:30 on the 8th in
        // Philadelphia (EDT, UTC-4), brunch there; 11:30 in Chicago is 12:30 there too.
        for (clock, date, time) in [("Asia/Tokyo", "2022-10-09", "01:30"), ("America/Chicago", "2022-10-08", "11:30")] {
            let asked = try await near(at: time, on: date, workspace, clock: clock)
            #expect(asked.first?["local_time"] as? String == "2022-10-08 12:30", "\(clock)")
            #expect(asked.first?["open_at"] as? [String] == ["Brunch 09:00–14:00 (Fall Break)"], "\(clock)")
            #expect(asked.first?["day"] as? String == "2022-10-08", "\(clock)")
            #expect(asked.first?["serving"] as? [String] == noon[0]["serving"] as? [String], "\(clock)")
        }
        // 01:30 on the 8th in Tokyo is 12:30 on the 7th in Philadelphia: what the place serves is
        // that day's, of which the snapshot has neither menus nor hours, not the 8th's.
        #expect((noon[0]["serving"] as? [String])?.isEmpty == false)
        let dayBefore = try #require(try await near(at: "01:30", on: "2022-10-08", workspace, clock: "Asia/Tokyo").first)
        #expect(dayBefore["local_time"] as? String == "2022-10-07 12:30")
        #expect(dayBefore["day"] as? String == "2022-10-07")
        #expect(dayBefore["serving"] as? [String] == [])
        #expect(dayBefore["open_at"] == nil || dayBefore["open_at"] is NSNull)
        let table = try await CommissaryProcess.run(["near", "--lat", "39.95253", "--lon", "-75.19932", "--date", "2022-10-08",
                                                     "--open-at", "01:30", "--time-zone", "Asia/Tokyo",
                                                     "--workspace", workspace.path])
        let commons = try #require(table.output.split(separator: "\n").first { $0.hasPrefix("1920 Commons") })
        #expect(commons.contains("nothing on 2022-10-07") && commons.contains("hours unknown")
                && commons.hasSuffix("America/New_York  2022-10-07 12:30"), "\(table.output)")
    }

    @Test func anHoursFileGivesTimesAndClosedDatesToASourceThatPublishesNone() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let week = try VendorPlatformsPipelineTests.week()
        let server = try TestHTTPServer { request, _ in
            request.path == VendorPlatformsPipelineTests.weekPath ? Self.json(week) : Reply(status: 404, keepAlive: true)
        }
        defer { server.stop() }
        // Test data, not Lowell Market's real hours.
        try """
            source: this test
            time_zone: America/Chicago
            restaurants:
              - name: Lowell Market
                meals:
                  - {meal: Breakfast, days: [mon, tue, wed, thu, fri], opens: "07:00", closes: "10:30"}
                  - {meal: Brunch, days: [saturday, sunday], opens: "10:00", closes: "13:00"}
                closed:
                  - {date: 2026-03-24, reason: Spring Break}
            """.write(to: workspace.appendingPathComponent("wisc-hours.yml"), atomically: true, encoding: .utf8)
        try await run("""
            pipeline: wisc
            licence: test
            hours: wisc-hours.yml
            sources:
              - name: wisc
                adapter: nutrislice
                location: \(server.url(""))
                school: lowell-market
                menu_types: [breakfast]
                restaurant: Lowell Market
                dates: {from: 2026-03-23, to: 2026-03-24}
            """, in: workspace)
        #expect(try await query("SELECT date, restaurant, meal, opens, closes, is_closed, note FROM hours ORDER BY date", workspace)
                == """
                date,restaurant,meal,opens,closes,is_closed,note
                2026-03-23,Lowell Market,Breakfast,07:00,10:30,0,
                2026-03-24,Lowell Market,All day,,,1,Spring Break

                """)
        let monday = try await near(at: "8am", on: "2026-03-23", workspace)
        #expect(monday.map { $0["place"] as? String } == ["Lowell Market"])
        #expect(monday.first?["open_at"] as? [String] == ["Breakfast 07:00–10:30"])
        #expect(monday.first?["time_zone"] as? String == "America/Chicago")
        let tuesday = try await near(at: "8am", on: "2026-03-24", workspace)
        #expect(tuesday.first?["closed_because"] as? String == "Spring Break")
    }
}
