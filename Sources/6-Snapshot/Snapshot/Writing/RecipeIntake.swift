import FoodModel
import Foundation
import GRDB

/// Recipes of a catalogue too large to hold, gathered in a scratch database of their own so that
/// they reach the snapshot as a held catalogue does: one per id (the last read), in id order.
/// Only a page of SQLite's cache and one recipe at a time are in memory, whatever the count.
final class RecipeIntake {
    private let file: URL
    private let queue: DatabaseQueue
    /// Ids read more than once from one spool, with every position they were read at: the
    /// dump's own duplicates, reported rather than collapsed in silence. Few, if any.
    private(set) var duplicates: [Int: [RecipeID: [Int]]] = [:]

    init(file: URL) throws {
        self.file = file
        try? FileManager.default.removeItem(at: file)
        queue = try DatabaseQueue(path: file.path)
        try queue.writeWithoutTransaction { db in
            // Scratch: a crash loses nothing that the spools do not still have.
            try db.execute(sql: """
                PRAGMA journal_mode = OFF;
                PRAGMA synchronous = OFF;
                CREATE TABLE intake (
                    source TEXT NOT NULL,
                    id TEXT NOT NULL,
                    spool INTEGER NOT NULL,             -- -1: a recipe held in memory
                    position INTEGER NOT NULL,          -- 1-based, in its spool
                    recipe BLOB NOT NULL,               -- RecipeBytes
                    PRIMARY KEY (source, id)
                );
                """)
        }
    }

    deinit {
        try? queue.close()
        try? FileManager.default.removeItem(at: file)
    }

    /// Adds every recipe of `spools` in order, then `held`, each replacing an earlier one with
    /// its id.
    func add(spools: [RecipeSpool], held: some Collection<Recipe>) throws {
        try queue.inTransaction { db in
            let earlier = try db.cachedStatement(sql: "SELECT spool, position FROM intake WHERE source = ? AND id = ?")
            let add = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO intake (source, id, spool, position, recipe) VALUES (?, ?, ?, ?, ?)
                """)
            func take(_ recipe: Recipe, spool: Int, position: Int) throws {
                if let row = try Row.fetchOne(earlier, arguments: [recipe.id.source, recipe.id.id]) {
                    let earlierSpool: Int = row["spool"]
                    if earlierSpool == spool, spool >= 0 {
                        duplicates[spool, default: [:]][recipe.id, default: [row["position"]]].append(position)
                    }
                }
                try add.execute(arguments: [recipe.id.source, recipe.id.id, spool, position,
                                            RecipeBytes.encode([recipe])])
            }
            for (index, spool) in spools.enumerated() {
                var position = 0
                try spool.forEachBatch { batch in
                    for recipe in batch {
                        position += 1
                        try take(recipe, spool: index, position: position)
                    }
                }
            }
            for recipe in held {
                try take(recipe, spool: -1, position: 0)
            }
            return .commit
        }
    }

    /// Every recipe kept, in id order (source, then id, as `RecipeID` sorts).
    func forEachInOrder(_ body: (Recipe) throws -> Void) throws {
        try queue.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT recipe FROM intake ORDER BY source, id")
            while let row = try rows.next() {
                for recipe in try RecipeBytes.decode(row["recipe"]) { try body(recipe) }
            }
        }
    }
}
