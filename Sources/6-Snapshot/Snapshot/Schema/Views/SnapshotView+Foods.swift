extension SnapshotView {
    /// Each food's codes as terms of the one vocabulary of allergens and diets; with `presence`,
    /// whether the code says the food contains the term or may (migration 23; 7 made it without).
    static func foodTerm(presence: Bool) -> SnapshotView {
        SnapshotView("v_food_term") { _ in
            """
            SELECT fc.food_id, f.name AS food, t.name AS term, t.kind, fc.code\(presence ? ", ct.presence" : "")
            FROM food_code fc
            JOIN food f ON f.id = fc.food_id
            JOIN code_term ct ON ct.code = fc.code
            JOIN term t ON t.name = ct.term
            """
        }
    }

    /// A food's macros per serving, its diets from the one vocabulary, and how much of its label
    /// was found wrong.
    static let foodMacros = SnapshotView("v_food_macros") { _ in
        let perServing = SnapshotSchema.perServing
        return """
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
        GROUP BY f.id
        """
    }

    /// The macros per serving of each version of a food's label.
    static let labelMacros = SnapshotView("v_label_macros") { _ in
        let perServing = SnapshotSchema.perServing
        return """
        SELECT l.food_id, l.version,
               \(macroColumns(factor: perServing("l.label_basis", "l.serving_grams"), calories: "l.calories")),
               l.label_basis AS basis, l.serving_grams
        FROM food_label l
        LEFT JOIN food_label_nutrient fn ON fn.food_id = l.food_id AND fn.version = l.version
        GROUP BY l.food_id, l.version
        """
    }

    /// Every nutrient of a food's label, with whether its printed %DV agrees, per serving too.
    static let foodNutrition = SnapshotView("v_food_nutrition") { _ in
        let perServing = SnapshotSchema.perServing
        return """
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
        LEFT JOIN food_nutrient_agreement a ON a.food_id = fn.food_id AND a.nutrient_key = fn.nutrient_key
        """
    }

    /// Every nutrient of every version of a food's label; a food with one label is version 1.
    static let labelNutrient = SnapshotView("v_label_nutrient") { _ in
        """
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
        """
    }

    /// Every printed %DV that does not agree with its amount, and every flag on a label, in words.
    static let labelDisagreements = SnapshotView("v_label_disagreements") { dialect in
        let text = dialect.text(ofReal:)
        return """
        SELECT a.food_id, f.name AS food, 'dv_percent' AS kind, a.nutrient_key,
               'printed ' || \(text("a.printed_dv_percent")) || '% for ' || \(text("fn.amount")) || ' ' || fn.unit
                   || ', which gives ' || \(text("a.declared_dv_percent")) || '% under ' || a.dv_standard AS message
        FROM food_nutrient_agreement a
        JOIN food f ON f.id = a.food_id
        JOIN food_nutrient fn ON fn.food_id = a.food_id AND fn.nutrient_key = a.nutrient_key
        WHERE NOT a.agrees
        UNION ALL
        SELECT fl.food_id, f.name, fl.check_name, fl.nutrient_key, fl.message
        FROM food_flag fl
        JOIN food f ON f.id = fl.food_id
        """
    }

    /// Whether the food (`f`) has a code meaning one of `terms` in the one vocabulary.
    private static func hasTerm(_ terms: String) -> String {
        "EXISTS (SELECT 1 FROM food_code c JOIN code_term ct ON ct.code = c.code "
            + "WHERE c.food_id = f.id AND ct.term IN (\(terms)))"
    }

    /// Calories and the macros of a label (`fn` grouped), each per serving through `factor`.
    private static func macroColumns(factor: String, calories: String) -> String {
        let grams = SnapshotSchema.grams
        return """
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
