extension SnapshotSchema {
    /// Migration 16: what a label is per. A label is per serving (US labels) or per 100 g (a
    /// kitchen system's recipe documents); `food` and `food_label` record which, with the
    /// serving's weight in grams where the serving is a weight, and the views that answer per
    /// menu item give every amount per serving: as printed for a per-serving label, the per-100 g
    /// amount × grams / 100 otherwise (NULL when the serving has no weight). %DV per serving is
    /// computed from those amounts. Diet flags are read from the one vocabulary (`code_term`), so
    /// every source's vegan dishes count, whatever its codes. A recipe's composition is
    /// `food_component`.
    static let v16LabelBasis = """
        ALTER TABLE food ADD COLUMN label_basis TEXT CHECK (label_basis IN ('serving', '100 g'));
        ALTER TABLE food ADD COLUMN serving_grams REAL;
        ALTER TABLE food ADD COLUMN batch_portions REAL;
        ALTER TABLE food_label ADD COLUMN label_basis TEXT CHECK (label_basis IN ('serving', '100 g'));
        ALTER TABLE food_label ADD COLUMN serving_grams REAL;
        CREATE TABLE food_component (
            food_id TEXT NOT NULL REFERENCES food(id),
            position INTEGER NOT NULL,
            name TEXT NOT NULL,
            amount REAL,
            unit TEXT,
            component_food_id TEXT,             -- the sub-recipe's or ingredient's food id, where given
            is_heading INTEGER NOT NULL,
            PRIMARY KEY (food_id, position)
        ) WITHOUT ROWID;
        CREATE INDEX food_component_by_component ON food_component(component_food_id);

        DROP VIEW v_food_nutrition;
        \(SnapshotView.foodNutrition.sqlite);

        DROP VIEW v_food_macros;
        \(SnapshotView.foodMacros.sqlite);

        DROP VIEW v_label_macros;
        \(SnapshotView.labelMacros.sqlite);

        DROP VIEW v_label_nutrient;
        \(SnapshotView.labelNutrient.sqlite);

        DROP VIEW v_menu_nutrition;
        \(SnapshotView.menuNutrition(portion: false).sqlite);

        DROP VIEW v_menu_macros;
        \(SnapshotView.menuMacros(campus: false).sqlite);
        """

    /// What one unit of a label's amount is worth per serving: 1 for a per-serving label, the
    /// serving's grams / 100 for a per-100 g one, NULL when that cannot be known. SQLite and
    /// PostgreSQL read it alike.
    public static func perServing(_ basis: String, _ grams: String) -> String {
        "(CASE \(basis) WHEN 'serving' THEN 1.0 WHEN '100 g' THEN \(grams) / 100.0 END)"
    }
}
