import FoodModel
import GRDB

/// A published food's label read back as the food it was written from (`labelledFoods`): its
/// row, nutrients, codes and composition, each through a statement prepared once.
struct LabelStatements {
    private let foodRow: Statement
    private let nutrientRows: Statement
    private let codeRows: Statement
    private let componentRows: Statement?

    init(_ db: Database) throws {
        foodRow = try db.cachedStatement(sql: "SELECT * FROM food WHERE id = ?")
        nutrientRows = try db.cachedStatement(sql: """
            SELECT fn.nutrient_key, n.name, fn.amount, fn.unit, fn.printed_dv_percent, fn.printed_amount,
                   fn.amount_below, fn.amount_at_least
            FROM food_nutrient fn JOIN nutrient n ON n.key = fn.nutrient_key
            WHERE fn.food_id = ? ORDER BY fn.nutrient_key
            """)
        codeRows = try db.cachedStatement(sql: "SELECT code FROM food_code WHERE food_id = ? ORDER BY code")
        // A snapshot from before schema 16 has no compositions (and no label basis: NULL), one
        // from before schema 20 no sub-recipe mark (its rows read as ingredients).
        let hasComponents = try db.tableExists("food_component")
        let marksSubRecipes = try hasComponents && db.columns(in: "food_component").contains { $0.name == "is_subrecipe" }
        componentRows = hasComponents ? try db.cachedStatement(sql: marksSubRecipes ? """
            SELECT name, amount, unit, component_food_id, is_heading, is_subrecipe FROM food_component
            WHERE food_id = ? ORDER BY position
            """ : """
            SELECT name, amount, unit, component_food_id, is_heading, 0 FROM food_component
            WHERE food_id = ? ORDER BY position
            """) : nil
    }

    /// The food `id` with its label; nil when the snapshot has no such food or no nutrient for it.
    func food(_ id: FoodID) throws -> Food? {
        let key = id.description
        guard let row = try Row.fetchOne(foodRow, arguments: [key]) else { return nil }
        let nutrients = try self.nutrients(of: key)
        guard !nutrients.isEmpty else { return nil }
        let allergens: String? = try row.decode(forColumn: "allergens")
        var food = try Food(id: id, name: row.decode(forColumn: "name"), description: row.decode(forColumn: "description"),
                            servingSize: row.decode(forColumn: "serving_size"), calories: row.decode(forColumn: "calories"),
                            nutrients: nutrients, ingredients: row.decode(forColumn: "ingredients"),
                            allergens: allergens.map { $0.components(separatedBy: ", ") } ?? [],
                            codes: String.fetchAll(codeRows, arguments: [key]))
        if let amount: Double = try row.decode(forColumn: "serving_amount"),
           let unit: String = try row.decode(forColumn: "serving_unit") {
            food.serving = ServingSize(amount: amount, unit: unit)
        }
        food.labelBasis = try row.decode(String?.self, forColumn: "label_basis").flatMap(LabelBasis.init(rawValue:))
        food.batchPortions = try row.decode(forColumn: "batch_portions")
        if componentRows != nil { food.components = try components(of: key) }
        return food
    }

    private func nutrients(of key: String) throws -> [NutrientValue] {
        try Row.fetchAll(nutrientRows, arguments: [key]).map { value in
            try NutrientValue(key: NutrientKey(rawValue: value.decode(atIndex: 0)), name: value.decode(atIndex: 1),
                              amount: value.decode(atIndex: 2), unit: value.decode(atIndex: 3),
                              printedDailyValuePercent: value.decode(atIndex: 4),
                              printedAmount: value.decode(atIndex: 5), amountBelow: value.decode(atIndex: 6),
                              amountAtLeast: value.decode(atIndex: 7))
        }
    }

    private func components(of key: String) throws -> [FoodComponent] {
        guard let componentRows else { return [] }
        return try Row.fetchAll(componentRows, arguments: [key]).map { part in
            try FoodComponent(name: part.decode(atIndex: 0), amount: part.decode(atIndex: 1),
                              unit: part.decode(atIndex: 2),
                              food: part.decode(String?.self, atIndex: 3).flatMap(FoodID.init(parsing:)),
                              isHeading: part.decode(atIndex: 4), isSubRecipe: part.decode(atIndex: 5))
        }
    }
}
