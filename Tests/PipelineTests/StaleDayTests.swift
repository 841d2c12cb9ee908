import FoodModel
import Foundation
import Logging
import Pipeline
import Snapshot
import SourceAdapters
import Testing
import TestSupport

/// A broken night never makes the published data worse: a day whose new fetch is refused (or
/// fails) is published as it last was, marked stale, and a later good night replaces it. The
/// site is `SampleData/menu.dining.ucla.edu` served on 127.0.0.1, broken the ways sites break.
@Suite struct StaleDayTests {
    /// How the server breaks the site tonight.
    enum Breakage: Sendable {
        case none
        /// One day's items marked up as `menu-entry` instead of `menu-item`.
        case itemMarkup(day: String)
        /// Every recipe page answers with this reply instead.
        case recipePages(Reply)
        /// The Nutrition Facts rows renamed, so only calories and vitamins are recognized.
        case nutrientRows
        /// One day's items marked up wrongly, and Quinoa Tabbouleh's label (served that day and
        /// the day before) printing 170 calories instead of 160.
        case itemMarkupAndNewLabel(day: String)
    }

    /// The server's state, changed between nights.
    final class Site: @unchecked Sendable {
        private let lock = NSLock()
        private var current = Breakage.none
        var breakage: Breakage {
            get { lock.withLock { current } }
            set { lock.withLock { current = newValue } }
        }
    }

    private static let root = Paths.sampleData.appendingPathComponent("menu.dining.ucla.edu")
    private static let days = ["2026-10-10", "2026-10-11", "2026-10-12"]

    private func server(_ site: Site) throws -> TestHTTPServer {
        try TestHTTPServer(lifetime: .seconds(120)) { request, _ in
            let file = Self.root.appendingPathComponent(request.path + ".html")
            guard var body = try? Data(contentsOf: file) else { return Reply(status: 404, keepAlive: true) }
            switch site.breakage {
            case .none: break
            case .itemMarkup(let day) where request.path == "/Menus/\(day)":
                body = Self.replacing("class=\"menu-item\"", with: "class=\"menu-entry\"", in: body)
            case .recipePages(let reply) where request.path.hasPrefix("/Recipes/"):
                return reply
            case .nutrientRows where request.path.hasPrefix("/Recipes/"):
                body = Self.replacing("class=\"nfnutrient\"", with: "class=\"nfrow\"", in: body)
            case .itemMarkupAndNewLabel(let day) where request.path == "/Menus/\(day)":
                body = Self.replacing("class=\"menu-item\"", with: "class=\"menu-entry\"", in: body)
            case .itemMarkupAndNewLabel where request.path.hasPrefix("/Recipes/041180/"):
                body = Self.replacing("Calories</span> 160 ", with: "Calories</span> 170 ", in: body)
            default: break
            }
            return Reply(headers: [("Content-Type", "text/html; charset=utf-8")], body: body, keepAlive: true)
        }
    }

    private static func replacing(_ old: String, with new: String, in body: Data) -> Data {
        Data(String(decoding: body, as: UTF8.self).replacingOccurrences(of: old, with: new).utf8)
    }

    private func spec(_ server: TestHTTPServer, workspace: URL) -> PipelineSpec {
        var fetch = FetchSettings()
        fetch.delayMilliseconds = 0
        fetch.timeoutSeconds = 10
        fetch.retries = 0
        return PipelineSpec(
            name: "stale-test", description: nil, file: workspace.appendingPathComponent("stale.yml"), licence: "test",
            sources: [SourceSpec(name: "ucla-menu", adapter: UCLAMenuSiteAdapter(),
                                 location: .web(server.url("")),
                                 dates: .range(from: ServiceDate(Self.days[0])!, to: ServiceDate(Self.days[2])!),
                                 settings: UCLAMenuSiteAdapter.Settings())],
            checks: CheckPolicy(minMenuItems: 100), fetch: fetch)
    }

    /// A test's own workspace, the site served on 127.0.0.1 for it, and the pipeline that reads
    /// it; `close` stops the server and removes the workspace.
    private struct Scene {
        let workspace: URL
        let site: Site
        let server: TestHTTPServer
        var spec: PipelineSpec

        func close() {
            server.stop()
            try? FileManager.default.removeItem(at: workspace)
        }
    }

    private func scene() throws -> Scene {
        let workspace = try Paths.temporaryFolder()
        let site = Site()
        do {
            let server = try server(site)
            return Scene(workspace: workspace, site: site, server: server, spec: spec(server, workspace: workspace))
        } catch {
            try? FileManager.default.removeItem(at: workspace)
            throw error
        }
    }

