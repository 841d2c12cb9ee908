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
        CREATE VIEW v_food_nutrition AS
        SELECT f.id AS food_id, f.name AS food, f.serving_size, f.calories,
               n.key AS nutrient_key, n.name AS nutrient, fn.amount, fn.unit,
               fn.printed_dv_percent, fn.computed_dv_percent, fn.dv_standard,
               a.declared_dv_percent, a.agrees AS dv_agrees,
               (SELECT count(*) FROM food_flag fl WHERE fl.food_id = f.id) AS food_flags,
               fn.printed_amount, fn.amount_below, fn.amount_at_least,
               f.label_basis AS basis, f.serving_grams,
               fn.amount * \(perServing("f.label_basis", "f.serving_grams")) AS amount_per_serving
        FROM food f
        JOIN food_nutrient fn ON fn.food_id = f.id
        JOIN nutrient n ON n.key = fn.nutrient_key
        LEFT JOIN food_nutrient_agreement a ON a.food_id = fn.food_id AND a.nutrient_key = fn.nutrient_key;

        DROP VIEW v_food_macros;
        CREATE VIEW v_food_macros AS
        SELECT f.id AS food_id, f.source, f.name AS food, f.serving_size,
               \(macroColumns(factor: perServing("f.label_basis", "f.serving_grams"), calories: "f.calories")),
               \(hasTerm("'vegan'")) AS is_vegan,
               \(hasTerm("'vegan', 'vegetarian'")) AS is_vegetarian,
               (SELECT count(*) FROM food_nutrient_agreement a WHERE a.food_id = f.id AND NOT a.agrees)
                   AS dv_disagreements,
               (SELECT count(*) FROM food_flag fl WHERE fl.food_id = f.id) AS flags,
               f.label_basis AS basis, f.serving_grams
        FROM food f
        LEFT JOIN food_nutrient fn ON fn.food_id = f.id
        GROUP BY f.id;

        DROP VIEW v_label_macros;
        CREATE VIEW v_label_macros AS
        SELECT l.food_id, l.version,
               \(macroColumns(factor: perServing("l.label_basis", "l.serving_grams"), calories: "l.calories")),
               l.label_basis AS basis, l.serving_grams
        FROM food_label l
        LEFT JOIN food_label_nutrient fn ON fn.food_id = l.food_id AND fn.version = l.version
        GROUP BY l.food_id, l.version;

        DROP VIEW v_label_nutrient;
        CREATE VIEW v_label_nutrient AS
        SELECT ln.food_id, ln.version, ln.nutrient_key, ln.amount, ln.unit, ln.printed_dv_percent,
               ln.computed_dv_percent, ln.dv_standard, ln.printed_amount, ln.amount_below, ln.amount_at_least,
               l.label_basis AS basis, l.serving_grams
        FROM food_label_nutrient ln
        JOIN food_label l ON l.food_id = ln.food_id AND l.version = ln.version
        UNION ALL
        SELECT fn.food_id, 1, fn.nutrient_key, fn.amount, fn.unit, fn.printed_dv_percent, fn.computed_dv_percent,
               fn.dv_standard, fn.printed_amount, fn.amount_below, fn.amount_at_least, f.label_basis, f.serving_grams
        FROM food_nutrient fn
        JOIN food f ON f.id = fn.food_id
        WHERE NOT EXISTS (SELECT 1 FROM food_label l WHERE l.food_id = fn.food_id);

        DROP VIEW v_menu_nutrition;
        CREATE VIEW v_menu_nutrition AS
        SELECT d.date, m.name AS meal, r.name AS restaurant, s.name AS section, mi.name AS item, mi.food_id,
               f.name AS food, coalesce(mi.label_version, 1) AS label_version, ln.nutrient_key, ln.amount, ln.unit,
               ln.printed_dv_percent, ln.computed_dv_percent, ln.dv_standard, ln.printed_amount, ln.amount_below,
               ln.amount_at_least, ln.basis, ln.serving_grams,
               ln.amount * \(perServing("ln.basis", "ln.serving_grams")) AS amount_per_serving,
               ln.computed_dv_percent * \(perServing("ln.basis", "ln.serving_grams")) AS dv_percent_per_serving
        \(menuItemPlaces)
        JOIN v_label_nutrient ln ON ln.food_id = mi.food_id AND ln.version = coalesce(mi.label_version, 1);

        DROP VIEW v_menu_macros;
        \(menuMacrosView(campus: false))
        """

    /// Every menu item with the macros, per serving, of the label printed on its day; with
    /// `campus`, its restaurant's campus last (migration 17).
    static func menuMacrosView(campus: Bool) -> String {
        """
        CREATE VIEW v_menu_macros AS
        SELECT d.date, d.weekday, m.name AS meal, r.name AS restaurant, s.name AS section, mi.name AS item,
               mi.food_id, f.name AS food,
               (SELECT group_concat(code, ' ') FROM (SELECT code FROM food_code fc
                  WHERE fc.food_id = f.id ORDER BY code)) AS codes,
               fm.is_vegan, fm.is_vegetarian,
               (\(served("calories")) >= 200 AND \(served("protein_g")) >= 10) AS is_entree,
               \(served("calories")) AS calories,
               \(served("protein_g")) AS protein_g,
               \(served("total_fat_g")) AS total_fat_g,
               \(served("saturated_fat_g")) AS saturated_fat_g,
               \(served("total_carbohydrate_g")) AS total_carbohydrate_g,
               \(served("dietary_fiber_g")) AS dietary_fiber_g,
               \(served("sugars_g")) AS sugars_g,
               \(served("sodium_mg")) AS sodium_mg, \(served("cholesterol_mg")) AS cholesterol_mg,
               fm.dv_disagreements, fm.flags,
               \(served("basis")) AS basis, \(served("serving_grams")) AS serving_grams\(campus ? ", r.campus" : "")
        \(menuItemPlaces)
        JOIN v_food_macros fm ON fm.food_id = mi.food_id
        LEFT JOIN v_label_macros lm ON lm.food_id = mi.food_id AND lm.version = coalesce(mi.label_version, 1);
        """
    }

    /// A menu item (`mi`) with its meal, day, section, restaurant and food.
    private static let menuItemPlaces = """
        FROM menu_item mi
                JOIN meal m ON m.id = mi.meal_id
                JOIN service_day d ON d.id = m.service_day_id
                JOIN section s ON s.id = mi.section_id
                JOIN restaurant r ON r.id = s.restaurant_id
                JOIN food f ON f.id = mi.food_id
        """

    /// What one unit of a label's amount is worth per serving: 1 for a per-serving label, the
    /// serving's grams / 100 for a per-100 g one, NULL when that cannot be known. SQLite and
    /// PostgreSQL read it alike.
    public static func perServing(_ basis: String, _ grams: String) -> String {
        "(CASE \(basis) WHEN 'serving' THEN 1.0 WHEN '100 g' THEN \(grams) / 100.0 END)"
    }

    /// Whether the food (`f`) has a code meaning one of `terms` in the one vocabulary.
    public static func hasTerm(_ terms: String) -> String {
        "EXISTS (SELECT 1 FROM food_code c JOIN code_term ct ON ct.code = c.code "
            + "WHERE c.food_id = f.id AND ct.term IN (\(terms)))"
    }

    /// Calories and the macros of a label (`fn` grouped), each per serving through `factor`.
    public static func macroColumns(factor: String, calories: String) -> String {
        """
        \(calories) * \(factor) AS calories,
               \(grams("protein")) * \(factor) AS protein_g,
               \(grams("total_fat")) * \(factor) AS total_fat_g,
               \(grams("saturated_fat")) * \(factor) AS saturated_fat_g,
               \(grams("total_carbohydrate")) * \(factor) AS total_carbohydrate_g,
               \(grams("dietary_fiber")) * \(factor) AS dietary_fiber_g,
               \(grams("sugars")) * \(factor) AS sugars_g,
               1000 * \(grams("sodium")) * \(factor) AS sodium_mg,
               1000 * \(grams("cholesterol")) * \(factor) AS cholesterol_mg
        """
    }
}
