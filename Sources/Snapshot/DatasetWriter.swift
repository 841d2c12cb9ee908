import FoodModel
import GRDB

/// Writes what a run holds besides its menus (those went in as they came, through
/// `MenuWriter`): foods, codes, nutrients, hours and recipes, in a deterministic order so that
/// the same inputs give byte-for-byte the same rows.
struct DatasetWriter {
    let db: Database

    func write(_ dataset: Dataset, menus: MenuDigest, knownCodes: [DietaryCode]) throws {
        let foods = foodRows(dataset, menus: menus)
        try writeCodes(knownCodes: knownCodes, foods: foods)
        try writeFoods(foods)
        try writeNutrients(dataset.foods.values.sorted { $0.id < $1.id })
        try writeHours(dataset.hours)
        try writeRecipes(dataset)
    }

    /// A food row: the food's own page when it was read, else what its first menu item says.
    private struct FoodRow {
        var food: Food
        var hasPage: Bool
        var codes: Set<String>
    }

    private func foodRows(_ dataset: Dataset, menus: MenuDigest) -> [FoodRow] {
        var rows: [FoodID: FoodRow] = [:]
        for (id, food) in dataset.foods {
            rows[id] = FoodRow(food: food, hasPage: true, codes: Set(food.codes))
        }
        for (id, printed) in menus.foods {
            rows[id, default: FoodRow(food: Food(id: id, name: printed.name, description: printed.description),
                                      hasPage: false, codes: [])].codes.formUnion(printed.codes)
        }
        return rows.values.sorted { $0.food.id < $1.food.id }
    }

    private func writeCodes(knownCodes: [DietaryCode], foods: [FoodRow]) throws {
        let statement = try db.cachedStatement(
            sql: "INSERT INTO dietary_code (code, label, kind) VALUES (?, ?, ?)")
        var written = Set<String>()
        for code in knownCodes where written.insert(code.code).inserted {
            try statement.execute(arguments: [code.code, code.label, code.kind.rawValue])
        }
        // A code the legend does not know is kept, raw, so that no appearance loses it; the
        // check stage reports it.
        for code in Set(foods.flatMap(\.codes)).subtracting(written).sorted() {
            try statement.execute(arguments: [code, code, DietaryCode.Kind.unknown.rawValue])
        }
        let term = try db.cachedStatement(sql: "INSERT INTO term (name, kind, label) VALUES (?, ?, ?)")
        for each in Vocabulary.terms {
            try term.execute(arguments: [each.name, each.kind.rawValue, each.label])
        }
        let meaning = try db.cachedStatement(sql: "INSERT OR IGNORE INTO code_term (code, term) VALUES (?, ?)")
        var mapped = Set<String>()
        for code in knownCodes where mapped.insert(code.code).inserted {
            for name in code.terms { try meaning.execute(arguments: [code.code, name]) }
        }
    }

    private func writeFoods(_ foods: [FoodRow]) throws {
        let food = try RowInsert(db, sql: """
            INSERT INTO food (id, source, recipe_id, name, description, serving_size, calories,
                              ingredients, allergens, has_page, serving_amount, serving_unit)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let code = try RowInsert(db, sql: "INSERT INTO food_code (food_id, code) VALUES (?, ?)")
        for row in foods {
            let value = row.food
            let id = value.id.description
            let serving = value.serving ?? value.servingSize.flatMap(ServingSize.init(printed:))
            try food.insert(
                id, value.id.source, value.id.recipeId, value.name, value.description, value.servingSize,
                value.calories, value.ingredients, value.allergens.isEmpty ? nil : value.allergens.joined(separator: ", "),
                row.hasPage, serving?.amount, serving?.unit)
            for each in row.codes.sorted() {
                try code.insert(id, each)
            }
        }
    }

    private func writeNutrients(_ foods: [Food]) throws {
        var nutrients: [NutrientKey: (name: String, unit: String?)] = [:]
        for food in foods {
            for value in food.nutrients where nutrients[value.key] == nil {
                nutrients[value.key] = (value.name, value.unit)
            }
        }
        let nutrient = try db.cachedStatement(
            sql: "INSERT INTO nutrient (key, name, unit) VALUES (?, ?, ?)")
        for (key, info) in nutrients.sorted(by: { $0.key < $1.key }) {
            try nutrient.execute(arguments: [key.rawValue, info.name, info.unit])
        }
        let amount = try RowInsert(db, sql: """
            INSERT OR REPLACE INTO food_nutrient
            (food_id, nutrient_key, amount, unit, printed_dv_percent, computed_dv_percent, dv_standard,
             printed_amount, amount_below, amount_at_least)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for food in foods {
            let id = food.id.description
            for value in food.nutrients {
                try amount.insert(id, value.key.rawValue, value.amount, value.unit, value.printedDailyValuePercent,
                                  value.computedDailyValuePercent, value.dailyValueStandard, value.printedAmount,
                                  value.amountBelow, value.amountAtLeast)
            }
        }
    }

    private func writeHours(_ hours: [HoursEntry]) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO hours (id, restaurant, date, meal, opens, closes, is_closed, note)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let ordered = hours.enumerated().sorted { a, b in
            let left = (a.element.date?.description ?? "", a.offset)
            let right = (b.element.date?.description ?? "", b.offset)
            return left < right
        }
        for (index, entry) in ordered.map(\.element).enumerated() {
            try statement.execute(arguments: [
                index + 1, entry.restaurant, entry.date?.description, entry.meal, entry.opens,
                entry.closes, entry.isClosed, entry.note,
            ])
        }
    }

