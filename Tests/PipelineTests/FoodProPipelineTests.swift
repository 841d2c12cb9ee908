import Basics
import Fetching
import FoodModel
import Foundation
import TestSupport
import Logging
import Pipeline
import YAMLConfig
import SourceAdapters
import Snapshot
import Synchronization
import Testing

/// The `foodpro` adapter end to end, over a real HTTP server on 127.0.0.1 that serves real
/// FoodPro pages under the addresses the sites used. Expected values were read off the pages by
/// hand (Berkeley's label: Brown Rice, Serving Size 4 OZ, Calories 127, Sodium 1.5mg, Protein
/// 2.6g, "INGREDIENTS: Brown Rice, Water").
@Suite struct FoodProPipelineTests {
    static let berkeley = Paths.sharedData.appendingPathComponent("foodpro-berkeley-2016")
    static let uclaBreakfast = Paths.packageRoot
        .appendingPathComponent("Tests/Fixtures/foodpro-ucla/default-2016-06-20-meal-1.html")
    /// Built for these tests, not saved from the site: a FoodPro page with no menu grid, which is
    /// how the adapter expects a meal that is not served to look.
    static let noGrid = Data("<html><body><div class=\"menucontent\"></div></body></html>".utf8)

    private func html(_ body: Data) -> Reply {
        Reply(headers: [("Content-Type", "text/html; charset=iso-8859-1")], body: body, keepAlive: true)
    }

    private func spec(_ source: SourceSpec, file: URL) -> PipelineSpec {
        var fetch = FetchSettings()
        fetch.delayMilliseconds = 0
        fetch.timeoutSeconds = 10
        fetch.retries = 0
        return PipelineSpec(name: "foodpro-test", description: nil, file: file, licence: "test",
                            sources: [source], checks: CheckPolicy(minMenuItems: 1), fetch: fetch)
    }

