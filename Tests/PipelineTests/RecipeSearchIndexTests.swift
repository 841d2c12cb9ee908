import Foundation
import GRDB
import Snapshot
import Testing
import TestSupport

/// The recipes' search index is built beside the recipes as they are written (in batches of
/// 256, so the real 442-meal dump takes two) and copied into the snapshot. What it must hold is
/// what FTS5's own `rebuild` makes from the snapshot's `recipe` rows: the tests compare the two,
/// run FTS5's check of the index against `recipe`, and search for meals read by hand from the dump.
@Suite struct RecipeSearchIndexTests {
    /// FTS5's storage of `recipe_fts`, every row. The structure record (id 10) is compared
    /// without its first four bytes, the count of the index's settings changes, which differs
    /// with the history of the table's settings and is read from the same record.
    private func storage(_ db: Database) throws -> [String: [[DatabaseValue]]] {
        let queries = [
            "data": "SELECT id, CASE id WHEN 10 THEN substr(block, 5) ELSE block END FROM recipe_fts_data ORDER BY id",
            "idx": "SELECT segid, term, pgno FROM recipe_fts_idx ORDER BY segid, term",
            "docsize": "SELECT id, sz FROM recipe_fts_docsize ORDER BY id",
            "config": "SELECT k, v FROM recipe_fts_config ORDER BY k",
        ]
        return try queries.mapValues { sql in try Row.fetchAll(db, sql: sql).map { Array($0.databaseValues) } }
    }

    private func run(_ meals: [[String: Any]], folder: URL) async throws -> URL {
        let report = try await MealDumpRun.run(meals, folder: folder)
        #expect(report.published, "\(report.blockingChecks.map(\.message))")
        return URL(fileURLWithPath: try #require(report.snapshotPath))
    }

    /// Checks `snapshot`'s index against `recipe` and against a rebuild, on a writable copy, and
    /// returns the ids of the meals named Kedgeree.
    private func checkIndex(of snapshot: URL, recipes: Int, in folder: URL) throws -> [String] {
        let copy = folder.appendingPathComponent("writable.sqlite")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: snapshot, to: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
        let database = try DatabaseQueue(path: copy.path)
        defer { try? database.close() }
        try database.write { db in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM recipe_fts_docsize") == recipes)
            try db.execute(sql: "INSERT INTO recipe_fts(recipe_fts, rank) VALUES('integrity-check', 1)")
        }
        let built = try database.read(storage)
        try database.write { db in try db.execute(sql: "INSERT INTO recipe_fts(recipe_fts) VALUES('rebuild')") }
        #expect(try database.read(storage) == built)
        return try database.read { db in
            try String.fetchAll(db, sql: """
                SELECT r.id FROM recipe_fts JOIN recipe r ON r.rowid = recipe_fts.rowid
                WHERE recipe_fts MATCH 'name:kedgeree' ORDER BY r.id
                """)
        }
    }

    @Test func theIndexBuiltBesideTheRecipesIsTheOneFTS5WouldRebuild() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let meals = try MealDumpRun.realMeals()
        #expect(meals.count == 442)
        let first = try await run(meals, folder: folder)
        // "Kedgeree" (52887) and "Smoked Haddock Kedgeree" (52964) in the dump.
        #expect(try checkIndex(of: first, recipes: 442, in: folder) == ["mealdb:52887", "mealdb:52964"])

        // The next night's dump has lost the first: the index the staging database copied from
        // the night before is replaced, not added to.
        let second = try await run(meals.filter { $0["idMeal"] as? String != "52887" }, folder: folder)
        #expect(second != first)
        #expect(try checkIndex(of: second, recipes: 441, in: folder) == ["mealdb:52964"])
    }
}
