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

    /// Estimates are written batch by batch as the dump's recipes come back from the scratch
    /// file; a meal read twice is estimated once, the later reading replacing the earlier whole.
    @Test func aMealReadTwiceFromADumpHasOneEstimate() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (dump, repeated) = try MealDBDumpStreamingTests().reversedDump(in: folder)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("nutrition"),
                                                   withDestinationURL: Paths.pipelines.appendingPathComponent("nutrition"))
        let spec = try SpecReader.parse("""
            pipeline: reversed
            licence: test
            nutrition_reference: usda-sr24
            sources:
              - name: meals
                adapter: mealdb-dump
                location: \(dump.lastPathComponent)
            checks: {min_recipes: 1}
            """, file: folder.appendingPathComponent("reversed.yml"))
        let report = try await BackfillFixtures.runner(spec, workspace: folder).run()
        let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))
        #expect(try QueryResult.run("SELECT count(*) FROM food_estimate", on: snapshot).rows == [[.integer(442)]])
        // Its lines are the meal's ingredients, once each.
        #expect(try QueryResult.run("""
            SELECT (SELECT count(*) FROM food_estimate_line WHERE subject_id = 'mealdb:\(repeated)'),
                   (SELECT count(*) FROM recipe_ingredient WHERE recipe_id = 'mealdb:\(repeated)')
            """, on: snapshot).rows.first.map { $0[0] == $0[1] } == true)
    }

    @Test func anUnknownReferenceIsRefusedAtItsKey() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: Failure.self) { try spec(in: folder, reference: "usda-sr99") }
        #expect(error.code == .pipelineFile)
        #expect(error.description.hasSuffix("nutrition_reference: unknown nutrition reference \"usda-sr99\"; known: usda-sr24"))
    }
}

/// A kitchen's recipe documents through the live feed's adapter: each dish keeps its printed
/// label and gets its estimate beside it, per serving where the document gives a portion.
@Suite struct KitchenEstimatePipelineTests {
    @Test func aRecipeDocumentKeepsItsLabelAndGetsAnEstimateBesideIt() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let mirror = workspace.appendingPathComponent("jamix")
        try FileManager.default.createDirectory(at: mirror.appendingPathComponent("recipes"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: mirror.appendingPathComponent("menus"), withIntermediateDirectories: true)
        for id in ["1180", "2836"] {
            try FileManager.default.copyItem(at: UCLARecipeDocumentsTests.recipes.appendingPathComponent("\(id).json"),
                                             to: mirror.appendingPathComponent("recipes/\(id).json"))
        }
        let date = UCLARecipeDocumentsTests.date
        try UCLARecipeDocumentsTests.menu(listing: ["1180", "2836"]).write(to: mirror.appendingPathComponent("menus/\(date).json"))
        try FileManager.default.createSymbolicLink(at: workspace.appendingPathComponent("nutrition"),
                                                   withDestinationURL: Paths.pipelines.appendingPathComponent("nutrition"))
        let file = workspace.appendingPathComponent("kitchen.yml")
        try Data("""
            pipeline: kitchen
            nutrition_reference: usda-sr24
            sources:
              - name: ucla
                adapter: ucla-jamix
                location: \(mirror.path)
                dates: {from: \(date), to: \(date)}
            checks: {min_menu_items: 1}
            """.utf8).write(to: file)
        let report = try await PipelineRunner(
            spec: try SpecReader.read(file), options: RunOptions(workspace: Workspace(root: workspace), today: date),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))
        func rows(_ sql: String) throws -> [[SQLValue]] { try QueryResult.run(sql, on: snapshot).rows }
        // Roasted Eggplant (recipes/1180.json): printed 59.0 kcal per 100 g, kept as its label.
        #expect(try rows("SELECT calories FROM food WHERE id = 'ucla-jamix:recipe-1180'") == [[.real(59)]])
        // Estimated 58.05 kcal per 100 g (KitchenEstimateTests works it out); its 2.98 oz portion
        // is 84.4816 g, so 58.05 × 0.844816 = 49.04 kcal a serving.
        let estimate = try rows("""
            SELECT kind, amount_per_100g, amount_per_serving, matched_share FROM v_food_estimate
            WHERE food_id = 'ucla-jamix:recipe-1180' AND nutrient_key = 'calories'
            """)
        guard case .real(let per100g) = estimate.first?[1], case .real(let perServing) = estimate.first?[2] else {
            Issue.record("no estimate of energy: \(estimate)")
            return
        }
        #expect(estimate.first?[0] == .text("food") && estimate.first?[3] == .real(1))
        #expect(abs(per100g - 58.05) < 0.01 && abs(perServing - 49.04) < 0.01)
        #expect(try rows("SELECT cooking_loss_percent FROM food_estimate WHERE subject_id = 'ucla-jamix:recipe-2836'")
                == [[.real(28.85)]])
        // Its three rows (eggplant, canola oil, sea salt) are synonyms, each with its code beside the wording.
        #expect(try rows("""
            SELECT matched_by, reason_code FROM food_estimate_line WHERE subject_id = 'ucla-jamix:recipe-1180' ORDER BY position
            """) == Array(repeating: [.text("synonym"), .text("matched")], count: 3))
        #expect(try rows("SELECT count(*) FROM food_estimate WHERE reason_code IS NOT NULL") == [[.integer(0)]])
        // The report page compares the printed and estimated energy per 100 g of the dishes that
        // have both, read here through `v_food_estimate`: 1180's is |58.05 − 59| / 59 = 1.6 %.
        let pairs = try rows("""
            SELECT f.calories, v.amount_per_100g FROM food f JOIN v_food_estimate v ON v.food_id = f.id
            WHERE v.nutrient_key = 'calories' AND f.label_basis = '100 g' AND f.calories > 0 ORDER BY f.id
            """).compactMap { row -> Double? in
                guard case .real(let printed) = row[0], case .real(let estimated) = row[1] else { return nil }
                return abs(estimated - printed) / printed
            }.sorted()
        let median = pairs.count % 2 == 1 ? pairs[pairs.count / 2] : (pairs[pairs.count / 2 - 1] + pairs[pairs.count / 2]) / 2
        #expect(pairs.contains { abs($0 - 0.95 / 59) < 0.001 }, "\(pairs)")
        let page = try String(contentsOf: snapshot.appendingPathExtension("report.html"), encoding: .utf8)
        #expect(!pairs.isEmpty && page.contains("<p>\(pairs.count) dish(es) print their energy per 100 g and have an estimate: "
            + "the estimate lies \(String(format: "%.1f", median * 100)) % from the printed"), "\(pairs)")
    }
}

/// `commissary parse --nutrition-reference` prints the page's estimates beside it.
@Suite struct ParseEstimateTests {
    @Test func parsePrintsEachRecipesEstimateBesideThePage() async throws {
        let page = Paths.sharedData.appendingPathComponent("themealdb/responses/lookup-52771.json")
        let run = try await CommissaryProcess.run(["parse", "--adapter", "mealdb-dump", page.path,
                                                   "--nutrition-reference", "usda-sr24"])
        #expect(run.status == 0, "\(run.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect((json["page"] as? [[String: Any]])?.first?["name"] as? String == "Spicy Arrabiata Penne")
        let estimate = try #require((json["nutrition_estimates"] as? [[String: Any]])?.first)
        #expect(estimate["subject_id"] as? String == "mealdb:52771")
        // Its third line, "3 cloves" of garlic: SR's garlic (11215) gives "1 clove = 3.0 g".
        let garlic = try #require((estimate["lines"] as? [[String: Any]])?.first { $0["position"] as? Int == 3 })
        #expect(garlic["match_id"] as? String == "11215")
        #expect(garlic["grams"] as? Double == 9)
    }
}
