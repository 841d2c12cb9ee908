import Basics
import Foundation
import Pipeline
import Snapshot
import Testing
import TestSupport

/// Under load: a TheMealDB dump used to be held whole (798 MB for 100,000 recipes, so about 8 GB
/// for a million). The binary now reads it in pieces and sets the recipes aside on disk, so a
/// dump eight times larger needs about the same memory. The million-recipe figure is the
/// benchmark's (`commissary-bench`); this checks the same property on the real binary, in the
/// figure every run's manifest records.
@Suite struct BoundedMemoryTests {
    /// The 442 real meals repeated under new ids up to `count`, as TheMealDB lists a dump (ids
    /// ascending), in `{"meals": [...]}`.
    func dump(of count: Int, at file: URL) throws {
        let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: Paths.mealDump))
        let meals = try #require((json as? [String: Any])?["meals"] as? [[String: Any]])
        let repeated = (0..<count).map { index in
            var meal = meals[index % meals.count]
            meal["idMeal"] = String(100_000 + index)
            return meal
        }
        try JSONSerialization.data(withJSONObject: ["meals": repeated]).write(to: file)
    }

    /// Runs the binary on a dump of `count` meals in a workspace of its own; its manifest.
    func run(meals count: Int, in folder: URL) async throws -> RunManifest {
        let workspace = folder.appendingPathComponent("\(count)")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        try dump(of: count, at: workspace.appendingPathComponent("dump.json"))
        let pipeline = workspace.appendingPathComponent("dump.yml")
        try Data("""
            pipeline: dump
            sources:
              - name: mealdb
                adapter: mealdb-dump
                location: dump.json
            checks:
              min_recipes: \(count)
            """.utf8).write(to: pipeline)
        let outcome = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", workspace.path, "--quiet"])
        #expect(outcome.status == 0, "\(outcome.error)")
        let snapshot = try #require(SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))
            .latest(pipeline: "dump"))
        return try UserJSON.decoder().decode(
            RunManifest.self, from: Data(contentsOf: URL(fileURLWithPath: snapshot.path + ".manifest.json")))
    }

    @Test func aDumpEightTimesLargerNeedsAboutTheSameMemory() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = try await run(meals: 5_000, in: folder)
        let large = try await run(meals: 40_000, in: folder)
        #expect(small.rowCounts["recipe"] == 5_000)
        #expect(large.rowCounts["recipe"] == 40_000)
        let smallPeak = try #require(small.peakMemoryMB)
        let largePeak = try #require(large.peakMemoryMB)
        // Held whole, 35,000 more meals took about 280 MB more (8 kB each: the JSON, the values,
        // the sorted copy); set aside on disk, the debug binary measured 92 and 104 MB.
        #expect(largePeak - smallPeak < 40, "peaks: \(smallPeak) MB for 5,000 meals, \(largePeak) MB for 40,000")
    }
}
