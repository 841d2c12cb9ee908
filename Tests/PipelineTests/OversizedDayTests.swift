import Foundation
import Snapshot
import Testing
import TestSupport

/// A day with more meals, or a meal with more items, than the snapshot's ids can number is a
/// damaged day: refused like any degraded day (its last good version kept, stale, exit 6), not a
/// night that ends with the machine's status (4) and "cannot write the menus". The real binary
/// on St. Olaf's real Bon Appétit answer, then on the same answer swollen.
@Suite(.serialized) struct OversizedDayTests {
    /// The real answer with café 261's dayparts replaced by `meals` dayparts, each listing the
    /// café's first item `items` times in one station.
    static func swollen(meals: Int, items: Int) throws -> Data {
        var top = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: CampusesPipelineTests.stOlaf)) as? [String: Any])
        var days = try #require(top["days"] as? [[String: Any]])
        var cafes = try #require(days[0]["cafes"] as? [String: Any])
        var cafe = try #require(cafes["261"] as? [String: Any])
        let dayparts = (cafe["dayparts"] as? [[[String: Any]]] ?? []).flatMap { $0 }
        let item = try #require(dayparts.flatMap { $0["stations"] as? [[String: Any]] ?? [] }
            .flatMap { $0["items"] as? [String] ?? [] }.first)
        var template = try #require(dayparts.first)
        template["stations"] = [["label": "grill", "items": Array(repeating: item, count: items)]]
        cafe["dayparts"] = [(1...meals).map { number in
            var daypart = template
            daypart["label"] = "Meal \(number)"
            daypart["id"] = String(number)
            return daypart
        }]
        cafes["261"] = cafe
        days[0]["cafes"] = cafes
        top["days"] = days
        return try JSONSerialization.data(withJSONObject: top)
    }

    private func refusesWithTheLimit(_ answer: Data, saying limit: String) async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let site = try StOlafSite(answer: try Data(contentsOf: CampusesPipelineTests.stOlaf), workspace: workspace)
        defer { site.server.stop() }
        let arguments = ["run", site.spec.path, "--workspace", workspace.path, "--quiet"]
        let good = try await CommissaryProcess.run(arguments)
        #expect(good.status == 0, "\(good.error)")
        let store = SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))
        let first = try #require(try store.latest(pipeline: "stolaf"))
        let items = try QueryResult.run("SELECT count(*) FROM menu_item", on: first).rows

        site.serve(answer)
        let swollen = try await CommissaryProcess.run(arguments + ["--force"])
        // Published with the day's last good version, stale: a degraded day's status.
        #expect(swollen.status == 6, "\(swollen.error)")
        #expect(swollen.error.contains(limit), "\(swollen.error)")
        #expect(!swollen.error.contains("cannot write the menus"), "\(swollen.error)")
        #expect(swollen.error.split(separator: "\n").count == 1, "\(swollen.error)")
        let latest = try #require(try store.latest(pipeline: "stolaf"))
        #expect(try QueryResult.run("SELECT count(*) FROM menu_item", on: latest).rows == items)
        #expect(try QueryResult.run("SELECT count(*) FROM _stale", on: latest).rows == [[.integer(1)]])
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.appendingPathComponent("staging").path).isEmpty)
    }

    @Test func aDayOfAHundredMealsIsRefusedAndItsLastGoodVersionKept() async throws {
        try await refusesWithTheLimit(Self.swollen(meals: 100, items: 1),
                                      saying: "100 meals in a day, more than the 99 a day may have")
    }

    @Test func aMealOfAHundredThousandItemsIsRefusedAndItsLastGoodVersionKept() async throws {
        try await refusesWithTheLimit(Self.swollen(meals: 1, items: 100_000),
                                      saying: "Meal 1 has 100000 menu item(s), more than the 99999 a meal may have")
    }
}
