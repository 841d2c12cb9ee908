import Basics
import FoodModel
import Foundation
import Logging
import Snapshot
import Testing
import TestSupport
@testable import Pipeline

/// A pipeline naming `nutrition_reference` publishes an estimate for every recipe, beside and
/// apart from printed labels, through `v_food_estimate`.
@Suite struct EstimatePipelineTests {
    /// A recipes pipeline over the real 442-meal dump, with the reference's synonyms found beside it.
    func spec(in folder: URL, reference: String = "usda-sr24") throws -> PipelineSpec {
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("nutrition"),
                                                   withDestinationURL: Paths.pipelines.appendingPathComponent("nutrition"))
        return try SpecReader.parse("""
            pipeline: estimates
            licence: test
            nutrition_reference: \(reference)
            sources:
              - name: mealdb
                adapter: mealdb-dump
                location: \(Paths.mealDump.path)
            checks: {min_recipes: 1}
            """, file: folder.appendingPathComponent("estimates.yml"))
    }

    @Test func everyRecipeOfTheDumpIsPublishedWithItsEstimate() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try await BackfillFixtures.runner(try spec(in: folder), workspace: folder).run()
        let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))
        #expect(try QueryResult.run("SELECT count(*) FROM food_estimate WHERE subject_kind = 'recipe'", on: snapshot).rows
                == [[.integer(442)]])
        #expect(try QueryResult.run("SELECT count(*) FROM food_estimate WHERE subject_id NOT IN (SELECT id FROM recipe)",
                                    on: snapshot).rows == [[.integer(0)]])
        // Every estimate has its energy in the view, or says why it has none.
        #expect(try QueryResult.run("""
            SELECT count(*) FROM food_estimate e WHERE reason IS NULL
               AND NOT EXISTS (SELECT 1 FROM v_food_estimate v WHERE v.food_id = e.subject_id AND v.nutrient_key = 'calories')
            """, on: snapshot).rows == [[.integer(0)]])
        // Tuna Nicoise (52852): its olive oil weighed as 2 tablespoons of SR's 13.5 g, matched by synonym.
        #expect(try QueryResult.run("""
            SELECT reference_id, grams, matched_by FROM food_estimate_line WHERE subject_id = 'mealdb:52852' AND position = 2
            """, on: snapshot).rows == [[.text("04053"), .real(27), .text("synonym")]])
        // TheMealDB gives no serving, so there is no amount per serving.
        #expect(try QueryResult.run("SELECT count(*) FROM v_food_estimate WHERE amount_per_serving IS NOT NULL",
                                    on: snapshot).rows == [[.integer(0)]])
    }

    @Test func anUnknownReferenceIsRefusedAtItsKey() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: Failure.self) { try spec(in: folder, reference: "usda-sr99") }
        #expect(error.code == .pipelineFile)
        #expect(error.description.hasSuffix("nutrition_reference: unknown nutrition reference \"usda-sr99\"; known: usda-sr24"))
    }
}