    private func writeRecipes(_ dataset: Dataset) throws {
        let recipes = dataset.recipes.values.sorted { $0.id < $1.id }
        var categories = dataset.categories
        for name in recipes.compactMap(\.category) where categories[name] == nil {
            categories[name] = Category(name: name)
        }
        let category = try db.cachedStatement(
            sql: "INSERT INTO category (name, description, thumbnail_url) VALUES (?, ?, ?)")
        for value in categories.values.sorted(by: { $0.name < $1.name }) {
            try category.execute(arguments: [value.name, value.description, value.thumbnailURL])
        }
        let area = try db.cachedStatement(sql: "INSERT INTO area (name) VALUES (?)")
        for name in Set(recipes.compactMap(\.area)).sorted() {
            try area.execute(arguments: [name])
        }
        let tag = try db.cachedStatement(sql: "INSERT INTO tag (name) VALUES (?)")
        for name in Set(recipes.flatMap(\.tags)).sorted() {
            try tag.execute(arguments: [name])
        }
        let ingredient = try db.cachedStatement(sql: "INSERT INTO ingredient (key, name) VALUES (?, ?)")
        var ingredientKeys = Set<String>()
        for value in recipes {
            for line in value.ingredients where ingredientKeys.insert(line.ingredient.key).inserted {
                try ingredient.execute(arguments: [line.ingredient.key, line.ingredient.name])
            }
        }

        let recipe = try RowInsert(db, sql: """
            INSERT INTO recipe (id, source, source_id, name, alternate_name, category, area,
                                instructions, thumbnail_url, youtube_url, source_url, modified_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let recipeTag = try RowInsert(db, sql: "INSERT OR IGNORE INTO recipe_tag (recipe_id, tag) VALUES (?, ?)")
        let line = try RowInsert(db, sql: """
            INSERT INTO recipe_ingredient (recipe_id, position, ingredient_key, ingredient_name,
                measure_raw, measure_kind, quantity, quantity_numerator, quantity_denominator,
                quantity_max, unit, unit_system, confidence)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for value in recipes {
            let id = value.id.description
            try recipe.insert(
                id, value.id.source, value.id.id, value.name, value.alternateName, value.category, value.area,
                value.steps.joined(separator: "\n"), value.thumbnailURL, value.youtubeURL, value.sourceURL,
                value.modifiedAt)
            for name in value.tags {
                try recipeTag.insert(id, name)
            }
            for ingredientLine in value.ingredients {
                let measure = ingredientLine.measure
                try line.insert(
                    id, ingredientLine.position, ingredientLine.ingredient.key, ingredientLine.ingredient.name,
                    measure.raw, measure.kind.rawValue, measure.quantity?.doubleValue, measure.quantity?.numerator,
                    measure.quantity?.denominator, measure.maximum?.doubleValue, measure.unit, measure.unitSystem,
                    measure.confidence)
            }
        }
    }
}
