import Basics
import FoodModel
import Foundation
import GRDB
import Logging
import RecipeNutrition
import Snapshot
import Testing
import TestSupport
@testable import Pipeline

/// The bundled pipelines name the nutrition reference: with it, the sample's recipes and the
/// nightly's recipe documents are estimated; without its file, a run publishes all the same, with
/// one warning saying why there are no estimates and what to run, unless the pipeline requires it.
@Suite struct NutritionReferencePipelineTests {
    /// Every one of the sample's twelve catalogue recipes has an estimate (or says why not), and
    /// the run raises no warning about the reference.
    @Test func theSampleEstimatesEachOfItsRecipes() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, _) = try SampleCopy.make(in: workspace)
        let report = try await PipelineRunner(
            spec: try SpecReader.read(spec), options: RunOptions(workspace: Workspace(root: workspace), today: try #require(ServiceDate("2026-10-12"))),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))
        func rows(_ sql: String) throws -> [[SQLValue]] { try QueryResult.run(sql, on: snapshot).rows }
        #expect(try rows("SELECT count(*) FROM recipe") == [[.integer(12)]])
        #expect(try rows("""
            SELECT count(*) FROM recipe r JOIN food_estimate e ON e.subject_id = r.id AND e.subject_kind = 'recipe'
            """) == [[.integer(12)]])
        #expect(try rows("""
            SELECT count(*) FROM food_estimate e WHERE reason IS NULL
               AND NOT EXISTS (SELECT 1 FROM v_food_estimate v WHERE v.food_id = e.subject_id AND v.nutrient_key = 'calories')
            """) == [[.integer(0)]])
        // A line per ingredient the recipe lists, each with its code.
        #expect(try rows("SELECT (SELECT count(*) FROM food_estimate_line), (SELECT count(*) FROM recipe_ingredient)")
                .first.map { $0[0] == $0[1] } == true)
        #expect(!report.manifest.checks.contains { $0.name == "nutrition_estimates" })
    }

    /// The bundled nightly pipeline over the first saved night: every recipe document with weighed
    /// rows (counted here from `food_component`) has its estimate beside its printed label.
    @Test func theNightlyEstimatesEachRecipeDocumentWithWeighedRows() async throws {
        let nightly = try UCLAJamixNightly()
        defer { nightly.close() }
        let (workspace, feed, spec) = (nightly.workspace, nightly.feed, nightly.spec)
        let night = UCLAJamixNights.nights[0]
        feed.nightBox.set(night)
        let report = try await PipelineRunner(
            spec: spec, options: RunOptions(workspace: Workspace(root: workspace), today: night),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))
        let weighed = try QueryResult.run("""
            SELECT count(DISTINCT food_id) FROM food_component WHERE amount > 0 AND NOT is_heading
            """, on: snapshot).rows
        let estimated = try QueryResult.run("SELECT count(*) FROM food_estimate WHERE subject_kind = 'food'", on: snapshot).rows
        guard case .integer(let documents) = weighed.first?[0] else {
            Issue.record("no count of weighed documents: \(weighed)")
            return
        }
        #expect(documents > 100, "\(documents)")
        #expect(estimated == weighed)
        #expect(try QueryResult.run("SELECT count(*) FROM food_estimate WHERE subject_kind = 'recipe'", on: snapshot).rows
                == [[.integer(0)]])
        #expect(!report.manifest.checks.contains { $0.name == "nutrition_estimates" })
    }

    /// A reference whose foods' rows are damaged where a run reads them (butter's energy, -1 kcal).
    /// Reading the pipeline reads only the foods' ids, so a dry run still plans the night; the run
    /// that estimates refuses the reference in one line, publishes nothing, and `latest` stays
    /// the snapshot of the run before.
    @Test func aDamagedReferenceStopsTheRunThatEstimatesAndKeepsTheLastGoodSnapshot() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, _) = try SampleCopy.make(in: workspace)
        let good = try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path])
        #expect(good.status == 0, "\(good.error)")
        let store = SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))
        let published = try #require(try store.latest(pipeline: "sample"))

        let damaged = workspace.appendingPathComponent("damaged/usda-sr24.sqlite")
        try FileManager.default.createDirectory(at: damaged.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: NutritionReference.location(of: "usda-sr24"), to: damaged)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: damaged.path)
        try await DatabaseQueue(path: damaged.path).write { db in
            try db.execute(sql: """
                UPDATE reference_food_nutrient SET amount_per_100g = -1 WHERE uid = '01001' AND nutrient = 'Energy'
                """)
            #expect(db.changesCount == 1)
        }
        let environment = ["COMMISSARY_NUTRITION_REFERENCE": damaged.path]
        let planned = try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path, "--dry-run"],
                                                      environment: environment)
        #expect(planned.status == 0, "\(planned.error)")
        let stopped = try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path, "--quiet"],
                                                      environment: environment)
        #expect(stopped.status == 1)
        #expect(stopped.error.contains("\(damaged.path): the nutrition reference has a value of the wrong type or out "
                                       + "of range in reference_food_nutrient (uid 01001): run scripts/nutrition-reference "
                                       + "--force"), "\(stopped.error)")
        #expect(try store.latest(pipeline: "sample") == published)
    }

    /// The real binary with the reference's file named where there is none: the sample publishes,
    /// one warning line says why there are no estimates and what to run, the manifest keeps it,
    /// and the snapshot has no estimate; the next run with the reference publishes its estimates.
    /// A pipeline that requires the reference stops instead.
    @Test func aMissingReferenceIsAWarningUnlessThePipelineRequiresIt() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, _) = try SampleCopy.make(in: workspace)
        let missing = workspace.appendingPathComponent("no-reference/usda-sr24.sqlite").path
        let environment = ["COMMISSARY_NUTRITION_REFERENCE": missing]
        let run = try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path, "--log-format", "text"],
                                                  environment: environment)
        #expect(run.status == 0, "\(run.error)")
        let message = "no nutrition estimates this run: the nutrition reference usda-sr24 is missing (\(missing)); "
            + "run scripts/nutrition-reference, which builds it from Debian's cronometer package"
        #expect(run.error.split(separator: "\n").filter { $0.contains("nutrition_estimates") }
                == ["  ! nutrition_estimates: " + message[...]], "\(run.error)")
        let published = try #require(run.output.split(separator: "\n").first { $0.hasPrefix("Published ") })
        let snapshot = URL(fileURLWithPath: String(published.dropFirst("Published ".count)))
        #expect(try QueryResult.run("SELECT count(*) FROM food_estimate", on: snapshot).rows == [[.integer(0)]])
        #expect(try QueryResult.run("SELECT count(*) FROM recipe", on: snapshot).rows == [[.integer(12)]])
        let manifest = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: snapshot.path + ".manifest.json"))) as? [String: Any])
        let checks = (manifest["checks"] as? [[String: Any]]) ?? []
        let warning = try #require(checks.first { $0["name"] as? String == "nutrition_estimates" })
        #expect(warning["severity"] as? String == "warning" && warning["passed"] as? Bool == false)
        #expect(warning["message"] as? String == message)
        // The page beside it says there are none, in one line.
        let page = try String(contentsOf: URL(fileURLWithPath: snapshot.path + ".report.html"), encoding: .utf8)
        #expect(page.contains("<p class=\"none\">No nutrition estimates in this snapshot"))

        // Once the reference is there, the next run is not "unchanged": it publishes the estimates.
        let built = try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path])
        #expect(built.status == 0, "\(built.error)")
        let next = try #require(built.output.split(separator: "\n").first { $0.hasPrefix("Published ") })
        #expect(try QueryResult.run("SELECT count(*) FROM food_estimate",
                                    on: URL(fileURLWithPath: String(next.dropFirst("Published ".count)))).rows
                == [[.integer(12)]])

        // Required: the run stops before fetching anything, in one line naming the file.
        let text = try String(contentsOf: spec, encoding: .utf8)
        let required = text.replacingOccurrences(of: "nutrition_reference: usda-sr24",
                                                 with: "nutrition_reference: {name: usda-sr24, required: true}")
        #expect(required != text)
        try Data(required.utf8).write(to: spec)
        let stopped = try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path],
                                                      environment: environment)
        #expect(stopped.status != 0)
        #expect(stopped.error == "error: \(missing): the nutrition reference usda-sr24 is missing: run "
                + "scripts/nutrition-reference, which builds it from Debian's cronometer package (or scripts/install, "
                + "which puts it in PREFIX/share/commissary, where a system service finds it)\n", "\(stopped.error)")
    }

    @Test func theLongFormTakesOnlyANameAndWhetherItIsRequired() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func read(_ value: String) throws -> PipelineSpec {
            try SpecReader.parse("""
                pipeline: reference
                licence: test
                nutrition_reference: \(value)
                sources:
                  - name: mealdb
                    adapter: mealdb-dump
                    location: \(Paths.mealDump.path)
                """, file: folder.appendingPathComponent("reference.yml"))
        }
        let error = try #require(throws: Failure.self) { try read("{name: usda-sr24, needed: yes}") }
        #expect(error.description.contains("nutrition_reference.needed: unknown key"), "\(error)")
        let unknown = try #require(throws: Failure.self) { try read("{name: usda-sr99}") }
        #expect(unknown.description.hasSuffix("nutrition_reference.name: unknown nutrition reference \"usda-sr99\"; known: usda-sr24"),
                "\(unknown)")
    }
}
