import Foundation
import Logging
import Pipeline
import Snapshot
import Testing
import TestSupport

/// Bon Appétit's allergen icons through a whole run: the real St. Olaf answer, served on
/// 127.0.0.1, whose first listed items print Penn's allergen icons by label beside Penn's real
/// legend (`bonappetit-2022`), as 2022 answers do. The snapshot knows every code, and tells
/// "may contain milk" from "contains milk".
@Suite struct MayContainPipelineTests {
    /// Penn's allergen icons, by id in its legend, and what their descriptions say may be in
    /// the dish (read by hand from the file).
    static let icons: [(id: String, label: String, terms: [String])] = [
        ("253", "Peanut", ["peanuts"]), ("254", "Tree Nut", ["tree_nuts"]), ("255", "Fish", ["fish"]),
        ("256", "Shellfish", ["crustacean_shellfish"]), ("257", "Wheat/Gluten", ["gluten", "wheat"]),
        ("260", "Soy", ["soybeans"]), ("258", "Milk", ["milk"]), ("259", "Egg", ["eggs"]), ("262", "Ask Us", []),
    ]

    /// The St. Olaf answer (both cafés, as `CampusesPipelineTests` serves it) with Penn's legend as
    /// its icon table and item `n` of Stav Hall's list printing icon `n`; the items, in order.
    static func answer() throws -> (Data, [String]) {
        var top = try #require(try JSONSerialization.jsonObject(
            with: CampusesPipelineTests.answer(date: "2016-11-22")) as? [String: Any])
        let penn = try #require(try JSONSerialization.jsonObject(
            with: SharedData.load("bonappetit-2022/penn-cafes-2022-10-08.json")) as? [String: Any])
        let campuses = try #require((penn["result_data"] as? [String: Any])?["campuses"] as? [String: Any])
        let legend = ((campuses["203"] as? [String: Any])?["cafes"] as? [String: Any])?["593"] as? [String: Any]
        top["cor_icons"] = try #require(legend?["cor_icons"])
        let day = try #require((top["days"] as? [[String: Any]])?.first)
        let stav = try #require((day["cafes"] as? [String: Any])?["261"] as? [String: Any])
        var listed: [String] = []
        for daypart in (stav["dayparts"] as? [[[String: Any]]] ?? []).flatMap({ $0 }) {
            for station in daypart["stations"] as? [[String: Any]] ?? [] {
                for id in station["items"] as? [String] ?? [] where !listed.contains(id) { listed.append(id) }
            }
        }
        var items = try #require(top["items"] as? [String: Any])
        for (icon, itemId) in zip(icons, listed) {
            var item = try #require(items[itemId] as? [String: Any])
            item["cor_icon"] = [icon.id: icon.label]
            items[itemId] = item
        }
        top["items"] = items
        return (try JSONSerialization.data(withJSONObject: top), Array(listed.prefix(icons.count)))
    }

    @Test func aMayContainIconIsKnownAndNeverAContains() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (body, printing) = try Self.answer()
        let server = try TestHTTPServer { request, _ in
            request.path == CampusesPipelineTests.menusPath + "2016-11-22"
                ? Reply(headers: [("Content-Type", "application/json")], body: body, keepAlive: true)
                : Reply(status: 404, keepAlive: true)
        }
        defer { server.stop() }
        let spec = try SpecReader.parse(CampusesPipelineTests.stolafPipeline(server),
                                        file: workspace.appendingPathComponent("stolaf.yml"))
        let report = try await PipelineRunner(
            spec: spec, options: RunOptions(workspace: Workspace(root: workspace), today: CampusesPipelineTests.uclaNight),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        #expect(report.published)
        let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))
        func rows(_ sql: String) throws -> [[SQLValue]] { try QueryResult.run(sql, on: snapshot).rows }

        #expect(try rows("SELECT code FROM dietary_code WHERE kind = 'unknown'") == [])
        #expect(try rows("SELECT passed FROM _checks WHERE name = 'unknown_code'").allSatisfy { $0 == [.integer(1)] })
        for (icon, itemId) in zip(Self.icons, printing) {
            let terms = try rows("""
                SELECT term, presence, code FROM v_food_term WHERE food_id = 'bonappetit:\(itemId)' AND kind = 'allergen'
                ORDER BY term
                """)
            #expect(terms == icon.terms.map { [.text($0), .text("may_contain"), .text("may contain " + icon.label.lowercased())] },
                    "\(icon.label): \(terms)")
        }
        // The icons print nowhere else in the answer: no Bon Appétit food is said to contain an allergen.
        #expect(try rows("SELECT count(*) FROM v_food_term WHERE kind = 'allergen' AND presence = 'contains'") == [[.integer(0)]])
        // The menus' view says it per item too, for each of the two cafés that list the item.
        #expect(try rows("""
            SELECT DISTINCT restaurant, presence FROM v_menu_code WHERE food_id = 'bonappetit:\(printing[6])' AND term = 'milk'
            ORDER BY restaurant
            """) == [[.text("Commons"), .text("may_contain")], [.text("Stav Hall"), .text("may_contain")]])
    }
}
