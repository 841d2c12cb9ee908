import Basics
import FoodModel
import Foundation
import Pipeline
import Snapshot
import Testing
import TestSupport

/// A food document whose bytes did not change is not parsed again: the parse of the same bytes
/// is kept between runs (docs/architecture.md, "Parsed food documents"). Counted by the parse
/// stage's `food_documents_parsed` and `food_documents_from_cache`, on a feed of real recipe
/// documents served on 127.0.0.1.
@Suite struct FoodReadingCacheTests {
    typealias Schedule = FoodDocumentScheduleTests

    static func parseCounts(_ report: RunReport) -> [String: Int] {
        report.manifest.stages.first { $0.name == .parse }?.counts ?? [:]
    }

    /// Every row of the tables a food's document fills, sorted.
    static func foodRows(_ report: RunReport) throws -> [String] {
        let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))
        return try ["food", "food_nutrient", "food_code"].flatMap { table in
            try QueryResult.run("SELECT * FROM \(table)", on: snapshot).rows.map { "\(table) \($0)" }.sorted()
        }
    }

    /// Night 0 parses both documents. Night 1 the menu changes (its rows listed the other way
    /// round) and the day is read again, but both documents are fresh copies with the bytes
    /// parsed on night 0: neither is parsed, and the foods published are row for row night 0's.
    /// On night 7 both documents' period is over: 1007, corrected on the server, comes back with
    /// new bytes and is parsed (its new name published); 6185 answers 304 and is not.
    @Test func aChangedMenuParsesOnlyTheFoodDocumentsWhoseBytesChanged() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let feed = try Schedule.SmallFeed(listing: ["1007", "6185"])
        defer { feed.server.stop() }
        let spec = try feed.spec(in: workspace)
        let start = try #require(ServiceDate("2025-11-01"))
        func night(_ offset: Int) -> ServiceDate { ServiceDate(daysSinceEpoch: start.daysSinceEpoch + offset) }

        let first = try await Schedule.run(spec, workspace: workspace, on: start)
        #expect(first.published)
        #expect(Self.parseCounts(first)["food_documents_parsed"] == 2)
        #expect(Self.parseCounts(first)["food_documents_from_cache"] == nil)

        feed.serve("/menus/\(UCLARecipeDocumentsTests.date).json", try UCLARecipeDocumentsTests.menu(listing: ["6185", "1007"]))
        let second = try await Schedule.run(spec, workspace: workspace, on: night(1))
        #expect(second.published)
        #expect(Self.parseCounts(second)["partitions_from_cache"] == nil, "the changed day is read again")
        #expect(Self.parseCounts(second)["food_documents_parsed"] == nil)
        #expect(Self.parseCounts(second)["food_documents_from_cache"] == 2)
        #expect(Schedule.fetchCounts(second)["documents_fresh"] == 2)
        #expect(try Self.foodRows(second) == Self.foodRows(first))
        #expect(try Schedule.foodName(second, id: "1007") == [[.text("Tuna & Lentil Hummus Stacker"), .integer(1)]])

        let path = "/recipes/1007.json"
        let original = try String(contentsOf: UCLAJamixNights.folder.appendingPathComponent("recipes/1007.json"), encoding: .utf8)
        feed.serve(path, Data(original.replacingOccurrences(of: "Tuna & Lentil Hummus Stacker",
                                                            with: "Tuna & Lentil Hummus Stack").utf8))
        let eighth = try await Schedule.run(spec, workspace: workspace, on: night(7))
        #expect(eighth.published)
        #expect(Self.parseCounts(eighth)["food_documents_parsed"] == 1)
        #expect(Self.parseCounts(eighth)["food_documents_from_cache"] == 1)
        #expect(feed.server.requests(to: path).count == 2)
        #expect(try Schedule.foodName(eighth, id: "1007") == [[.text("Tuna & Lentil Hummus Stack"), .integer(1)]])
    }

    /// A forced run reads and parses everything again, whatever earlier runs kept.
    @Test func aForcedRunParsesEveryFoodDocument() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let feed = try Schedule.SmallFeed(listing: ["1007", "6185"])
        defer { feed.server.stop() }
        let spec = try feed.spec(in: workspace)
        let start = try #require(ServiceDate("2025-11-01"))
        _ = try await Schedule.run(spec, workspace: workspace, on: start)
        let forced = try await Schedule.run(spec, workspace: workspace, on: start, force: true)
        #expect(forced.published)
        #expect(Self.parseCounts(forced)["food_documents_parsed"] == 2)
        #expect(Self.parseCounts(forced)["food_documents_from_cache"] == nil)
    }
}
