import FoodModel
import Foundation
import GRDB
import Snapshot
import Testing

/// FTS5 search on a published (vacuumed, immutable) snapshot of the small dataset, whose every
/// row is known (Support.swift).
@Suite struct SearchTests {
    private func published(_ folder: URL) throws -> URL {
        let staging = try stage(smallDataset(), in: folder)
        defer { staging.discard() }
        return try SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
            .publish(staging, fileName: "demo-2026-10-12-s1.sqlite", pipeline: "demo")
    }

    private func texts(_ sql: String, _ file: URL) throws -> [String] {
        try QueryResult.run(sql, on: file).rows.map { row in
            row.map { value -> String in
                switch value {
                case .text(let text): text
                case .integer(let number): String(number)
                default: "\(value)"
                }
            }.joined(separator: "|")
        }
    }

    @Test func foodSearchFindsByNameAndIngredientsAndJoinsBackByRowid() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try published(folder)
        // The burger's page lists "Beef, Bun"; the fries have no page, so only a name.
        #expect(try texts("""
            SELECT f.id FROM food_fts JOIN food f ON f.rowid = food_fts.rowid WHERE food_fts MATCH 'beef'
            """, file) == ["ucla-menu:400317"])
        #expect(try texts("SELECT name FROM food_fts WHERE food_fts MATCH 'fries'", file) == ["Fries"])
        #expect(try texts("SELECT name FROM food_fts WHERE food_fts MATCH 'ingredients:fries'", file).isEmpty)
        #expect(try texts("SELECT count(*) FROM food_fts WHERE food_fts MATCH 'CHEESEBURGER'", file) == ["1"])
    }

    @Test func recipeSearchCoversIngredientsAndTagsFromTheirOwnTables() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try published(folder)
        let join = "SELECT r.id FROM recipe_fts JOIN recipe r ON r.rowid = recipe_fts.rowid WHERE recipe_fts MATCH"
        #expect(try texts("\(join) 'tags:curry'", file) == ["mealdb:52771"])
        #expect(try texts("\(join) 'ingredients:olive'", file) == ["mealdb:52771"])
        #expect(try texts("\(join) 'instructions:penne'", file) == ["mealdb:52771"])
        #expect(try texts("\(join) 'tags:penne'", file).isEmpty)
        #expect(try texts("SELECT ingredients, tags FROM v_recipe_search", file)
                == ["penne rigate, Olive Oil|Curry, Pasta"])
    }

    /// FTS5's own check compares `recipe_fts` with `v_recipe_search`, row by row, on recipes whose
    /// tags repeat, mix case and accents, and whose ingredients are listed out of position order;
    /// the same check fails once content and index disagree (the second half), so it would see a
    /// writer or a view that drifted from the index.
    @Test func theRecipeIndexMatchesItsViewExactly() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var dataset = smallDataset()
        let line = { (position: Int, name: String) in
            RecipeIngredient(position: position, ingredient: Ingredient(name: name), measure: Measure(raw: "to taste", kind: .unquantified, confidence: 1))
        }
        for (index, tags) in [["Pasta", "Curry", "Éclair", "curry", "Pasta"], [], ["Zest", "apple"]].enumerated() {
            let recipe = Recipe(id: RecipeID(source: "mealdb", id: "9000\(index)"), name: "Recipe \(index)",
                                steps: index == 1 ? [] : ["Step one.", "Step two."], tags: tags,
                                ingredients: index == 1 ? [] : [line(2, "Salt"), line(1, "Crème fraîche")])
            dataset.recipes[recipe.id] = recipe
        }
        let staging = try stage(dataset, in: folder)
        defer { staging.discard() }
        let file = try SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
            .publish(staging, fileName: "demo-2026-10-12-s2.sqlite", pipeline: "demo")
        let copy = folder.appendingPathComponent("writable.sqlite")
        try FileManager.default.copyItem(at: file, to: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
        let database = try DatabaseQueue(path: copy.path)
        let check = "INSERT INTO recipe_fts(recipe_fts, rank) VALUES('integrity-check', 1)"

        try database.write { db in try db.execute(sql: check) }
        #expect(try database.read { db in
            try String.fetchAll(db, sql: "SELECT tags FROM v_recipe_search WHERE recipe_id = 'mealdb:90000'")
        } == ["Curry, Pasta, curry, Éclair"])
        try database.write { db in
            try db.execute(sql: "UPDATE recipe SET name = 'Something else' WHERE id = 'mealdb:90002'")
        }
        #expect(throws: DatabaseError.self) { try database.write { db in try db.execute(sql: check) } }
    }

    @Test func analystQuestionsUseTheirIndexes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try published(folder)
        func plan(_ sql: String) throws -> String {
            try texts("EXPLAIN QUERY PLAN \(sql)", file).joined(separator: "\n")
        }
        #expect(try plan("SELECT id FROM recipe WHERE category = 'Vegetarian'").contains("recipe_by_category"))
        #expect(try plan("SELECT id FROM recipe WHERE area = 'Italian'").contains("recipe_by_area"))
        #expect(try plan("SELECT recipe_id FROM recipe_tag WHERE tag = 'Pasta'").contains("recipe_tag_by_tag"))
        #expect(try plan("SELECT food_id FROM food_code WHERE code = 'VG'").contains("food_code_by_code"))
        #expect(try plan("SELECT food_id FROM food_nutrient WHERE nutrient_key = 'sodium' AND computed_dv_percent < 5")
                .contains("food_nutrient_by_nutrient"))
        #expect(try plan("SELECT * FROM hours WHERE restaurant = 'Covel'").contains("hours_by_restaurant"))
        #expect(try plan("SELECT * FROM v_menu WHERE date = '2026-10-10'").contains("sqlite_autoindex_service_day_1"))
    }
}
