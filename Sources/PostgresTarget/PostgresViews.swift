import Snapshot

/// The snapshot's views in PostgreSQL's dialect. SQLite's definitions do not run there as they
/// are (`group_concat`, subqueries without an alias, 0/1 truth values summed and compared with
/// numbers, `round` of a double, `rowid`), so each is restated here; a test checks that every view of a snapshot has
/// its statement here and that both answer with the same rows on the sample.
///
/// Truth values are `boolean`, as the tables' flags are (SQLite's 0/1): `WHERE is_vegan` reads
/// the same in both databases, and a count of them is `sum(is_vegan::int)`, which keeps SQLite's
/// NULL for a group with none known.
/// `v_recipe_search` has no `recipe_rowid`: PostgreSQL has no rowid, and its search is the
/// `recipe_search` table.
enum PostgresViews {
    /// In creation order: a view comes after the views it reads.
    static let definitions: [(name: String, sql: String)] = [
        ("v_menu", """
            CREATE VIEW v_menu AS
            SELECT d.date, d.weekday, m.name AS meal, r.name AS restaurant, s.name AS section,
                   mi.name AS item, f.id AS food_id, f.name AS food, mi.portion,
                   (SELECT string_agg(fc.code, ' ' ORDER BY fc.code) FROM food_code fc WHERE fc.food_id = f.id) AS codes,
                   dish.name AS served_with, r.campus
            FROM menu_item mi
            JOIN meal m ON m.id = mi.meal_id
            JOIN service_day d ON d.id = m.service_day_id
            JOIN section s ON s.id = mi.section_id
            JOIN restaurant r ON r.id = s.restaurant_id
            JOIN food f ON f.id = mi.food_id
            LEFT JOIN menu_item dish ON dish.id = mi.served_with_id
            ORDER BY mi.meal_id, mi.position
            """),
        ("v_menu_code", """
            CREATE VIEW v_menu_code AS
            SELECT mi.id AS menu_item_id, d.date, m.name AS meal, r.name AS restaurant, mi.name AS item,
                   mi.food_id, fc.code, dc.kind AS code_kind, ct.term
            FROM menu_item mi
            JOIN meal m ON m.id = mi.meal_id
            JOIN service_day d ON d.id = m.service_day_id
            JOIN section s ON s.id = mi.section_id
            JOIN restaurant r ON r.id = s.restaurant_id
            JOIN food_code fc ON fc.food_id = mi.food_id
            JOIN dietary_code dc ON dc.code = fc.code
            LEFT JOIN code_term ct ON ct.code = fc.code
            """),
        ("v_food_term", """
            CREATE VIEW v_food_term AS
            SELECT fc.food_id, f.name AS food, t.name AS term, t.kind, fc.code
            FROM food_code fc
            JOIN food f ON f.id = fc.food_id
            JOIN code_term ct ON ct.code = fc.code
            JOIN term t ON t.name = ct.term
            """),
        ("v_swipe_table", """
            CREATE VIEW v_swipe_table AS
            SELECT b.term, b.date, b.weekday, b.week, b.week_label, b.position, b.period, b.period_source,
                   b.plan, p.kind, b.swipes, b.balance, p.price_per_swipe,
                   round((b.balance * p.price_per_swipe)::numeric, 2)::double precision AS balance_value
            FROM swipe_balance b
            JOIN meal_plan p ON p.code = b.plan
            """),
        ("v_recipe_search", """
            CREATE VIEW v_recipe_search AS
            SELECT r.id AS recipe_id, r.name, r.ingredients, r.tags, r.instructions
            FROM recipe r
            """),
        ("v_food_macros", """
            CREATE VIEW v_food_macros AS
            SELECT f.id AS food_id, f.source, f.name AS food, f.serving_size,
                   \(SnapshotSchema.macroColumns(factor: SnapshotSchema.perServing("f.label_basis", "f.serving_grams"),
                                                calories: "f.calories")),
                   \(SnapshotSchema.hasTerm("'vegan'")) AS is_vegan,
                   \(SnapshotSchema.hasTerm("'vegan', 'vegetarian'")) AS is_vegetarian,
                   (SELECT count(*) FROM food_nutrient_agreement a WHERE a.food_id = f.id AND NOT a.agrees)
                       AS dv_disagreements,
                   (SELECT count(*) FROM food_flag fl WHERE fl.food_id = f.id) AS flags,
                   f.label_basis AS basis, f.serving_grams
            FROM food f
            LEFT JOIN food_nutrient fn ON fn.food_id = f.id
            GROUP BY f.id
            """),
        ("v_label_macros", """
            CREATE VIEW v_label_macros AS
            SELECT l.food_id, l.version,
                   \(SnapshotSchema.macroColumns(factor: SnapshotSchema.perServing("l.label_basis", "l.serving_grams"),
                                                calories: "l.calories")),
                   l.label_basis AS basis, l.serving_grams
            FROM food_label l
            LEFT JOIN food_label_nutrient fn ON fn.food_id = l.food_id AND fn.version = l.version
            GROUP BY l.food_id, l.version
            """),
        ("v_menu_macros", """
            CREATE VIEW v_menu_macros AS
            SELECT d.date, d.weekday, m.name AS meal, r.name AS restaurant, s.name AS section, mi.name AS item,
                   mi.food_id, f.name AS food,
                   (SELECT string_agg(fc.code, ' ' ORDER BY fc.code) FROM food_code fc WHERE fc.food_id = f.id) AS codes,
                   fm.is_vegan, fm.is_vegetarian,
                   (\(labelled("calories")) >= 200 AND \(labelled("protein_g")) >= 10) AS is_entree,
                   \(labelled("calories")) AS calories,
                   \(labelled("protein_g")) AS protein_g,
                   \(labelled("total_fat_g")) AS total_fat_g,
                   \(labelled("saturated_fat_g")) AS saturated_fat_g,
                   \(labelled("total_carbohydrate_g")) AS total_carbohydrate_g,
                   \(labelled("dietary_fiber_g")) AS dietary_fiber_g,
                   \(labelled("sugars_g")) AS sugars_g,
                   \(labelled("sodium_mg")) AS sodium_mg,
                   \(labelled("cholesterol_mg")) AS cholesterol_mg,
                   fm.dv_disagreements, fm.flags,
                   \(labelled("basis")) AS basis, \(labelled("serving_grams")) AS serving_grams, r.campus
            FROM menu_item mi
            JOIN meal m ON m.id = mi.meal_id
            JOIN service_day d ON d.id = m.service_day_id
            JOIN section s ON s.id = mi.section_id
            JOIN restaurant r ON r.id = s.restaurant_id
            JOIN food f ON f.id = mi.food_id
            JOIN v_food_macros fm ON fm.food_id = mi.food_id
            LEFT JOIN v_label_macros lm ON lm.food_id = mi.food_id AND lm.version = coalesce(mi.label_version, 1)
            """),
        ("v_nutrition_summary", """
            CREATE VIEW v_nutrition_summary AS
            SELECT date, meal, restaurant,
                   count(*) AS items,
                   sum(is_vegan::int) AS vegan_items,
                   sum(is_vegetarian::int) AS vegetarian_items,
                   sum(is_entree::int) AS entrees,
                   round(avg(calories)::numeric, 1)::double precision AS avg_calories,
                   max(CASE WHEN is_vegan THEN protein_g END) AS max_vegan_protein_g,
                   min(CASE WHEN is_entree THEN sodium_mg END) AS min_entree_sodium_mg,
                   sum((dv_disagreements > 0)::int) AS items_with_dv_disagreements,
                   sum((flags > 0)::int) AS flagged_items
            FROM v_menu_macros
            GROUP BY date, meal, restaurant
            """),
        ("v_lowest_sodium_entree", """
            CREATE VIEW v_lowest_sodium_entree AS
            SELECT date, meal, restaurant, section, item, food_id, sodium_mg, calories, protein_g
            FROM (SELECT *, row_number() OVER (PARTITION BY date, meal, restaurant
                                               ORDER BY sodium_mg, item) AS rank
                  FROM v_menu_macros WHERE is_entree AND sodium_mg IS NOT NULL) AS ranked
            WHERE rank = 1
            """),
        ("v_label_disagreements", """
            CREATE VIEW v_label_disagreements AS
            SELECT a.food_id, f.name AS food, 'dv_percent' AS kind, a.nutrient_key,
                   'printed ' || real_text(a.printed_dv_percent) || '% for ' || real_text(fn.amount) || ' ' || fn.unit
                       || ', which gives ' || real_text(a.declared_dv_percent) || '% under ' || a.dv_standard AS message
            FROM food_nutrient_agreement a
            JOIN food f ON f.id = a.food_id
            JOIN food_nutrient fn ON fn.food_id = a.food_id AND fn.nutrient_key = a.nutrient_key
            WHERE NOT a.agrees
            UNION ALL
            SELECT fl.food_id, f.name, fl.check_name, fl.nutrient_key, fl.message
            FROM food_flag fl
            JOIN food f ON f.id = fl.food_id
            """),
        ("v_food_nutrition", """
            CREATE VIEW v_food_nutrition AS
            SELECT f.id AS food_id, f.name AS food, f.serving_size, f.calories,
                   n.key AS nutrient_key, n.name AS nutrient, fn.amount, fn.unit,
                   fn.printed_dv_percent, fn.computed_dv_percent, fn.dv_standard,
                   a.declared_dv_percent, a.agrees AS dv_agrees,
                   (SELECT count(*) FROM food_flag fl WHERE fl.food_id = f.id) AS food_flags,
                   fn.printed_amount, fn.amount_below, fn.amount_at_least,
                   f.label_basis AS basis, f.serving_grams,
                   fn.amount * \(SnapshotSchema.perServing("f.label_basis", "f.serving_grams")) AS amount_per_serving
            FROM food f
            JOIN food_nutrient fn ON fn.food_id = f.id
            JOIN nutrient n ON n.key = fn.nutrient_key
            LEFT JOIN food_nutrient_agreement a ON a.food_id = fn.food_id AND a.nutrient_key = fn.nutrient_key
            """),
        ("v_label_nutrient", """
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
            WHERE NOT EXISTS (SELECT 1 FROM food_label l WHERE l.food_id = fn.food_id)
            """),
        ("v_menu_nutrition", """
            CREATE VIEW v_menu_nutrition AS
            SELECT d.date, m.name AS meal, r.name AS restaurant, s.name AS section, mi.name AS item, mi.food_id,
                   f.name AS food, coalesce(mi.label_version, 1) AS label_version, ln.nutrient_key, ln.amount, ln.unit,
                   ln.printed_dv_percent, ln.computed_dv_percent, ln.dv_standard, ln.printed_amount, ln.amount_below,
                   ln.amount_at_least, ln.basis, ln.serving_grams,
                   ln.amount * \(SnapshotSchema.perServing("ln.basis", "ln.serving_grams")) AS amount_per_serving,
                   ln.computed_dv_percent * \(SnapshotSchema.perServing("ln.basis", "ln.serving_grams"))
                       AS dv_percent_per_serving
            FROM menu_item mi
            JOIN meal m ON m.id = mi.meal_id
            JOIN service_day d ON d.id = m.service_day_id
            JOIN section s ON s.id = mi.section_id
            JOIN restaurant r ON r.id = s.restaurant_id
            JOIN food f ON f.id = mi.food_id
            JOIN v_label_nutrient ln ON ln.food_id = mi.food_id AND ln.version = coalesce(mi.label_version, 1)
            """),
        // Portable as it stands: joins, coalesce and arithmetic read the same in both dialects.
        ("v_food_estimate", SnapshotSchema.estimateView),
    ]

    /// A real as SQLite prints it in text (`5.0`, `0.25`), so that messages read the same in
    /// both databases.
    static let realTextFunction = "real_text"
    static let realText = """
        CREATE FUNCTION \(realTextFunction)(value double precision) RETURNS text LANGUAGE sql IMMUTABLE AS $$
            SELECT CASE WHEN value = trunc(value) AND abs(value) < 1e15 THEN trunc(value)::bigint::text || '.0'
                        ELSE value::text END
        $$
        """

    /// The value of the label printed on the item's day where there is one, else the food's.
    private static func labelled(_ column: String) -> String {
        "CASE WHEN lm.food_id IS NULL THEN fm.\(column) ELSE lm.\(column) END"
    }
}
