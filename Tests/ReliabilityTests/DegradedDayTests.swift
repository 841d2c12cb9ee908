import Foundation
import GRDB
import Snapshot
import Testing
import TestSupport

/// A source whose structure changes under the reader (a key renamed, a meal gone, labels of
/// zeros) still parses; what it produced is judged before it is published. The real binary is
/// run twice: once on the real page, then on the same page degraded.
@Suite struct DegradedDayTests {
    /// UCLA's live feed for 2025-04-09 as the night of 2025-04-07 served it (`../shared/data`).
    static let date = "2025-04-09"
    static let feedDay = Paths.sharedData.appendingPathComponent("ucla-jamix-2025/nights/2025-04-07/menus/\(date).json")

    enum Damage: Sendable, CaseIterable {
        case none
        /// The feed renames the key of a station's name: every station comes without one.
        case stationKeyRenamed
        /// The feed renames the key of a row's name: every item comes without one.
        case rowNameKeyRenamed
        /// Dinner is no longer in the day's file (a sixth of its items).
        case dinnerRemoved

        func apply(to body: Data) throws -> Data {
            switch self {
            case .none:
                return body
            case .stationKeyRenamed:
                return Data(String(decoding: body, as: UTF8.self)
                    .replacingOccurrences(of: "\"mealOptionName\"", with: "\"mealOptionTitle\"").utf8)
            case .rowNameKeyRenamed:
                return Data(String(decoding: body, as: UTF8.self)
                    .replacingOccurrences(of: "\"menuRowName\"", with: "\"menuRowTitle\"").utf8)
            case .dinnerRemoved:
                let menus = try #require(try JSONSerialization.jsonObject(with: body) as? [[String: Any]])
                return try JSONSerialization.data(withJSONObject: menus.filter { $0["menuTypeName"] as? String != "Dinner" })
            }
        }
    }

    final class DamageBox: @unchecked Sendable {
        private let lock = NSLock()
        private var damage = Damage.none
        var current: Damage {
            get { lock.withLock { damage } }
            set { lock.withLock { damage = newValue } }
        }
    }

    /// The day's file, damaged as the box says; food documents are not asked for.
    static func feedServer(_ box: DamageBox) throws -> TestHTTPServer {
        let real = try Data(contentsOf: feedDay)
        return try TestHTTPServer(lifetime: .seconds(120)) { request, _ in
            guard request.path == "/menus/\(date).json", let body = try? box.current.apply(to: real) else {
                return Reply(status: 404)
            }
            return Reply(headers: [("Content-Type", "application/json")], body: body)
        }
    }

    static func feedPipeline(in folder: URL, base: String, checks: String = "") throws -> URL {
        let file = folder.appendingPathComponent("degraded.yml")
        try Data("""
            pipeline: degraded
            sources:
              - name: ucla
                adapter: ucla-jamix
                location: \(base)
                dates: {from: \(date), to: \(date)}
                food_documents: false
            checks:
              min_menu_items: 100
            \(checks)
            fetch:
              delay_ms: 0
              retries: 0
            """.utf8).write(to: file)
        return file
    }

    static func latest(_ workspace: URL, _ pipeline: String) throws -> URL {
        try #require(SnapshotStore(directory: workspace.appendingPathComponent("snapshots")).latest(pipeline: pipeline))
    }

    static func strings(_ sql: String, _ snapshot: URL) throws -> [String] {
        try SnapshotReader.read(snapshot) { db in try String.fetchAll(db, sql: sql) }
    }

    static func count(_ sql: String, _ snapshot: URL) throws -> Int {
        try SnapshotReader.read(snapshot) { db in try Int.fetchOne(db, sql: sql) ?? -1 }
    }

    /// The published menu of the day, one line per item: meal, restaurant, section, item.
    static func menu(_ snapshot: URL) throws -> [String] {
        try strings("""
            SELECT meal || '|' || restaurant || '|' || section || '|' || item FROM v_menu
            WHERE date = '\(date)' ORDER BY 1
            """, snapshot)
    }

