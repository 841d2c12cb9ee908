extension SnapshotView {
    /// Every menu item with its day, meal, restaurant, section, food and codes, in the page's order.
    static let menu = SnapshotView("v_menu") { dialect in
        """
        SELECT d.date, d.weekday, m.name AS meal, r.name AS restaurant, s.name AS section,
               mi.name AS item, f.id AS food_id, f.name AS food, mi.portion,
               \(dialect.foodCodes) AS codes,
               dish.name AS served_with, r.campus
        \(menuItemPlaces())
        JOIN food f ON f.id = mi.food_id
        LEFT JOIN menu_item dish ON dish.id = mi.served_with_id
        ORDER BY mi.meal_id, mi.position
        """
    }

    /// One row per menu item and code, with the code's meaning, to join on.
    static func menuCode(presence: Bool) -> SnapshotView {
        SnapshotView("v_menu_code") { _ in
            """
            SELECT mi.id AS menu_item_id, d.date, m.name AS meal, r.name AS restaurant, mi.name AS item,
                   mi.food_id, fc.code, dc.kind AS code_kind, ct.term\(presence ? ", ct.presence" : "")
            \(menuItemPlaces())
            JOIN food_code fc ON fc.food_id = mi.food_id
            JOIN dietary_code dc ON dc.code = fc.code
            LEFT JOIN code_term ct ON ct.code = fc.code
            """
        }
    }

    /// Every menu item with the macros, per serving, of the label printed on its day; with
    /// `campus`, its restaurant's campus (migration 17; migration 16 made it without); with
    /// `portion`, the portion the menu serves and whether it is far from the serving the amounts
    /// are for (migration 24).
    static func menuMacros(campus: Bool, portion: Bool = false) -> SnapshotView {
        SnapshotView("v_menu_macros") { dialect in
            """
            \(servedMacroSelect(dialect)),
                   \(served("basis")) AS basis, \(served("serving_grams")) AS serving_grams\(campus ? ", r.campus" : "")\(
                       portion ? ", mi.portion, \(portionMismatch) AS portion_mismatch" : "")
            \(menuItemFoodPlaces)
            JOIN v_food_macros fm ON fm.food_id = mi.food_id
            LEFT JOIN v_label_macros lm ON lm.food_id = mi.food_id AND lm.version = coalesce(mi.label_version, 1)
            """
        }
    }

    /// Every menu item with each nutrient of the label printed on its day, per serving too; with
    /// `portion`, the portion served, whether it is far from that serving and how many flags the
    /// food has (migration 24), so that "per serving" is not read as "per portion served".
    static func menuNutrition(portion: Bool) -> SnapshotView {
        SnapshotView("v_menu_nutrition") { _ in
            let perServing = SnapshotSchema.perServing("ln.basis", "ln.serving_grams")
            let served = portion ? ",\n       mi.portion, \(portionMismatch) AS portion_mismatch,\n"
                + "       (SELECT count(*) FROM food_flag fl WHERE fl.food_id = mi.food_id) AS food_flags" : ""
            return """
            SELECT d.date, m.name AS meal, r.name AS restaurant, s.name AS section, mi.name AS item, mi.food_id,
                   f.name AS food, coalesce(mi.label_version, 1) AS label_version, ln.nutrient_key, ln.amount, ln.unit,
                   ln.printed_dv_percent, ln.computed_dv_percent, ln.dv_standard, ln.printed_amount, ln.amount_below,
                   ln.amount_at_least, ln.basis, ln.serving_grams,
                   ln.amount * \(perServing) AS amount_per_serving,
                   ln.computed_dv_percent * \(perServing) AS dv_percent_per_serving\(served)
            \(menuItemFoodPlaces)
            JOIN v_label_nutrient ln ON ln.food_id = mi.food_id AND ln.version = coalesce(mi.label_version, 1)
            """
        }
    }

    /// Whether the menu item's food is flagged for a portion far from the serving its amounts
    /// are for (`PortionMismatch`): its per-serving figures are then not what the plate holds.
    private static let portionMismatch =
        "EXISTS (SELECT 1 FROM food_flag fl WHERE fl.food_id = mi.food_id AND fl.check_name = 'portion_mismatch')"

    /// The per-meal summary over `source`, a view with a row per menu item and its macros as
    /// columns (`v_menu_macros`; `v_menu_nutrition` until migration 14).
    static func nutritionSummary(reading source: String) -> SnapshotView {
        SnapshotView("v_nutrition_summary") { dialect in
            """
            SELECT date, meal, restaurant,
                   count(*) AS items,
                   \(dialect.trueCount("is_vegan")) AS vegan_items,
                   \(dialect.trueCount("is_vegetarian")) AS vegetarian_items,
                   \(dialect.trueCount("is_entree")) AS entrees,
                   \(dialect.round("avg(calories)", 1)) AS avg_calories,
                   max(CASE WHEN is_vegan THEN protein_g END) AS max_vegan_protein_g,
                   min(CASE WHEN is_entree THEN sodium_mg END) AS min_entree_sodium_mg,
                   \(dialect.trueCount("dv_disagreements > 0")) AS items_with_dv_disagreements,
                   \(dialect.trueCount("flags > 0")) AS flagged_items
            FROM \(source)
            GROUP BY date, meal, restaurant
            """
        }
    }

    /// The lowest-sodium entrée of each meal and restaurant, over `source` as the summary reads it.
    static func lowestSodiumEntree(reading source: String) -> SnapshotView {
        SnapshotView("v_lowest_sodium_entree") { dialect in
            """
            SELECT date, meal, restaurant, section, item, food_id, sodium_mg, calories, protein_g
            FROM (SELECT *, row_number() OVER (PARTITION BY date, meal, restaurant
                                               ORDER BY sodium_mg, item) AS rank
                  FROM \(source) WHERE is_entree AND sodium_mg IS NOT NULL)\(dialect.alias(ofSubquery: "ranked"))
            WHERE rank = 1
            """
        }
    }

    /// The columns of a menu item (`mi`): its day, meal, restaurant, section, food and codes, then
    /// the macros of the label served on its day (`fm`, `lm`); `v_menu_macros` begins with them, as
    /// did the views it replaced (migrations 11 and 14).
    static func servedMacroSelect(_ dialect: SQLDialect) -> String {
        """
        SELECT d.date, d.weekday, m.name AS meal, r.name AS restaurant, s.name AS section, mi.name AS item,
               mi.food_id, f.name AS food,
               \(dialect.foodCodes) AS codes,
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
               fm.dv_disagreements, fm.flags
        """
    }

    /// The served label's value of a macro: its version's where the food has versions, else the food's.
    private static func served(_ column: String) -> String {
        "CASE WHEN lm.food_id IS NULL THEN fm.\(column) ELSE lm.\(column) END"
    }

    /// A menu item (`mi`) with its meal, day, section and restaurant; `indent` before each JOIN,
    /// as the migration that made the view spelt it (snapshots keep that text).
    static func menuItemPlaces(indent: String = "") -> String {
        """
        FROM menu_item mi
        \(indent)JOIN meal m ON m.id = mi.meal_id
        \(indent)JOIN service_day d ON d.id = m.service_day_id
        \(indent)JOIN section s ON s.id = mi.section_id
        \(indent)JOIN restaurant r ON r.id = s.restaurant_id
        """
    }

    /// `menuItemPlaces` with the food, as migration 16 indented it.
    private static let menuItemFoodPlaces = """
        \(menuItemPlaces(indent: "        "))
                JOIN food f ON f.id = mi.food_id
        """
}
