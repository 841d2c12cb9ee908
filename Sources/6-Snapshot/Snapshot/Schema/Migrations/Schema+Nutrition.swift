extension SnapshotSchema {
    /// Migration 4: whether each printed %DV agrees with its amount, per-food label flags, and the
    /// analyst views over them.
    ///
    /// Neither the menu site nor the historical dataset marks main dishes, so an entrée here is a
    /// menu item with at least 200 kcal and 10 g of protein: that leaves out desserts, fruit,
    /// drinks and condiments, which would otherwise always be the "lowest-sodium entrée".
    /// Amounts in the views are in g (sodium and cholesterol in mg) whatever unit a label used.
    static let v4Nutrition = """
        CREATE TABLE food_nutrient_agreement (
            food_id TEXT NOT NULL REFERENCES food(id),
            nutrient_key TEXT NOT NULL REFERENCES nutrient(key),
            dv_standard TEXT NOT NULL,
            printed_dv_percent REAL NOT NULL,
            declared_dv_percent REAL NOT NULL,  -- the label %DV of the printed amount
            unrounded_low REAL NOT NULL,        -- the amounts the printed one may stand for
            unrounded_high REAL NOT NULL,
            agrees_from_declared INTEGER NOT NULL,
            agrees_from_unrounded INTEGER NOT NULL,
            agrees INTEGER NOT NULL,            -- either lawful way gives the printed %
            PRIMARY KEY (food_id, nutrient_key)
        ) WITHOUT ROWID;
        CREATE TABLE food_flag (
            food_id TEXT NOT NULL REFERENCES food(id),
            check_name TEXT NOT NULL,           -- energy_sanity, implausible_value
            severity TEXT NOT NULL CHECK (severity IN ('error', 'warning')),
            nutrient_key TEXT,
            message TEXT NOT NULL
        );
        CREATE INDEX food_flag_by_food ON food_flag(food_id);

        DROP VIEW v_food_nutrition;
        CREATE VIEW v_food_nutrition AS
        SELECT f.id AS food_id, f.name AS food, f.serving_size, f.calories,
               n.key AS nutrient_key, n.name AS nutrient, fn.amount, fn.unit,
               fn.printed_dv_percent, fn.computed_dv_percent, fn.dv_standard,
               a.declared_dv_percent, a.agrees AS dv_agrees,
               (SELECT count(*) FROM food_flag fl WHERE fl.food_id = f.id) AS food_flags
        FROM food f
        JOIN food_nutrient fn ON fn.food_id = f.id
        JOIN nutrient n ON n.key = fn.nutrient_key
        LEFT JOIN food_nutrient_agreement a ON a.food_id = fn.food_id AND a.nutrient_key = fn.nutrient_key;

        CREATE VIEW v_food_macros AS
        SELECT f.id AS food_id, f.source, f.name AS food, f.serving_size, f.calories,
               \(grams("protein")) AS protein_g,
               \(grams("total_fat")) AS total_fat_g,
               \(grams("saturated_fat")) AS saturated_fat_g,
               \(grams("total_carbohydrate")) AS total_carbohydrate_g,
               \(grams("dietary_fiber")) AS dietary_fiber_g,
               \(grams("sugars")) AS sugars_g,
               1000 * \(grams("sodium")) AS sodium_mg,
               1000 * \(grams("cholesterol")) AS cholesterol_mg,
               EXISTS (SELECT 1 FROM food_code c WHERE c.food_id = f.id AND c.code = 'VG') AS is_vegan,
               EXISTS (SELECT 1 FROM food_code c WHERE c.food_id = f.id AND c.code IN ('V', 'VG')) AS is_vegetarian,
               (SELECT count(*) FROM food_nutrient_agreement a WHERE a.food_id = f.id AND NOT a.agrees)
                   AS dv_disagreements,
               (SELECT count(*) FROM food_flag fl WHERE fl.food_id = f.id) AS flags
        FROM food f
        LEFT JOIN food_nutrient fn ON fn.food_id = f.id
        GROUP BY f.id;

        CREATE VIEW v_menu_nutrition AS
        SELECT v.date, v.weekday, v.meal, v.restaurant, v.section, v.item, v.food_id, v.food, v.codes,
               m.is_vegan, m.is_vegetarian,
               (m.calories >= 200 AND m.protein_g >= 10) AS is_entree,
               m.calories, m.protein_g, m.total_fat_g, m.saturated_fat_g, m.total_carbohydrate_g,
               m.dietary_fiber_g, m.sugars_g, m.sodium_mg, m.cholesterol_mg, m.dv_disagreements, m.flags
        FROM v_menu v
        JOIN v_food_macros m ON m.food_id = v.food_id;

        \(summaryViews(reading: "v_menu_nutrition"))

        \(SnapshotView.labelDisagreements.sqlite);
        """

    /// Migration 11: a food's labels as versions, for foods that printed more than one, and
    /// the menu's nutrition as served on each day. `v_menu_nutrition` keeps its columns; an item
    /// whose food printed several labels reads the version of its own day.
    static let v11LabelVersions = """
        ALTER TABLE menu_item ADD COLUMN label_version INTEGER;
        CREATE TABLE food_label (
            food_id TEXT NOT NULL REFERENCES food(id),
            version INTEGER NOT NULL,
            calories REAL,
            serving_size TEXT,
            first_date TEXT NOT NULL,
            last_date TEXT NOT NULL,
            days INTEGER NOT NULL,
            PRIMARY KEY (food_id, version)
        ) WITHOUT ROWID;
        CREATE TABLE food_label_nutrient (
            food_id TEXT NOT NULL,
            version INTEGER NOT NULL,
            nutrient_key TEXT NOT NULL REFERENCES nutrient(key),
            amount REAL,
            unit TEXT,
            printed_dv_percent REAL,
            computed_dv_percent REAL,
            dv_standard TEXT,
            printed_amount TEXT,
            amount_below REAL,
            amount_at_least REAL,
            PRIMARY KEY (food_id, version, nutrient_key),
            FOREIGN KEY (food_id, version) REFERENCES food_label(food_id, version)
        ) WITHOUT ROWID;

        CREATE VIEW v_label_nutrient AS
        SELECT food_id, version, nutrient_key, amount, unit, printed_dv_percent, computed_dv_percent, dv_standard,
               printed_amount, amount_below, amount_at_least
        FROM food_label_nutrient
        UNION ALL
        SELECT fn.food_id, 1, fn.nutrient_key, fn.amount, fn.unit, fn.printed_dv_percent, fn.computed_dv_percent,
               fn.dv_standard, fn.printed_amount, fn.amount_below, fn.amount_at_least
        FROM food_nutrient fn
        WHERE NOT EXISTS (SELECT 1 FROM food_label l WHERE l.food_id = fn.food_id);

        \(servedNutrientsView(named: "v_menu_nutrients"))

        CREATE VIEW v_label_macros AS
        SELECT l.food_id, l.version, l.calories,
               \(grams("protein")) AS protein_g,
               \(grams("total_fat")) AS total_fat_g,
               \(grams("saturated_fat")) AS saturated_fat_g,
               \(grams("total_carbohydrate")) AS total_carbohydrate_g,
               \(grams("dietary_fiber")) AS dietary_fiber_g,
               \(grams("sugars")) AS sugars_g,
               1000 * \(grams("sodium")) AS sodium_mg,
               1000 * \(grams("cholesterol")) AS cholesterol_mg
        FROM food_label l
        LEFT JOIN food_label_nutrient fn ON fn.food_id = l.food_id AND fn.version = l.version
        GROUP BY l.food_id, l.version;

        DROP VIEW v_menu_nutrition;
        \(servedMacrosView(named: "v_menu_nutrition"))
        """

    /// Migration 14: `v_menu_nutrition` is the menu's nutrition in long form (a row per item and
    /// nutrient of the label printed on its day), the shape analysts asked for and the one that
    /// holds every nutrient; the one-row-per-item view with the macros as columns is
    /// `v_menu_macros`, and the summaries read it. `v_menu_nutrients`, the long form's name
    /// until now, is gone with it.
    static let v14MenuNutritionLongForm = """
        DROP VIEW v_lowest_sodium_entree;
        DROP VIEW v_nutrition_summary;
        DROP VIEW v_menu_nutrition;
        DROP VIEW v_menu_nutrients;
        \(servedMacrosView(named: "v_menu_macros"))
        \(servedNutrientsView(named: "v_menu_nutrition"))
        \(summaryViews(reading: "v_menu_macros"))
        """

    /// Every menu item with each nutrient of the label printed on its day.
    private static func servedNutrientsView(named name: String) -> String {
        """
        CREATE VIEW \(name) AS
        SELECT d.date, m.name AS meal, r.name AS restaurant, s.name AS section, mi.name AS item, mi.food_id,
               f.name AS food, coalesce(mi.label_version, 1) AS label_version, ln.nutrient_key, ln.amount, ln.unit,
               ln.printed_dv_percent, ln.computed_dv_percent, ln.dv_standard, ln.printed_amount, ln.amount_below,
               ln.amount_at_least
        \(SnapshotView.menuItemPlaces())
        JOIN food f ON f.id = mi.food_id
        JOIN v_label_nutrient ln ON ln.food_id = mi.food_id AND ln.version = coalesce(mi.label_version, 1);
        """
    }

    /// Every menu item with the macros of the label printed on its day, as columns.
    private static func servedMacrosView(named name: String) -> String {
        """
        CREATE VIEW \(name) AS
        \(SnapshotView.servedMacroSelect(.sqlite))
        \(SnapshotView.menuItemPlaces())
        JOIN food f ON f.id = mi.food_id
        JOIN v_food_macros fm ON fm.food_id = mi.food_id
        LEFT JOIN v_label_macros lm ON lm.food_id = mi.food_id AND lm.version = coalesce(mi.label_version, 1);
        """
    }

    /// The per-meal summary and the lowest-sodium entrée, over a view with a row per menu item and
    /// its macros as columns.
    private static func summaryViews(reading source: String) -> String {
        """
        \(SnapshotView.nutritionSummary(reading: source).sqlite);

        \(SnapshotView.lowestSodiumEntree(reading: source).sqlite);
        """
    }

    /// A nutrient's amount for the food in `GROUP BY f.id`, in grams.
    static func grams(_ key: String) -> String {
        "max(CASE WHEN fn.nutrient_key = '\(key)' THEN CASE fn.unit WHEN 'g' THEN fn.amount "
            + "WHEN 'mg' THEN fn.amount / 1000.0 WHEN 'mcg' THEN fn.amount / 1000000.0 END END)"
    }
}
