import FoodModel
import Foundation
@testable import Pipeline
import SourceAdapters
import Testing

/// The inputs fingerprint decides whether a night has anything new to publish, so it must
/// depend on what was read and never on which partition happened to read it.
@Suite struct InputFingerprintTests {
    private let spec = PipelineSpec(
        name: "fingerprint", description: nil, file: URL(fileURLWithPath: "/nonexistent/fingerprint.yml"), licence: "test",
        sources: [SourceSpec(name: "ucla-menu", adapter: UCLAMenuSiteAdapter(), location: .web("http://127.0.0.1:9/"),
                             dates: .range(from: ServiceDate("2026-10-10")!, to: ServiceDate("2026-10-11")!),
                             settings: UCLAMenuSiteAdapter.Settings(hours: false))],
        checks: CheckPolicy(minMenuItems: 0), fetch: FetchSettings())

    private func document(_ url: String, _ sha256: String, status: Int = 200) -> SourceDocument {
        SourceDocument(url: url, fetchedAt: "2026-10-10T02:15:00Z", status: status, sha256: sha256, charset: nil, byteCount: 1)
    }

    private func fingerprint(_ partitions: [(key: String, documents: [SourceDocument], failed: Bool)]) -> String {
        InputFingerprint.of(spec: spec, partitions: partitions.map {
            .init(source: "ucla-menu", key: $0.key, documents: $0.documents, failed: $0.failed)
        })
    }

    @Test func aFoodPageReadByTheOtherDayGivesTheSameFingerprint() {
        let day1 = document("/Menus/2026-10-10", "aa"), day2 = document("/Menus/2026-10-11", "bb")
        let recipe = document("/Recipes/100/1", "cc")
        // The first night, 2026-10-10 claimed the recipe page; the second, 2026-10-11 did, and
        // the partitions finished in the other order.
        let first = fingerprint([("2026-10-10", [day1, recipe], false), ("2026-10-11", [day2], false)])
        let second = fingerprint([("2026-10-11", [recipe, day2], false), ("2026-10-10", [day1], false)])
        #expect(first == second)
        // A document listed twice by one partition is one input.
        #expect(fingerprint([("2026-10-10", [day1, recipe, recipe], false), ("2026-10-11", [day2], false)]) == first)
    }

    @Test func whatWasReadAndWhatFailedChangeIt() {
        let day1 = document("/Menus/2026-10-10", "aa"), day2 = document("/Menus/2026-10-11", "bb")
        let base = fingerprint([("2026-10-10", [day1], false), ("2026-10-11", [day2], false)])
        #expect(base.count == 64)
        #expect(fingerprint([("2026-10-10", [day1], false), ("2026-10-11", [document("/Menus/2026-10-11", "bc")], false)]) != base)
        #expect(fingerprint([("2026-10-10", [day1], false), ("2026-10-11", [document("/Menus/2026-10-11", "bb", status: 404)], false)]) != base)
        #expect(fingerprint([("2026-10-10", [day1], false), ("2026-10-11", [day2], true)]) != base)
        #expect(fingerprint([("2026-10-10", [day1], false)]) != base)
        // Two copies of one page under two days are two inputs, not one.
        #expect(fingerprint([("2026-10-10", [day1], false), ("2026-10-11", [day1], false)])
                != fingerprint([("2026-10-10", [day1], false), ("2026-10-11", [], false)]))
    }
}
