import Fetching
import FoodModel
import Foundation
import Logging
import Pipeline
import Snapshot
import SourceAdapters
import Testing
import TestSupport

/// Nutrislice, DineOnCampus and NetNutrition labels in one pipeline, over a server on 127.0.0.1
/// that answers in each platform's URL layout with the real responses of `../shared/data`
/// (wrapped into the platform's own answer shape where the saved file is another), and one query
/// over the one vocabulary that answers across all of them. Expected values were read off the
/// files by hand.
@Suite struct VendorPlatformsPipelineTests {
    static let nutrisliceDay = Paths.sharedData.appendingPathComponent("nutrislice-2026/wisc-lowell-market-breakfast-2026-03-23.json")
    static let dineOnCampus = Paths.sharedData.appendingPathComponent("dineoncampus-2019/location-menu-2019-07-08.json")
    static let label = Paths.sharedData.appendingPathComponent("netnutrition-2025/duke-label-egg-bite.html")
    static let uiucLabel = Paths.sharedData.appendingPathComponent("netnutrition-2026/uiuc-label-122098028.html")

    static let weekPath = "/menu/api/weeks/school/lowell-market/menu-type/breakfast/2026/03/22/"
    static let lunchWeekPath = "/menu/api/weeks/school/lowell-market/menu-type/lunch/2026/03/22/"
    static let lunchPeriod = "5d23f9384198d409c306186a"
    static let dinnerPeriod = "5d23f9384198d409c3069999"