    private func run(_ spec: PipelineSpec, workspace: URL) async throws -> RunReport {
        try await PipelineRunner(
            spec: spec,
            options: RunOptions(workspace: Workspace(root: workspace), today: try #require(ServiceDate("2016-03-31"))),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
    }

    private func rows(_ sql: String, _ report: RunReport) throws -> [[SQLValue]] {
        try QueryResult.run(sql, on: URL(fileURLWithPath: try #require(report.snapshotPath))).rows
    }

    @Test func berkeleysEntreesAndLabelPublishTheBrownRiceWithItsLabel() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let entrees = try Data(contentsOf: Self.berkeley.appendingPathComponent("todaysentrees.html"))
        let label = try Data(contentsOf: Self.berkeley.appendingPathComponent("label-153002.html"))
        let server = try TestHTTPServer { request, _ in
            switch request.path {
            case "/dining/todaysentrees.asp": html(entrees)
            case "/dining/label.asp?RecNumAndPort=153002*4": html(label)
            default: Reply(status: 404, keepAlive: true)
            }
        }
        defer { server.stop() }
        let source = SourceSpec(name: "berkeley", adapter: FoodProAdapter(), location: .web(server.url("/dining")),
                                dates: .range(from: try #require(ServiceDate("2016-03-31")),
                                              to: try #require(ServiceDate("2016-03-31"))),
                                settings: FoodProAdapter.Settings(pages: FoodProPages(layout: .berkeley)))
        let spec = spec(source, file: workspace.appendingPathComponent("berkeley.yml"))

        let report = try await run(spec, workspace: workspace)
        #expect(report.published)
        #expect(report.manifest.rowCounts["menu_item"] == 1)
        #expect(report.manifest.rowCounts["food"] == 1)
        #expect(try rows("SELECT date, meal, restaurant, item, codes FROM v_menu", report) == [
            [.text("2016-03-31"), .text("Breakfast"), .text("CROSSROADS"), .text("Brown Rice"), .text("VG")],
        ])
        #expect(try rows("SELECT id, serving_size, calories, ingredients, has_page FROM food", report) == [
            [.text("foodpro:153002"), .text("4 OZ"), .real(127), .text("Brown Rice, Water"), .integer(1)],
        ])
        // A US label, per serving: 4 oz is 113.398 g, and the calories per serving are as printed.
        #expect(try rows("SELECT basis, round(serving_grams, 3), calories FROM v_food_macros", report)
                == [[.text("serving"), .real(113.398), .real(127)]])
        #expect(try DietFlags.disagreeing(in: URL(fileURLWithPath: try #require(report.snapshotPath))).isEmpty)
        #expect(try rows("""
            SELECT nutrient_key, amount, unit FROM food_nutrient
            WHERE nutrient_key IN ('sodium', 'protein') ORDER BY nutrient_key
            """, report) == [
            [.text("protein"), .real(2.6), .text("g")], [.text("sodium"), .real(1.5), .text("mg")],
        ])
        // "Vegan" is the legend's word for VG: no unknown-code warning.
        #expect(!report.manifest.checks.contains { $0.name == "unknown_code" })

        // The label is the recipe's: a second run asks only for the day's page, finds it
        // unchanged, and publishes nothing.
        let second = try await run(spec, workspace: workspace)
        #expect(second.unchanged)
        #expect(second.snapshotPath == report.snapshotPath)
        #expect(server.requests(to: "/dining/todaysentrees.asp").count == 2)
        #expect(server.requests(to: "/dining/label.asp?RecNumAndPort=153002*4").count == 1)
    }

    /// UCLA's three meal pages of a day: Breakfast is the real page excerpt, Lunch and Dinner
    /// pages without a grid (meals not served); a meal's page answers 500 while `failing` says
    /// so of its number.
    private func uclaServer(failing: @escaping @Sendable (Int) -> Bool = { _ in false }) throws -> TestHTTPServer {
        let breakfast = try Data(contentsOf: Self.uclaBreakfast)
        return try TestHTTPServer { request, _ in
            let meal = (1...3).first { request.path == "/foodpro/default.asp?date=6%2F20%2F2016&meal=\($0)" }
            if let meal, failing(meal) { return Reply(status: 500, keepAlive: true) }
            return switch meal {
            case 1: html(breakfast)
            case 2, 3: html(Self.noGrid)
            default: Reply(status: 404, keepAlive: true)
            }
        }
    }

    private func uclaSource(_ server: TestHTTPServer) throws -> SourceSpec {
        SourceSpec(name: "ucla-foodpro", adapter: FoodProAdapter(), location: .web(server.url("/foodpro")),
                   dates: .range(from: try #require(ServiceDate("2016-06-20")), to: try #require(ServiceDate("2016-06-20"))),
                   settings: FoodProAdapter.Settings(pages: FoodProPages(layout: .uclaGrid), recipePages: false))
    }

    @Test func uclasMealPagesMergeIntoOneDayAndAMealWithoutAGridIsAbsent() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let server = try uclaServer()
        defer { server.stop() }
        let report = try await run(spec(try uclaSource(server), file: workspace.appendingPathComponent("ucla.yml")),
                                   workspace: workspace)
        #expect(report.published)
        #expect(server.requests.count == 3)
        // 23 dishes and 24 sides; 16 distinct recipe numbers of dishes and 14 of sides (the
        // flatbread's chocolate syrup and strawberry topping are the waffle's, Rieber's omelet
        // sides are Sproul's), counted by hand on the page.
        #expect(report.manifest.rowCounts["menu_item"] == 47)
        #expect(report.manifest.rowCounts["food"] == 30)
        #expect(try rows("SELECT DISTINCT meal FROM v_menu", report) == [[.text("Breakfast")]])
        #expect(try rows("""
            SELECT item, food_id, portion, codes, served_with FROM v_menu
            WHERE restaurant = 'Sproul Dining' AND section = 'Pizza Oven'
            """, report) == [
            [.text("Belgian Waffle"), .text("foodpro:217033"), .text("1/2"), .text("V"), .null],
            [.text("Chocolate Syrup"), .text("foodpro:189029"), .text("1"), .text("V"), .text("Belgian Waffle")],
            [.text("Peach Toppping"), .text("foodpro:204010"), .text("1"), .text("V"), .text("Belgian Waffle")],
            [.text("Strawberry Topping"), .text("foodpro:204001"), .text("1"), .text("V"), .text("Belgian Waffle")],
        ])
        // A vegetarian filter no longer takes in the bacon and ham served with the omelet bar.
        #expect(try rows("""
            SELECT item, served_with FROM v_menu
            WHERE restaurant = 'Sproul Dining' AND section = 'Exhibition' AND (codes IS NULL OR codes = '')
            """, report) == [[.text("Bacon"), .text("Omelet Bar")], [.text("Ham"), .text("Omelet Bar")]])
        #expect(!report.manifest.checks.contains { $0.name == "unknown_code" })
    }

    /// Dinner's page answers 500 on the first and third nights: a day never published is
    /// published with breakfast and says what it lacks; once published whole, it keeps that
    /// version, stale, rather than losing dinner. A day none of whose pages answers fails.
    @Test func aMealPageThatCannotBeFetchedCostsNeitherTheOtherMealsNorAPublishedDay() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let dinnerFails = Mutex(true)
        let everyPageFails = Mutex(false)
        let server = try uclaServer { meal in
            everyPageFails.withLock { $0 } || meal == 3 && dinnerFails.withLock { $0 }
        }
        defer { server.stop() }
        let spec = spec(try uclaSource(server), file: workspace.appendingPathComponent("ucla.yml"))
        let dinnerPage = "default.asp?date=6%2F20%2F2016&meal=3"

        let first = try await run(spec, workspace: workspace)
        #expect(first.published && first.failedPartitions.isEmpty, "\(first.manifest.partitions.map { $0.message ?? "" })")
        #expect(try rows("SELECT DISTINCT meal FROM v_menu", first) == [[.text("Breakfast")]])
        #expect(first.manifest.rowCounts["menu_item"] == 47)
        let said = first.manifest.checks.filter { $0.name == "partition_warning" }.map(\.message)
        #expect(said.contains {
            $0.hasPrefix("2016-06-20: the page of meal 3 (") && $0.contains(dinnerPage) && $0.contains("500")
                && $0.hasSuffix("not read: the rest is published without it (the partition has no last good version to keep instead)")
        }, "\(said)")

        // Dinner's page answers: the day is read whole, and asked again rather than taken from
        // the parse cache, which never keeps a day read in part.
        dinnerFails.withLock { $0 = false }
        let second = try await run(spec, workspace: workspace)
        #expect(second.published && second.stalePartitions.isEmpty, "\(second.manifest.partitions) \(second.manifest.checks)")
        #expect(server.requests(to: "/foodpro/\(dinnerPage)").count == 2)
        #expect(!second.manifest.checks.contains { $0.name == "partition_warning" && $0.message.contains("meal 3") })

        // Dinner's page fails again: the day published whole is kept, stale, saying why.
        dinnerFails.withLock { $0 = true }
        let third = try await run(spec, workspace: workspace)
        #expect(third.failedPartitions.isEmpty)
        let stale = try #require(third.stalePartitions.first)
        #expect(stale.message?.contains("the page of meal 3 (") == true && stale.message?.contains(dinnerPage) == true,
                "\(stale.message ?? "")")

        // Every page fails on a day never published: the day fails rather than being published empty.
        everyPageFails.withLock { $0 = true }
        let fresh = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: fresh) }
        let down = try await run(spec, workspace: fresh)
        #expect(!down.published)
        let partition = try #require(down.manifest.partitions.first)
        #expect(partition.status == .failed)
        #expect(partition.message?.contains("default.asp?date=6%2F20%2F2016&meal=1") == true, "\(partition.message ?? "")")
    }

    @Test func theBerkeleyPipelineFileReadsTheSavedPagesOffline() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let spec = try SpecReader.read(Paths.pipelines.appendingPathComponent("foodpro-berkeley.yml"))
        let report = try await run(spec, workspace: workspace)
        #expect(report.published)
        #expect(try rows("SELECT restaurant, item, codes FROM v_menu", report) == [
            [.text("CROSSROADS"), .text("Brown Rice"), .text("VG")],
        ])
        #expect(try rows("SELECT calories FROM food", report) == [[.real(127)]])
    }

    @Test func aUCLAGridSourceRefusesRecipePagesItCannotRead() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let yaml = """
            pipeline: demo
            sources:
              - name: ucla
                adapter: foodpro
                layout: ucla-grid
                location: https://menu.ha.ucla.edu/foodpro
                dates: {days_ahead: 2}
                recipe_pages: true
            """
        let error = #expect(throws: Failure.self) {
            try SpecReader.parse(yaml, file: folder.appendingPathComponent("demo.yml"))
        }
        #expect(error?.description.contains("recipe_pages") == true)
        let defaults = try SpecReader.parse(yaml.replacingOccurrences(of: "    recipe_pages: true\n", with: "")
                                                .replacingOccurrences(of: "\n    recipe_pages: true", with: ""),
                                            file: folder.appendingPathComponent("demo.yml"))
        let settings = try #require(defaults.sources.first?.settings as? FoodProAdapter.Settings)
        #expect(settings.recipePages == false)
        #expect(settings.pages == FoodProPages(layout: .uclaGrid))
    }
}
