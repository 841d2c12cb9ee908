import GRDB
import Testing
@testable import Snapshot

/// Migration 20 gives the estimates written under schema 19, which had only the wording, the
/// code that wording says; a line written with its code keeps it.
@Suite struct EstimateReasonCodeMigrationTests {
    @Test func estimatesOfSchema19GetTheCodeTheirWordingSays() throws {
        let queue = try DatabaseQueue()
        let migrator = SnapshotSchema.migrator()
        try migrator.migrate(queue, upTo: "v19-nutrition-estimates")
        // Rows as schema 19's writer wrote them: the wording of matched_by and reason only.
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO food_estimate (subject_id, subject_kind, reference, lines, lines_counted, converted_grams,
                    matched_grams, matched_share, cooking_loss_percent, reason)
                VALUES ('mealdb:1', 'recipe', 'usda-sr24', 8, 3, 100, 60, 0.6, 0, NULL),
                       ('mealdb:2', 'recipe', 'usda-sr24', 0, 0, 0, 0, 0, 0, 'the recipe lists no ingredient'),
                       ('mealdb:3', 'recipe', 'usda-sr24', 1, 0, 0, 0, 0, 0,
                        'no line could be both matched and weighed (1 line(s): no amount (to taste))');
                INSERT INTO food_estimate_line (subject_id, position, name, matched_by, reason) VALUES
                    ('mealdb:1', 1, 'Olive Oil', 'synonym', NULL),
                    ('mealdb:1', 2, 'Chicken', 'override', NULL),
                    ('mealdb:1', 3, 'Grilled Pineapple', 'sub-recipe label', NULL),
                    ('mealdb:1', 4, 'Custom Recipe Ingredient', NULL, 'unknown by override: a placeholder row'),
                    ('mealdb:1', 5, 'Zorblax Paste', NULL, 'no food of usda-sr24 names every word (zorblax paste)'),
                    ('mealdb:1', 6, 'Spinach', 'synonym', 'Spinach, raw has no weight for a handful'),
                    ('mealdb:1', 7, 'Assembly 1', NULL, 'no weight (0.0 g)'),
                    ('mealdb:1', 8, 'Salt', 'synonym', 'no amount (to taste)');
                """)
        }
        try migrator.migrate(queue)
        let (estimates, lines, subRecipeColumn) = try queue.read { db in
            (try String?.fetchAll(db, sql: "SELECT reason_code FROM food_estimate ORDER BY subject_id"),
             try String.fetchAll(db, sql: "SELECT reason_code FROM food_estimate_line ORDER BY position"),
             try db.columns(in: "food_component").first { $0.name == "is_subrecipe" })
        }
        #expect(estimates == [nil, "no_lines", "nothing_counted"])
        #expect(lines == ["matched", "override", "subrecipe_document", "unknown_by_override", "unmatched_name",
                          "unconvertible_unit", "no_amount", "no_amount"])
        // Rows of a recipe's composition written before were ingredients as far as anyone knew.
        #expect(subRecipeColumn?.defaultValueSQL == "0" && subRecipeColumn?.isNotNull == true)
        // A code the contract does not know is refused by the table itself.
        #expect(throws: DatabaseError.self) {
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO food_estimate_line (subject_id, position, name, reason_code)
                    VALUES ('mealdb:1', 9, 'Pepper', 'guessed')
                    """)
            }
        }
    }
}