    /// A Nutrislice week holding the real day on Monday 2026-03-23 and again on Tuesday.
    static func week() throws -> Data {
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: nutrisliceDay)) as? [String: Any])
        var monday = try #require(saved["menu"] as? [String: Any])
        monday["date"] = "2026-03-23"
        var tuesday = monday
        tuesday["date"] = "2026-03-24"
        return try JSONSerialization.data(withJSONObject: ["start_date": "2026-03-22", "days": [monday, tuesday]])
    }

    /// The v1 answers of one location: the default (Lunch, the real answer, listing Lunch and
    /// Dinner) and Dinner (the real answer's Mongolian category under another period).
    static func dineOnCampusAnswers() throws -> (lunch: Data, dinner: Data) {
        var answer = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dineOnCampus)) as? [String: Any])
        var menu = try #require(answer["menu"] as? [String: Any])
        let lunch = try #require((menu["periods"] as? [[String: Any]])?.first)
        menu["periods"] = lunch
        answer["menu"] = menu
        answer["periods"] = [["id": lunchPeriod, "name": "Lunch", "sort_order": 0],
                             ["id": dinnerPeriod, "name": "Dinner", "sort_order": 1]]
        let lunchData = try JSONSerialization.data(withJSONObject: answer)
        var dinner = lunch
        dinner["id"] = dinnerPeriod
        dinner["name"] = "Dinner"
        dinner["categories"] = (lunch["categories"] as? [[String: Any]])?.filter { $0["name"] as? String == "Mongolian" }
        menu["periods"] = dinner
        answer["menu"] = menu
        return (lunchData, try JSONSerialization.data(withJSONObject: answer))
    }

    private func json(_ body: Data) -> Reply {
        Reply(headers: [("Content-Type", "application/json")], body: body, keepAlive: true)
    }

    private func rows(_ sql: String, _ report: RunReport) throws -> [[SQLValue]] {
        try QueryResult.run(sql, on: URL(fileURLWithPath: try #require(report.snapshotPath))).rows
    }

    private func run(_ yaml: String, workspace: URL) async throws -> RunReport {
        try await QuietNight.run(yaml, workspace: workspace, today: "2026-03-23")
    }

    private func pipeline(server: TestHTTPServer, labels: URL) -> String {
        """
        pipeline: campuses
        licence: test
        sources:
          - name: wisc
            adapter: nutrislice
            location: \(server.url(""))
            school: lowell-market
            menu_types: [breakfast, lunch]
            restaurant: Lowell Market
            dates: {from: 2026-03-23, to: 2026-03-24}
          - name: campus
            adapter: dineoncampus
            location: \(server.url(""))
            dates: {from: 2019-07-08}
            locations:
              - {id: loc1, name: Wadsworth}
              - {id: loc2, name: McNair}
          - name: duke
            adapter: netnutrition-label
            location: \(labels.path)
        checks:
          min_menu_items: 1
        fetch:
          delay_ms: 0
          retries: 0
          timeout_seconds: 10
        """
    }

    @Test func threePlatformsPublishOneSnapshotThatOneQueryReads() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let labels = workspace.appendingPathComponent("labels")
        try FileManager.default.createDirectory(at: labels, withIntermediateDirectories: true)
        // A copy in the test's own folder: a source never follows a link out of its folder.
        try FileManager.default.copyItem(at: Self.label, to: labels.appendingPathComponent("4711.html"))
        // UIUC's layout, and the same label with its nutrient rows gone (a layout that changed).
        try FileManager.default.copyItem(at: Self.uiucLabel, to: labels.appendingPathComponent("122098028.html"))
        let uiuc = String(decoding: try Data(contentsOf: Self.uiucLabel), as: UTF8.self)
        try Data(try #require(MenuPageEdits.withoutNutrientRows(uiuc)).utf8)
            .write(to: labels.appendingPathComponent("5000.html"))
        let week = try Self.week()
        let answers = try Self.dineOnCampusAnswers()
        let closed = Data(#"{"status":"success","records":0,"closed":true}"#.utf8)
        let server = try TestHTTPServer { request, _ in
            switch request.path {
            case Self.weekPath: json(week)
            case Self.lunchWeekPath: json(Data(#"{"start_date":"2026-03-22","days":[]}"#.utf8))
            case "/v1/location/loc1/periods?platform=0&date=2019-07-08": json(answers.lunch)
            case "/v1/location/loc1/periods/\(Self.dinnerPeriod)?platform=0&date=2019-07-08": json(answers.dinner)
            case "/v1/location/loc2/periods?platform=0&date=2019-07-08": json(closed)
            default: Reply(status: 404, keepAlive: true)
            }
        }
        defer { server.stop() }
        let report = try await run(pipeline(server: server, labels: labels), workspace: workspace)
        #expect(report.published, "\(report.blockingChecks.map(\.message))")

        // One request per week and menu type for both days; one per location, period and day.
        #expect(server.requests(to: Self.weekPath).count == 1)
        #expect(server.requests(to: Self.lunchWeekPath).count == 1)
        #expect(server.requests(to: "/v1/location/loc1/periods?platform=0&date=2019-07-08").count == 1)

        // The same v_menu as UCLA's: 12 items a day at Lowell Market, breakfast only; Wadsworth's
        // lunch (62) and dinner (3); nothing at the closed McNair.
        #expect(try rows("""
            SELECT date, meal, restaurant, count(*) FROM v_menu GROUP BY date, meal, restaurant ORDER BY date, meal
            """, report) == [
            [.text("2019-07-08"), .text("Dinner"), .text("Wadsworth"), .integer(3)],
            [.text("2019-07-08"), .text("Lunch"), .text("Wadsworth"), .integer(62)],
            [.text("2026-03-23"), .text("Breakfast"), .text("Lowell Market"), .integer(12)],
            [.text("2026-03-24"), .text("Breakfast"), .text("Lowell Market"), .integer(12)],
        ])
        // The closed McNair is data: one hours row marked closed, with no reason (the answer gives none).
        #expect(try rows("SELECT restaurant, date, is_closed, note FROM hours", report)
                == [[.text("McNair"), .text("2019-07-08"), .integer(1), .null]])
        #expect(try rows("SELECT section, item FROM v_menu WHERE date = '2026-03-23' AND item LIKE 'Waffle%'", report)
                == [[.text("Buckingham Bakery / Entree"), .text("Waffle w/Strawberries")]])

        // Nutrition views: a number, a bound and a mark, each where it belongs.
        #expect(try rows("""
            SELECT nutrient_key, amount, unit, printed_amount, amount_below FROM v_food_nutrition
            WHERE food_id = 'dineoncampus:13163' AND nutrient_key IN ('sodium', 'dietary_fiber') ORDER BY nutrient_key
            """, report) == [
            [.text("dietary_fiber"), .null, .text("g"), .text("< 1"), .real(1)],
            [.text("sodium"), .real(170), .text("mg"), .null, .null],
        ])
        #expect(try rows("""
            SELECT amount, unit FROM v_food_nutrition WHERE food_id = 'nutrislice:1547997' AND nutrient_key = 'sodium'
            """, report) == [[.real(176), .text("mg")]])
        #expect(try rows("""
            SELECT name, serving_size, serving_amount, serving_unit, calories FROM food WHERE id = 'netnutrition:4711'
            """, report) == [[.text("Bacon Swiss and Arugula Egg Bite"), .text("2.7 oz Portion (77g)"), .real(2.7),
                              .text("oz Portion"), .real(180)]])
        #expect(try rows("""
            SELECT printed_dv_percent FROM food_nutrient WHERE food_id = 'netnutrition:4711' AND nutrient_key = 'total_fat'
            """, report) == [[.real(23)]])

        // One question across platforms: vegan dishes that declare no tree nuts. Croutons and
        // White Bread are vegan at Wadsworth but print "Tree Nuts*"; the egg bite contains egg.
        let veganWithoutTreeNuts = try rows("""
            SELECT food FROM v_food_term WHERE term = 'vegan'
            EXCEPT SELECT food FROM v_food_term WHERE term = 'tree_nuts' ORDER BY food
            """, report).map { $0[0] }
        for vegan in ["Vegan French Toast", "Oatmeal (OI)", "Jackfruit Sausage Patty", "Steamed Rice", "Steamed Broccoli"] {
            #expect(veganWithoutTreeNuts.contains(.text(vegan)), "\(vegan)")
        }
        for excluded in ["Croutons", "White Bread", "Scrambled Eggs", "Bacon Swiss and Arugula Egg Bite"] {
            #expect(!veganWithoutTreeNuts.contains(.text(excluded)), "\(excluded)")
        }
        #expect(try rows("SELECT food FROM v_food_term WHERE term = 'eggs' AND food_id = 'netnutrition:4711'", report)
                == [[.text("Bacon Swiss and Arugula Egg Bite")]])
        // DineOnCampus prints "Alcohol" (or "Alcohol*") among five items' allergens on 2019-07-08
        // (the file, read by hand): the same term as UCLA's kitchen system's "Alcohol".
        #expect(try rows("""
            SELECT food FROM v_food_term WHERE term = 'alcohol' AND food_id LIKE 'dineoncampus:%' ORDER BY food
            """, report) == ["Blackbean burger", "Harissa Aioli", "Honey Mustard Dressing", "Lemon Oregano Chicken",
                             "Sausage and Mushroom Pizza"].map { [.text($0)] })

        // Every label says what it is per; UIUC's Blondie Bars: 180 kcal, 8 g fat (13%), a 42 g slice.
        #expect(try rows("""
            SELECT basis, serving_grams, calories, total_fat_g FROM v_food_macros WHERE food_id = 'netnutrition:122098028'
            """, report) == [[.text("serving"), .real(42), .real(180), .real(8)]])
        #expect(try rows("""
            SELECT count(*) FROM food f WHERE EXISTS (SELECT 1 FROM food_nutrient fn WHERE fn.food_id = f.id)
            AND f.label_basis IS NOT 'serving'
            """, report) == [[.integer(0)]])
        // The label that gave no nutrient is named: a warning for the run, a flag on the food.
        let empty = try #require(report.manifest.checks.first { $0.name == "label_without_nutrients" })
        #expect(!empty.passed && empty.severity == .warning && empty.value == 1)
        #expect(empty.message.contains("netnutrition:5000"))
        #expect(try rows("SELECT food_id FROM food_flag WHERE check_name = 'label_without_nutrients'", report)
                == [[.text("netnutrition:5000")]])
        // Diet flags read the one vocabulary on every source of the snapshot.
        #expect(try rows("""
            SELECT count(*) FROM v_food_macros m
            WHERE m.is_vegan != EXISTS (SELECT 1 FROM v_food_term t WHERE t.food_id = m.food_id AND t.term = 'vegan')
               OR m.is_vegetarian != EXISTS (SELECT 1 FROM v_food_term t WHERE t.food_id = m.food_id
                                             AND t.term IN ('vegan', 'vegetarian'))
            """, report) == [[.integer(0)]])
        #expect(try rows("SELECT count(*) FROM v_food_macros WHERE is_vegan", report) != [[.integer(0)]])

        // The next night finds every input unchanged, asking for each week once more, not once
        // for each of the two days it serves.
        let again = try await run(pipeline(server: server, labels: labels), workspace: workspace)
        #expect(again.unchanged)
        #expect(server.requests(to: Self.weekPath).count == 2)
        #expect(server.requests(to: Self.lunchWeekPath).count == 2)
        #expect(server.requests(to: "/v1/location/loc1/periods?platform=0&date=2019-07-08").count == 2)
    }

    /// Nutrislice answering a web page instead of a week: that day's partitions fail, naming the
    /// address, and the last good snapshot stays what it was.
    @Test func aWebPageWhereAWeekWasExpectedKeepsTheLastGoodSnapshot() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let week = try Self.week()
        let broken = BrokenSwitch()
        let server = try TestHTTPServer { request, _ in
            switch request.path {
            case Self.weekPath:
                broken.isOn ? Reply(headers: [("Content-Type", "text/html")],
                                    body: Data("<!DOCTYPE html><html><body>Menus</body></html>".utf8), keepAlive: true)
                    : json(week)
            case Self.lunchWeekPath: json(Data(#"{"start_date":"2026-03-22","days":[]}"#.utf8))
            default: Reply(status: 404, keepAlive: true)
            }
        }
        defer { server.stop() }
        let yaml = """
            pipeline: wisc
            licence: test
            sources:
              - name: wisc
                adapter: nutrislice
                location: \(server.url(""))
                school: lowell-market
                menu_types: [breakfast]
                dates: {from: 2026-03-23, to: 2026-03-24}
            checks:
              min_menu_items: 1
            fetch: {delay_ms: 0, retries: 0, timeout_seconds: 10}
            """
        let good = try await run(yaml, workspace: workspace)
        #expect(good.published)
        let goodPath = try #require(good.snapshotPath)
        let goodBytes = try Data(contentsOf: URL(fileURLWithPath: goodPath))
        broken.isOn = true
        let bad = try await run(yaml, workspace: workspace)
        let failures = bad.manifest.checks.map(\.message).joined(separator: "\n")
            + bad.manifest.partitions.compactMap(\.message).joined(separator: "\n")
        #expect(failures.contains(server.url(Self.weekPath)), "\(failures)")
        #expect(failures.contains("HTML"), "\(failures)")
        // What was published before is untouched, and nothing newer replaced it with less.
        #expect(try Data(contentsOf: URL(fileURLWithPath: goodPath)) == goodBytes)
        if let badPath = bad.snapshotPath, badPath != goodPath {
            #expect(try rows("SELECT count(*) FROM v_menu", bad) == [[.integer(24)]])
        }
    }

    final class BrokenSwitch: @unchecked Sendable {
        private let lock = NSLock()
        private var on = false
        var isOn: Bool {
            get { lock.withLock { on } }
            set { lock.withLock { on = newValue } }
        }
    }

    /// `site_id` instead of `locations`: the site's locations, with their names, come from the
    /// API once per run, and each is read for the day.
    @Test func aSitesLocationsAreListedByTheAPI() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let answers = try Self.dineOnCampusAnswers()
        let listing = #"""
            {"status": "success", "buildings": [{"id": "b1", "name": "Wadsworth Hall",
              "locations": [{"id": "loc1", "name": "Wadsworth"}, {"id": "loc2", "name": "McNair"}]}]}
            """#
        let all = "/v1/locations/all_locations?platform=0&site_id=5751fd2b90975b60e048929a&for_menus=true&with_buildings=true"
        let server = try TestHTTPServer { request, _ in
            switch request.path {
            case all: json(Data(listing.utf8))
            case "/v1/location/loc1/periods?platform=0&date=2019-07-08": json(answers.lunch)
            case "/v1/location/loc1/periods/\(Self.dinnerPeriod)?platform=0&date=2019-07-08": json(answers.dinner)
            case "/v1/location/loc2/periods?platform=0&date=2019-07-08":
                json(Data(#"{"status":"success","records":0,"closed":true}"#.utf8))
            default: Reply(status: 404, keepAlive: true)
            }
        }
        defer { server.stop() }
        let report = try await run("""
            pipeline: site
            licence: test
            sources:
              - name: campus
                adapter: dineoncampus
                location: \(server.url(""))
                dates: {from: 2019-07-08}
                site_id: 5751fd2b90975b60e048929a
            checks: {min_menu_items: 1}
            fetch: {delay_ms: 0, retries: 0, timeout_seconds: 10}
            """, workspace: workspace)
        #expect(report.published, "\(report.blockingChecks.map(\.message))")
        #expect(server.requests(to: all).count == 1)
        #expect(try rows("SELECT meal, restaurant, count(*) FROM v_menu GROUP BY 1, 2 ORDER BY 1", report) == [
            [.text("Dinner"), .text("Wadsworth"), .integer(3)], [.text("Lunch"), .text("Wadsworth"), .integer(62)],
        ])
    }
}

/// Two meals under one idMeal in a dump are named in the run's warnings, not collapsed in silence:
/// the real 442-meal dump with its third meal repeated at the end.
@Suite struct DumpDuplicateTests {
    @Test func aRepeatedIdMealIsReported() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var meals = try MealDumpRun.realMeals()
        #expect(meals.count == 442)
        let third = meals[2]
        let id = try #require(third["idMeal"] as? String)
        meals.append(third)
        let report = try await MealDumpRun.run(meals, folder: folder)
        #expect(report.published)
        #expect(report.manifest.rowCounts["recipe"] == 442)
        let warning = report.manifest.checks.first { $0.message.contains("idMeal(s) name more than one meal") }
        #expect(warning?.message.hasSuffix(": \(id) (meals 3, 443)") == true, "\(warning?.message ?? "none")")
    }
}
