import FoodModel
import Foundation
import Logging
import Pipeline
import Snapshot
import TestSupport

/// Pipeline files and comparisons shared by the backfill tests.
enum BackfillFixtures {
    /// The catalogue tables an API backfill and a dump backfill must publish identically.
    static let catalogueTables = ["recipe", "recipe_ingredient", "ingredient", "tag", "recipe_tag", "category", "area"]

    /// A `mealdb-api` pipeline against a local server, written where the binary can read it.
    static func apiPipeline(name: String, base: String, in folder: URL, fetch: String) throws -> URL {
        let file = folder.appendingPathComponent("\(name).yml")
        let yaml = """
            pipeline: \(name)
            sources:
              - name: mealdb
                adapter: mealdb-api
                location: \(base)
            checks:
              min_recipes: 1
            fetch:
            \(fetch.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n"))
            """
        try Data(yaml.utf8).write(to: file)
        return file
    }

    /// The offline pipeline over the same dump and the same saved `categories.php` answer.
    static func dumpPipeline(in folder: URL) throws -> PipelineSpec {
        let file = folder.appendingPathComponent("recipes-dump.yml")
        let data = Paths.sharedData.appendingPathComponent("themealdb")
        let yaml = """
            pipeline: recipes-dump
            sources:
              - name: mealdb
                adapter: mealdb-dump
                location: \(data.appendingPathComponent("meals-dump-442.json").path)
                categories: \(data.appendingPathComponent("responses/categories.json").path)
            """
        try Data(yaml.utf8).write(to: file)
        return try SpecReader.read(file)
    }

    static func runner(_ spec: PipelineSpec, workspace: URL, onlyMissing: Bool = false) throws -> PipelineRunner {
        PipelineRunner(
            spec: spec,
            options: RunOptions(workspace: Workspace(root: workspace), today: try ServiceDate.required("2026-11-22"),
                                onlyMissing: onlyMissing, arguments: ["run", spec.file.lastPathComponent]),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    /// Every row of every catalogue table, ordered by all its columns, so that two snapshots
    /// compare whole (integer ids included, since they are assigned deterministically). Sorted
    /// in SQL and compared as values: describing thousands of rows as text in a debug build
    /// would hold a thread of the cooperative pool for seconds and starve the timing tests.
    static func catalogue(of snapshot: URL) throws -> [String: [[SQLValue]]] {
        var tables: [String: [[SQLValue]]] = [:]
        for table in catalogueTables {
            let columns = try QueryResult.run("SELECT * FROM \(table) LIMIT 0", on: snapshot).columns.count
            let order = (1...max(1, columns)).map(String.init).joined(separator: ", ")
            tables[table] = try QueryResult.run("SELECT * FROM \(table) ORDER BY \(order)", on: snapshot).rows
        }
        return tables
    }

    /// The snapshot the offline dump pipeline publishes, built in its own workspace.
    static func dumpCatalogue(in folder: URL) async throws -> [String: [[SQLValue]]] {
        let workspace = folder.appendingPathComponent("dump-workspace")
        let report = try await runner(try dumpPipeline(in: folder), workspace: workspace).run()
        guard let path = report.snapshotPath else { throw MirrorError("the dump pipeline did not publish") }
        return try catalogue(of: URL(fileURLWithPath: path))
    }
}

extension ServiceDate {
    static func required(_ text: String) throws -> ServiceDate {
        guard let date = ServiceDate(text) else { throw MirrorError("not a date: \(text)") }
        return date
    }
}