    @Test(arguments: [Damage.stationKeyRenamed, .rowNameKeyRenamed, .dinnerRemoved])
    func aDegradedDayIsRefusedAndItsLastGoodVersionKept(_ damage: Damage) async throws {
        let workspace = try Paths.temporaryFolder("degraded-\(damage)")
        defer { try? FileManager.default.removeItem(at: workspace) }
        let box = DamageBox()
        let server = try Self.feedServer(box)
        defer { server.stop() }
        let pipeline = try Self.feedPipeline(in: workspace, base: server.url(""))
        let arguments = ["run", pipeline.path, "--workspace", workspace.path, "--quiet"]

        let good = try await CommissaryProcess.run(arguments)
        #expect(good.status == 0, "\(good.error)")
        let goodSnapshot = try Self.latest(workspace, "degraded")
        let before = try Self.menu(goodSnapshot)
        // The real day names every station and every row, and serves dinner at five halls.
        #expect(try Self.count("SELECT count(*) FROM v_menu WHERE section LIKE 'Station %'", goodSnapshot) == 0)
        #expect(try Self.count("SELECT count(*) FROM v_menu WHERE item LIKE 'recipe-%' OR item LIKE 'ingredient-%'",
                               goodSnapshot) == 0)
        #expect(try Self.strings("SELECT DISTINCT restaurant FROM v_menu WHERE meal = 'Dinner' ORDER BY 1", goodSnapshot)
            == ["Bruin Plate", "Cafe 1919", "Covel Epicuria", "De Neve Dining", "Feast at Rieber"])

        box.current = damage
        let degraded = try await CommissaryProcess.run(arguments)
        // Published, with the day as the good run had it, marked stale: exit 6.
        #expect(degraded.status == 6, "\(degraded.error)")
        let snapshot = try Self.latest(workspace, "degraded")
        #expect(snapshot != goodSnapshot)
        #expect(try Self.menu(snapshot) == before)
        let stale = try Self.strings("SELECT message FROM _checks WHERE name = 'stale_partition'", snapshot)
        #expect(stale.count == 1)
        let sign: String = switch damage {
        case .stationKeyRenamed: "menu item(s) are in sections the source did not name (placeholder_names)"
        case .rowNameKeyRenamed: "menu item(s) are named only by their id (placeholder_names)"
        case .dinnerRemoved:
            // Cafe 1919 and Feast at Rieber serve only dinner that day (Feast's breakfast and
            // lunch menus have no published row), so they are gone from the day altogether,
            // which `required_restaurants` judges; the three others still serve other meals.
            "Dinner is gone from Bruin Plate, Covel Epicuria, De Neve Dining, which served it in "
                + "the last good fetch (missing_meals)"
        default: "-"
        }
        #expect(stale.first?.contains("ucla/\(Self.date) is stale") == true)
        #expect(stale.first?.contains(sign) == true, "\(stale)")
    }

    /// `degraded_day: warn` publishes what was read, with the sign in `_checks`.
    @Test func aDegradedDayThePipelineLetsThroughIsAWarning() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let box = DamageBox()
        let server = try Self.feedServer(box)
        defer { server.stop() }
        let pipeline = try Self.feedPipeline(in: workspace, base: server.url(""),
                                             checks: "  degraded_day: {missing_meals: warn}")
        let arguments = ["run", pipeline.path, "--workspace", workspace.path, "--quiet"]
        #expect(try await CommissaryProcess.run(arguments).status == 0)
        box.current = .dinnerRemoved
        let degraded = try await CommissaryProcess.run(arguments)
        #expect(degraded.status == 0, "\(degraded.error)")
        let snapshot = try Self.latest(workspace, "degraded")
        #expect(try Self.count("SELECT count(*) FROM v_menu WHERE meal = 'Dinner'", snapshot) == 0)
        let signs = try Self.strings("SELECT message FROM _checks WHERE name = 'degraded_day' AND severity = 'warning'",
                                     snapshot)
        #expect(signs.count == 1)
        #expect(signs.first?.hasPrefix("ucla/\(Self.date): Dinner is gone from Bruin Plate") == true, "\(signs)")
        #expect(signs.first?.hasSuffix("published as read (checks.degraded_day: warn)") == true)
    }

    /// A degraded day with no good version to keep fails as a partition: nothing is published.
    @Test func aFirstFetchThatIsDegradedPublishesNothing() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let box = DamageBox()
        box.current = .stationKeyRenamed
        let server = try Self.feedServer(box)
        defer { server.stop() }
        let pipeline = try Self.feedPipeline(in: workspace, base: server.url(""))
        let run = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", workspace.path, "--quiet"])
        #expect(run.status == 3, "\(run.error)")
        #expect(run.error.contains("sections the source did not name"), "\(run.error)")
        #expect(SnapshotStore(directory: workspace.appendingPathComponent("snapshots")).latest(pipeline: "degraded") == nil)
    }

    // MARK: - Labels of zeros on the menu site

    /// A recipe page of the sample site with every amount and percentage of its label set to 0,
    /// as a site whose nutrition database was emptied prints it.
    static func zeroed(_ page: Data) -> Data {
        var text = String(decoding: page, as: UTF8.self)
        for (pattern, template) in [(#" [0-9][0-9.]*(g|mg) "#, " 0$1 "),
                                    (#"(nfcaltxt">Calories</span>) [0-9]+ "#, "$1 0 "),
                                    (#"nfdvvalnum">[0-9]+"#, #"nfdvvalnum">0"#),
                                    (#"nfvitpct">[0-9]+%"#, #"nfvitpct">0%"#)] {
            text = text.replacingOccurrences(of: pattern, with: template, options: .regularExpression)
        }
        return Data(text.utf8)
    }

    final class ZeroBox: @unchecked Sendable {
        private let lock = NSLock()
        private var pages: (String) -> Bool = { _ in false }
        func zero(where pick: @escaping (String) -> Bool) { lock.withLock { pages = pick } }
        func zeroes(_ path: String) -> Bool { lock.withLock { pages(path) } }
    }

    static func zeroingSite(_ box: ZeroBox) throws -> TestHTTPServer {
        try SampleSite.server(lifetime: .seconds(120)) { request, _ in
            guard request.path.hasPrefix("/Recipes/"), box.zeroes(request.path),
                  let page = SampleSite.page(request.path) else { return nil }
            return Reply(headers: [("Content-Type", "text/html; charset=utf-8")], body: zeroed(page))
        }
    }

    /// The sample's Chicken Tikka Masala (041172) prints 242 kcal and 17.4 g of fat.
    static let tikka = "ucla-menu:041172"

    static func tikkaCalories(_ snapshot: URL) throws -> Double? {
        try SnapshotReader.read(snapshot) { db in
            try Double.fetchOne(db, sql: "SELECT calories FROM food WHERE id = ?", arguments: [tikka])
        }
    }

    @Test func aSiteWhoseLabelsAllTurnToZerosKeepsItsLastGoodDays() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let box = ZeroBox()
        let server = try Self.zeroingSite(box)
        defer { server.stop() }
        let pipeline = workspace.appendingPathComponent("zeros.yml")
        try Data(SampleSite.pipelineYAML(name: "zeros", base: server.url("")).utf8).write(to: pipeline)
        let arguments = ["run", pipeline.path, "--workspace", workspace.path, "--quiet"]
        #expect(try await CommissaryProcess.run(arguments).status == 0)
        let good = try Self.latest(workspace, "zeros")
        #expect(try Self.tikkaCalories(good) == 242)
        // The zeroing is real: the page as served prints 0 kcal.
        let page = try #require(SampleSite.page("Recipes/041172/1"))
        #expect(String(decoding: Self.zeroed(page), as: UTF8.self).contains("Calories</span> 0 "))

        box.zero { _ in true }
        let zeroed = try await CommissaryProcess.run(arguments + ["--force"])
        #expect(zeroed.status == 6, "\(zeroed.error)")
        let snapshot = try Self.latest(workspace, "zeros")
        #expect(snapshot != good)
        #expect(try Self.tikkaCalories(snapshot) == 242)
        // Every label is as the good run published it: the days that read enough labels to be
        // judged are refused and kept, and a food another day read (which days read which
        // food depends on which comes first) keeps its published label.
        let labels = "SELECT id || ' ' || ifnull(calories, 'none') FROM food ORDER BY id"
        #expect(try Self.strings(labels, snapshot) == (try Self.strings(labels, good)))
        let stale = try Self.strings("SELECT message FROM _checks WHERE name = 'stale_partition' ORDER BY 1", snapshot)
        #expect(!stale.isEmpty)
        #expect(stale.allSatisfy { $0.contains("label(s) read print only zeros (zeroed_labels)") }, "\(stale)")
        #expect(try Self.count("SELECT count(*) FROM food_flag WHERE check_name = 'unfilled_label'", snapshot) == 0)
    }

    /// One label of zeros among good ones is below the day's sign, but that food keeps the
    /// label the latest snapshot published, marked stale; with zeroed labels let through it
    /// publishes the zeros, flagged, and says so.
    @Test func oneLabelTurnedToZerosKeepsItsPublishedLabel() async throws {
        for lettingThrough in [false, true] {
            let workspace = try Paths.temporaryFolder("one-zeroed-\(lettingThrough)")
            defer { try? FileManager.default.removeItem(at: workspace) }
            let box = ZeroBox()
            let server = try Self.zeroingSite(box)
            defer { server.stop() }
            let pipeline = workspace.appendingPathComponent("zeros.yml")
            let checks = "min_menu_items: 30" + (lettingThrough ? "\n  degraded_day: {zeroed_labels: warn}" : "")
            try Data(SampleSite.pipelineYAML(name: "zeros", base: server.url(""), checks: checks).utf8).write(to: pipeline)
            let arguments = ["run", pipeline.path, "--workspace", workspace.path, "--quiet"]
            #expect(try await CommissaryProcess.run(arguments).status == 0)

            box.zero { $0.hasPrefix("/Recipes/041172/") }
            let run = try await CommissaryProcess.run(arguments + ["--force"])
            let snapshot = try Self.latest(workspace, "zeros")
            let flags = try Self.strings("SELECT food_id FROM food_flag WHERE check_name = 'unfilled_label'", snapshot)
            if lettingThrough {
                #expect(run.status == 0, "\(run.error)")
                #expect(try Self.tikkaCalories(snapshot) == nil)
                #expect(flags == [Self.tikka])
            } else {
                #expect(run.status == 6, "\(run.error)")
                #expect(try Self.tikkaCalories(snapshot) == 242)
                #expect(flags.isEmpty)
                let stale = try Self.strings("SELECT message FROM _checks WHERE name = 'stale_labels'", snapshot)
                #expect(stale.count == 1 && stale.first?.contains("041172") == true, "\(stale)")
            }
        }
    }
}
