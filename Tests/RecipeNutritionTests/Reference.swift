import Foundation
import GRDB
import RecipeNutrition
import TestSupport

/// The reference as `scripts/nutrition-reference` builds it (`scripts/test` builds it before the
/// tests), with the project's synonyms and overrides: loaded once for every test.
enum Reference {
    static let estimator: Result<RecipeEstimator, any Error> = Result {
        let reference = try NutritionReference.load("usda-sr24")
        let tables = try MatchingTables.load(for: reference, beside: Paths.pipelines)
        return RecipeEstimator(matcher: IngredientMatcher(reference: reference, tables: tables))
    }

    static func loaded() throws -> RecipeEstimator { try estimator.get() }

    /// A reference file of one food at `file`, built as the script lays its tables out: butter,
    /// salted (SR24 01001: Energy 717 kcal per 100 g, a tbsp of 14.2 g), and every nutrient an
    /// estimate carries named with its unit. `damage`, when given, is run on it last.
    static func oneFood(at file: URL, damage: String? = nil) throws {
        try DatabaseQueue(path: file.path).write { db in
            try db.execute(sql: """
                CREATE TABLE reference_nutrient (name TEXT, unit TEXT, usda_number TEXT);
                CREATE TABLE reference_food (uid TEXT, name TEXT, protein_factor REAL, fat_factor REAL, carbohydrate_factor REAL);
                CREATE TABLE reference_food_nutrient (uid TEXT, nutrient TEXT, amount_per_100g REAL);
                CREATE TABLE reference_measure (uid TEXT, position INTEGER, name TEXT, amount REAL, grams REAL);
                INSERT INTO reference_nutrient VALUES ('Energy', 'kcal', '208'), ('Protein', 'g', '203'),
                    ('Fat', 'g', '204'), ('Saturated', 'g', '606'), ('Trans-Fats', 'g', '605'),
                    ('Cholesterol', 'mg', '601'), ('Sodium', 'mg', '307'), ('Carbs', 'g', '205'),
                    ('Fiber', 'g', '291'), ('Sugars', 'g', '269'), ('Calcium', 'mg', '301'), ('Iron', 'mg', '303'),
                    ('Potassium', 'mg', '306'), ('Vitamin C', 'mg', '401');
                INSERT INTO reference_food VALUES ('01001', 'Butter, salted', 4.27, 8.79, 3.87);
                INSERT INTO reference_food_nutrient VALUES ('01001', 'Energy', 717);
                INSERT INTO reference_measure VALUES ('01001', 1, 'tbsp', 1, 14.2);
                """)
            if let damage { try db.execute(sql: damage) }
        }
    }
}
