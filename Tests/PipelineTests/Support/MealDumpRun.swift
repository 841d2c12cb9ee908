import FoodModel
import Foundation
import Logging
import Pipeline
import TestSupport

/// The real 442-meal dump's meals, and a night of a pipeline that reads a dump of `meals`
/// written to `folder` (a changed copy of the real one), the folder being its workspace.
enum MealDumpRun {
    static func realMeals() throws -> [[String: Any]] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: Paths.mealDump))
        guard let meals = (json as? [String: Any])?["meals"] as? [[String: Any]] else {
            throw MealDumpRunError("the dump is not {\"meals\": [...]}")
        }
        return meals
    }

    static func run(_ meals: [[String: Any]], folder: URL) async throws -> RunReport {
        try JSONSerialization.data(withJSONObject: ["meals": meals]).write(to: folder.appendingPathComponent("dump.json"))
        let spec = try SpecReader.parse("""
            pipeline: dump
            licence: test
            sources:
              - name: meals
                adapter: mealdb-dump
                location: dump.json
            checks: {min_recipes: 1}
            """, file: folder.appendingPathComponent("dump.yml"))
        return try await PipelineRunner(
            spec: spec, options: RunOptions(workspace: Workspace(root: folder), today: ServiceDate("2026-10-12")!),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
    }
}

struct MealDumpRunError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
