import Foundation
import Logging
import Pipeline
import Snapshot
import Testing
import TestSupport

/// `checks.min_labelled_share` is per source of the pipeline, as documented, not per platform:
/// two Bon Appétit campuses in one pipeline, the real St. Olaf answer (every item prints its
/// calories) and a second campus whose answer is the same day with other item ids and no
/// nutrition at all. Together more than 40% of their items carry a label; the bare campus none.
@Suite struct LabelledSharePerSourceTests {
    static let barePath = "/api/2/menus?cafe=263&date=2016-11-22"

    /// St. Olaf's answer as café 263 of another campus: every item id moved by 90,000,000 (so
    /// its foods are its own) and every item's nutrition left out.
    static func bareAnswer() throws -> Data {
        var top = try #require(try JSONSerialization.jsonObject(
            with: CampusesPipelineTests.answer(date: "2016-11-22")) as? [String: Any])
        func moved(_ id: String) -> String { Int(id).map { String($0 + 90_000_000) } ?? "x" + id }
        var items: [String: Any] = [:]
        for (id, value) in try #require(top["items"] as? [String: [String: Any]]) {
            var item = value
            item["id"] = moved(id)
            item["nutrition"] = ["kcal": "", "well_being": "", "well_being_image": ""]
            item.removeValue(forKey: "nutrition_details")
            items[moved(id)] = item
        }
        top["items"] = items
        var days = try #require(top["days"] as? [[String: Any]])
        var stav = try #require((days[0]["cafes"] as? [String: Any])?["261"] as? [String: Any])
        stav["name"] = "Bare Hall"
        stav["dayparts"] = (stav["dayparts"] as? [[[String: Any]]] ?? []).map { dayparts in
            dayparts.map { daypart in
                var daypart = daypart
                daypart["stations"] = (daypart["stations"] as? [[String: Any]] ?? []).map { station in
                    var station = station
                    station["items"] = (station["items"] as? [String] ?? []).map(moved)
                    return station
                }
                return daypart
            }
        }
        days[0]["cafes"] = ["263": stav]
        top["days"] = days
        return try JSONSerialization.data(withJSONObject: top)
    }

    /// Stav Hall's listed items (station entries) whose item prints a number of calories above
    /// zero: a label of all zeros ("0" calories and nothing else) is stored as no label.
    static func stavItemsWithCalories() throws -> Int {
        let top = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: CampusesPipelineTests.stOlaf)) as? [String: Any])
        let day = try #require((top["days"] as? [[String: Any]])?.first)
        let cafe = try #require((day["cafes"] as? [String: Any])?["261"] as? [String: Any])
        let items = top["items"] as? [String: [String: Any]] ?? [:]
        let listed = (cafe["dayparts"] as? [[[String: Any]]] ?? []).flatMap { $0 }
            .flatMap { $0["stations"] as? [[String: Any]] ?? [] }.flatMap { $0["items"] as? [String] ?? [] }
        return listed.filter { id in
            let kcal = (items[id]?["nutrition"] as? [String: Any])?["kcal"] as? String ?? ""
            return Double(kcal.trimmingCharacters(in: .whitespaces)).map { $0 > 0 } ?? false
        }.count
    }

    @Test func aSourceWithoutLabelsBlocksThoughThePlatformsShareWouldPass() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let stolafAnswer = try CampusesPipelineTests.answer(date: "2016-11-22")
        let bare = try Self.bareAnswer()
        let server = try TestHTTPServer { request, _ in
            let body: Data? = switch request.path {
            case CampusesPipelineTests.menusPath + "2016-11-22": stolafAnswer
            case Self.barePath: bare
            default: nil
            }
            return body.map { Reply(headers: [("Content-Type", "application/json")], body: $0, keepAlive: true) }
                ?? Reply(status: 404, keepAlive: true)
        }
        defer { server.stop() }
        let yaml = """
            pipeline: two-campuses
            licence: test
            sources:
              - name: stolaf
                adapter: bonappetit
                campus: St. Olaf
                location: \(server.url(""))
                cafes: [261, 262]
                cafes_answer: false
                dates: {from: 2016-11-22, to: 2016-11-22}
              - name: bare
                adapter: bonappetit
                campus: Bare College
                location: \(server.url(""))
                cafes: [263]
                cafes_answer: false
                dates: {from: 2016-11-22, to: 2016-11-22}
            checks:
              min_menu_items: 1
              min_labelled_share: {block: 0.4}
            fetch: {delay_ms: 0, retries: 0, timeout_seconds: 10}
            """
        let spec = try SpecReader.parse(yaml, file: workspace.appendingPathComponent("two.yml"))
        let report = try await PipelineRunner(
            spec: spec, options: RunOptions(workspace: Workspace(root: workspace), today: CampusesPipelineTests.uclaNight),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        // St. Olaf lists its items in two cafés, the bare campus in one; a St. Olaf item carries a
        // label when it prints calories above zero (counted in the file here: 308 of 380). Together, more than 40%
        // carry one, which a share per platform let through.
        let items = try CampusesPipelineTests.stavItems()
        let labelled = try Self.stavItemsWithCalories()
        #expect(Double(2 * labelled) / Double(3 * items) > 0.4)
        #expect(!report.published)
        let shares = report.manifest.checks.filter { $0.name == "labelled_share" }
        #expect(shares.map(\.source) == ["bare", "stolaf"])
        let bareShare = try #require(shares.first { $0.source == "bare" })
        #expect(bareShare.value == 0 && !bareShare.passed && bareShare.severity == .error)
        #expect(bareShare.message.hasPrefix("bare: 0 of \(items) menu item(s) carry a label"), "\(bareShare.message)")
        let stolaf = try #require(shares.first { $0.source == "stolaf" })
        #expect(stolaf.passed && stolaf.message.hasPrefix("stolaf: \(2 * labelled) of \(2 * items) menu item(s) carry a label"),
                "\(stolaf.message)")
        #expect(report.blockingChecks.map(\.name) == ["labelled_share"])
    }
}
