extension SnapshotSchema {
    /// Migration 19: nutrients estimated from what a recipe lists, for recipes that print none
    /// (TheMealDB) and for kitchen recipe documents whose rows are given (UCLA's, where the
    /// printed label stays the label and the estimate sits beside it). Every line is kept with
    /// its grams, its match and the rule that matched it, or the reason it counts for nothing,
    /// so that a person can review a match and override it. `v_food_estimate` is what analysts
    /// read: it says estimate in its name and never mixes with `v_food_nutrition`.
    static let v19Estimates = """
        CREATE TABLE food_estimate (
            subject_id TEXT PRIMARY KEY,        -- recipe.id or food.id
            subject_kind TEXT NOT NULL CHECK (subject_kind IN ('recipe', 'food')),
            reference TEXT NOT NULL,            -- usda-sr24
            lines INTEGER NOT NULL,
            lines_counted INTEGER NOT NULL,
            converted_grams REAL NOT NULL,
            matched_grams REAL NOT NULL,
            matched_share REAL NOT NULL,
            cooking_loss_percent REAL NOT NULL,
            serving_grams REAL,
            reason TEXT                         -- why there is no estimate; NULL when there is
        );
        CREATE TABLE food_estimate_nutrient (
            subject_id TEXT NOT NULL REFERENCES food_estimate(subject_id),
            nutrient_key TEXT NOT NULL,
            amount_per_100g REAL NOT NULL,
            unit TEXT NOT NULL,
            PRIMARY KEY (subject_id, nutrient_key)
        ) WITHOUT ROWID;
        CREATE TABLE food_estimate_line (
            subject_id TEXT NOT NULL REFERENCES food_estimate(subject_id),
            position INTEGER NOT NULL,
            name TEXT NOT NULL,
            measure TEXT,
            grams REAL,
            grams_from TEXT,
            reference_id TEXT,
            reference_name TEXT,
            match_score REAL,
            matched_by TEXT,
            reason TEXT,
            PRIMARY KEY (subject_id, position)
        ) WITHOUT ROWID;
        \(SnapshotView.foodEstimate.sqlite)
        """
}