    private func run(_ scene: Scene, force: Bool = false) async throws -> RunReport {
        try await PipelineRunner(
            spec: scene.spec,
            options: RunOptions(workspace: Workspace(root: scene.workspace), today: ServiceDate(Self.days[0])!, force: force),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
    }

    /// What analysts read of a snapshot: every menu row and every nutrient value, as text.
    private func contents(of report: RunReport) throws -> (menu: [String], nutrients: [String]) {
        let file = URL(fileURLWithPath: try #require(report.snapshotPath))
        let menu = try QueryResult.run("""
            SELECT date || '|' || meal || '|' || restaurant || '|' || section || '|' || item || '|' || food_id
            FROM v_menu ORDER BY 1
            """, on: file)
        let nutrients = try QueryResult.run("""
            SELECT food_id || '|' || nutrient_key || '|' || ifnull(amount, '') || '|' || ifnull(unit, '')
            FROM food_nutrient ORDER BY 1
            """, on: file)
        let text = { (row: [SQLValue]) in row.map { "\($0)" }.joined() }
        return (menu.rows.map(text), nutrients.rows.map(text))
    }

    /// Compares two row lists and reports only their sizes and the first difference.
    private func expectSame(_ rows: [String], _ expected: [String], _ what: String,
                            sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        guard rows != expected else { return }
        let first = zip(rows, expected).first { $0 != $1 }.map { "\($0) instead of \($1)" } ?? "one list is longer"
        Issue.record("\(what): \(rows.count) rows against \(expected.count); first difference: \(first)",
                     sourceLocation: sourceLocation)
    }

    private func staleRows(of report: RunReport) throws -> [StalePartition] {
        try SnapshotReader.stalePartitions(of: URL(fileURLWithPath: try #require(report.snapshotPath)))
    }

    @Test func aDayWhoseItemsCannotBeReadIsCarriedFromItsLastGoodVersion() async throws {
        let scene = try scene()
        defer { scene.close() }

        let good = try await run(scene)
        #expect(good.published && good.stale.isEmpty)
        // SampleData/README.md: 124 menu items and 464 nutrient values over the three days.
        let before = try contents(of: good)
        #expect(before.menu.count == 124 && before.nutrients.count == 464)

        scene.site.breakage = .itemMarkup(day: "2026-10-11")
        let broken = try await run(scene)
        #expect(broken.published)
        let stale = try staleRows(of: broken)
        #expect(stale.map(\.partition) == ["2026-10-11"])
        #expect(stale.first?.reason.contains("refused") == true)
        #expect(stale.first?.reason.contains("has 0 menu item(s)") == true)
        #expect(stale.first?.keptRunId == good.manifest.runId)
        #expect(broken.stale.count == 1 && broken.stale[0].hasPrefix("ucla-menu/2026-10-11 is stale"))
        #expect(broken.manifest.partitions.first { $0.key == "2026-10-11" }?.status == .stale)
        let carried = try contents(of: broken)
        expectSame(carried.menu, before.menu, "menu")
        expectSame(carried.nutrients, before.nutrients, "nutrients")

        // Broken again the next night: still stale, still the first version.
        let again = try await run(scene)
        #expect(try staleRows(of: again).map(\.keptRunId) == [good.manifest.runId])
        expectSame(try contents(of: again).menu, before.menu, "menu")

        scene.site.breakage = .none
        let mended = try await run(scene)
        #expect(mended.published && mended.stale.isEmpty)
        #expect(try staleRows(of: mended).isEmpty)
        expectSame(try contents(of: mended).menu, before.menu, "menu")
    }

    /// All three ways the recipe pages break; the pages are fetched again (`--force`), as on a
    /// night whose dishes are new. Labels are judged food by food: each keeps the one it had.
    @Test(arguments: [
        ("HTTP 500", Reply(status: 500, keepAlive: true)),
        ("a login page", Reply(headers: [("Content-Type", "text/html")],
                               body: Data("<html><body><form action=\"/login\">Sign in</form></body></html>".utf8),
                               keepAlive: true)),
        ("HTTP 429", Reply(status: 429, headers: [("Retry-After", "0")], keepAlive: true)),
    ])
    func recipePagesThatFailLeaveTheLastGoodNutrients(_ label: String, _ reply: Reply) async throws {
        let scene = try scene()
        defer { scene.close() }
        let good = try await run(scene)
        let before = try contents(of: good)

        scene.site.breakage = .recipePages(reply)
        let broken = try await run(scene, force: true)
        #expect(broken.published, "\(label)")
        // The menus were fine; every food on them keeps the label it had (36 foods, SampleData/README.md).
        let stale = try staleRows(of: broken)
        #expect(stale.count == 36, "\(label)")
        #expect(stale.allSatisfy { $0.partition.hasPrefix("food ucla-menu:") }, "\(label)")
        #expect(stale.allSatisfy { $0.reason == "its page was not read tonight" }, "\(label)")
        #expect(stale.allSatisfy { $0.keptRunId == good.manifest.runId }, "\(label)")
        #expect(broken.stale.count == 1, "\(label)")
        #expect(broken.stale.first?.hasPrefix("ucla-menu: 36 food label(s) kept as published in ") == true, "\(label)")
        let carried = try contents(of: broken)
        expectSame(carried.nutrients, before.nutrients, "\(label): nutrients")
        expectSame(carried.menu, before.menu, "\(label): menu")

        scene.site.breakage = .none
        let mended = try await run(scene)
        #expect(try staleRows(of: mended).isEmpty, "\(label)")
        expectSame(try contents(of: mended).nutrients, before.nutrients, "\(label): nutrients")
    }

    @Test func renamedNutrientRowsAreRefused() async throws {
        let scene = try scene()
        defer { scene.close() }
        let good = try await run(scene)
        let before = try contents(of: good)

        scene.site.breakage = .nutrientRows
        let broken = try await run(scene, force: true)
        let stale = try staleRows(of: broken)
        #expect(!stale.isEmpty && !broken.stale.isEmpty)
        // 464 values over 36 labels is 12.9 a label; tonight's keep only the rows not marked
        // `nfnutrient` (vitamins and minerals), far fewer than half.
        #expect(stale.count == 36)
        #expect(stale.allSatisfy { $0.reason.hasPrefix("tonight's label has ") && $0.reason.hasSuffix("usually have 12.9") })
        expectSame(try contents(of: broken).nutrients, before.nutrients, "nutrients")

        scene.site.breakage = .none
        let mended = try await run(scene, force: true)
        #expect(mended.stale.isEmpty)
        #expect(try staleRows(of: mended).isEmpty)
        expectSame(try contents(of: mended).nutrients, before.nutrients, "nutrients")
    }

    /// A stale day says why in the manifest (`failure`), the night it was refused and on every
    /// later night that keeps it as history once the window has moved past it, read back from
    /// the ledger without a request.
    @Test func aStaleDayKeptAsHistoryStillSaysWhyItIsStale() async throws {
        var scene = try scene()
        defer { scene.close() }
        _ = try await run(scene)
        scene.site.breakage = .itemMarkup(day: "2026-10-11")
        let broken = try await run(scene)
        let refused = try #require(broken.manifest.partitions.first { $0.key == "2026-10-11" })
        #expect(refused.status == .stale && refused.failure == "refused_partition")

        scene.spec.sources[0].dates = .range(from: ServiceDate(Self.days[2])!, to: ServiceDate(Self.days[2])!)
        scene.spec.history = .all
        let later = try await run(scene)
        let kept = Dictionary(later.manifest.partitions.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(kept["2026-10-11"]?.status == .stale && kept["2026-10-11"]?.failure == "refused_partition")
        #expect(kept["2026-10-10"]?.status != .stale && kept["2026-10-10"]?.failure == nil)
        #expect(try staleRows(of: later).map(\.partition) == ["2026-10-11"])
    }

    /// With no good version to fall back on, a refused day fails as an unreadable page does.
    @Test func aDayNeverGoodBlocksAsBefore() async throws {
        let scene = try scene()
        defer { scene.close() }
        scene.site.breakage = .itemMarkup(day: "2026-10-11")
        let report = try await run(scene)
        #expect(!report.published)
        let blocking = report.blockingChecks.map(\.message).joined(separator: " ")
        #expect(blocking.contains("2026-10-11 (ucla-menu: refused: "))
    }

    /// A stale day brings its last good foods, but a food another day read fresh tonight keeps
    /// tonight's label, whether the stale day comes before or after it.
    @Test func aStaleDayDoesNotTakeBackAFoodReadFreshTonight() async throws {
        let scene = try scene()
        defer { scene.close() }
        _ = try await run(scene)

        scene.site.breakage = .itemMarkupAndNewLabel(day: "2026-10-11")
        let broken = try await run(scene, force: true)
        #expect(try staleRows(of: broken).map(\.partition) == ["2026-10-11"])
        let calories = try QueryResult.run("SELECT calories FROM food WHERE id = 'ucla-menu:041180'",
                                           on: URL(fileURLWithPath: try #require(broken.snapshotPath)))
        #expect(calories.rows == [[.real(170)]])
    }
}
