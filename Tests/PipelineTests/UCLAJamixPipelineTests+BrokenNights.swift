import FoodModel
import Foundation
import Logging
import Pipeline
import Snapshot
import Testing
import TestSupport

/// Nights on which the feed breaks: a date's menu, the ingredient documents, the recipe documents.
extension UCLAJamixPipelineTests {
    /// A night whose feed breaks one date's menu publishes that date as the night before had it,
    /// marked stale; the next good night replaces it.
    @Test func aBrokenDateIsCarriedFromTheNightBefore() async throws {
        let nightly = try UCLAJamixNightly()
        defer { nightly.close() }
        let (workspace, feed, spec) = (nightly.workspace, nightly.feed, nightly.spec)
        let date = try #require(ServiceDate("2025-04-09"))
        let menuOf = { (report: RunReport) throws -> [String] in
            let file = URL(fileURLWithPath: try #require(report.snapshotPath))
            return try QueryResult.run("""
                SELECT meal || '|' || restaurant || '|' || section || '|' || item || '|' || food_id
                FROM v_menu WHERE date = '\(date)' ORDER BY 1
                """, on: file).rows.map { "\($0)" }
        }

        feed.nightBox.set(UCLAJamixNights.nights[0])
        let first = try await run(spec, night: UCLAJamixNights.nights[0], workspace: workspace)
        #expect(first.published && first.stale.isEmpty)
        let before = try menuOf(first)
        #expect(before.count == (try UCLAJamixNights.rows(night: UCLAJamixNights.nights[0], date: date)).count)

        feed.nightBox.set(UCLAJamixNights.nights[1])
        feed.nightBox.breakMenu(of: date)
        let broken = try await run(spec, night: UCLAJamixNights.nights[1], workspace: workspace)
        #expect(broken.published, "\(broken.blockingChecks.map(\.message))")
        // The date, and the labels of the foods only that date's menu named (its recipe documents
        // were not asked for, since the menu could not be read), both as the night before had them.
        #expect(broken.stale.count == 2, "\(broken.stale)")
        #expect(broken.stale.first?.hasPrefix("ucla/2025-04-09 is stale") == true)
        #expect(broken.stale.last?.hasPrefix("ucla-jamix: ") == true && broken.stale.last?.contains("food label(s) kept") == true)
        let stale = try SnapshotReader.stalePartitions(of: URL(fileURLWithPath: try #require(broken.snapshotPath)))
        #expect(Set(stale.map(\.keptRunId)) == [first.manifest.runId])
        let carried = try menuOf(broken)
        #expect(carried.count == before.count && carried == before)

        feed.nightBox.set(UCLAJamixNights.nights[2])
        feed.nightBox.breakMenu(of: nil)
        let mended = try await run(spec, night: UCLAJamixNights.nights[2], workspace: workspace)
        #expect(mended.published && mended.stale.isEmpty)
        #expect(try menuOf(mended).count == (try UCLAJamixNights.rows(night: UCLAJamixNights.nights[2], date: date)).count)
    }

    /// Ingredient documents that fail, or arrive with their nutrient block renamed, on a night
    /// that reads them all again: every label keeps what the night before published, marked stale.
    @Test(arguments: [UCLAJamixFeedServer.NightBox.Ingredients.failing, .renamed])
    func brokenFoodDocumentsKeepTheLabelsOfTheNightBefore(_ breakage: UCLAJamixFeedServer.NightBox.Ingredients) async throws {
        let nightly = try UCLAJamixNightly()
        defer { nightly.close() }
        let (workspace, feed, spec) = (nightly.workspace, nightly.feed, nightly.spec)
        let nutrients = { (report: RunReport) throws -> [String] in
            let file = URL(fileURLWithPath: try #require(report.snapshotPath))
            return try QueryResult.run("""
                SELECT food_id || '|' || nutrient_key || '|' || ifnull(amount, '') FROM food_nutrient ORDER BY 1
                """, on: file).rows.map { "\($0)" }
        }
        feed.nightBox.set(UCLAJamixNights.nights[0])
        let good = try await run(spec, night: UCLAJamixNights.nights[0], workspace: workspace)
        let before = try nutrients(good)
        // Labels come from the saved ingredient documents that the night's menus name.
        #expect(!before.isEmpty)

        feed.nightBox.serveIngredients(breakage)
        let broken = try await PipelineRunner(
            spec: spec, options: RunOptions(workspace: Workspace(root: workspace), today: UCLAJamixNights.nights[0], force: true),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        #expect(broken.published, "\(breakage): \(broken.blockingChecks.map(\.message))")
        let after = try nutrients(broken)
        #expect(after.count == before.count && after == before, "\(breakage)")
        // The labels kept say what they are per, as the night before published them.
        #expect(try QueryResult.run("""
            SELECT count(*) FROM food f WHERE f.label_basis IS NOT '100 g'
            AND EXISTS (SELECT 1 FROM food_nutrient fn WHERE fn.food_id = f.id)
            """, on: URL(fileURLWithPath: try #require(broken.snapshotPath))).rows == [[.integer(0)]])
        #expect(broken.stale.count == 1 && broken.stale.first?.hasPrefix("ucla-jamix: ") == true, "\(broken.stale)")
        let stale = try SnapshotReader.stalePartitions(of: URL(fileURLWithPath: try #require(broken.snapshotPath)))
        // One stale row per ingredient that had a label (the recipe documents are served as before).
        let labelled = try QueryResult.run(
            "SELECT count(DISTINCT food_id) FROM food_nutrient WHERE food_id LIKE 'ucla-jamix:ingredient-%'",
                                           on: URL(fileURLWithPath: try #require(good.snapshotPath))).rows
        #expect([[.integer(Int64(stale.count))]] == labelled, "\(breakage)")

        feed.nightBox.serveIngredients(.served)
        let mended = try await run(spec, night: UCLAJamixNights.nights[0], workspace: workspace)
        #expect(mended.published && mended.stale.isEmpty, "\(breakage): \(mended.stale)")
        #expect(try nutrients(mended) == before)
    }

    /// A first night on which no recipe document is found (the server moved them): the menus are there, but most of
    /// their foods would have no nutrition, so the pipeline's `min_labelled_share` holds the
    /// snapshot back and says why; the next night, with the documents answering, publishes.
    @Test func aNightWithoutItsRecipeDocumentsDoesNotPublishSilently() async throws {
        let nightly = try UCLAJamixNightly()
        defer { nightly.close() }
        let (workspace, feed, spec) = (nightly.workspace, nightly.feed, nightly.spec)
        feed.nightBox.set(UCLAJamixNights.nights[0])
        feed.nightBox.serveRecipes(false)
        let failing = try await run(spec, night: UCLAJamixNights.nights[0], workspace: workspace)
        #expect(!failing.published)
        let blocking = failing.blockingChecks.filter { $0.name == "labelled_share" }
        #expect(blocking.count == 1)
        #expect(blocking.first?.message.contains("below checks.min_labelled_share (40.0%)") == true, "\(blocking)")

        feed.nightBox.serveRecipes(true)
        let answering = try await run(spec, night: UCLAJamixNights.nights[0], workspace: workspace)
        #expect(answering.published, "\(answering.blockingChecks.map(\.message))")
    }
}
