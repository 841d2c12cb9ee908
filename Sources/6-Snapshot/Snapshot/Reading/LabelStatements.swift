import FoodModel
import Foundation
import GRDB

/// Published foods' labels read back as the foods they were written from (`PublishedLabels`):
/// their rows, nutrients, codes and composition, each table read once for all the foods asked
/// for, named in one bound JSON list. A night that keeps labels asks for a few hundred foods
/// (every food whose label prints only zeros), and a statement per food and table cost more
/// than their rows.
struct LabelStatements {
    private let db: Database
    /// How the composition is read; nil for a snapshot without one.
    private let componentColumns: String?

    init(_ db: Database) throws {
        self.db = db
        // A snapshot from before schema 16 has no compositions (and no label basis: NULL), one
        // from before schema 20 no sub-recipe mark (its rows read as ingredients).
        let hasComponents = try db.tableExists("food_component")
        let marksSubRecipes = try hasComponents && db.columns(in: "food_component").contains { $0.name == "is_subrecipe" }
        componentColumns = hasComponents
            ? "food_id, name, amount, unit, component_food_id, is_heading, " + (marksSubRecipes ? "is_subrecipe" : "0")
            : nil
    }

    /// The foods of `ids` with their labels; a food the snapshot lacks, or has no nutrient for,
    /// is left out.
    func foods(_ ids: [FoodID]) throws -> [FoodID: Food] {
        let keys = ids.map(\.description)
        let arguments: StatementArguments = [String(decoding: try JSONEncoder().encode(keys), as: UTF8.self)]
        let nutrients = try grouped(Row.fetchCursor(db, sql: """
            SELECT fn.food_id, fn.nutrient_key, n.name, fn.amount, fn.unit, fn.printed_dv_percent, fn.printed_amount,
                   fn.amount_below, fn.amount_at_least
            FROM food_nutrient fn JOIN nutrient n ON n.key = fn.nutrient_key
            WHERE fn.food_id IN (SELECT value FROM json_each(?)) ORDER BY fn.food_id, fn.nutrient_key
            """, arguments: arguments)) { value in
                try NutrientValue(key: NutrientKey(rawValue: value.decode(atIndex: 1)), name: value.decode(atIndex: 2),
                                  amount: value.decode(atIndex: 3), unit: value.decode(atIndex: 4),
                                  printedDailyValuePercent: value.decode(atIndex: 5),
                                  printedAmount: value.decode(atIndex: 6), amountBelow: value.decode(atIndex: 7),
                                  amountAtLeast: value.decode(atIndex: 8))
            }
        let codes = try grouped(Row.fetchCursor(db, sql: """
            SELECT food_id, code FROM food_code WHERE food_id IN (SELECT value FROM json_each(?)) ORDER BY food_id, code
            """, arguments: arguments)) { try $0.decode(String.self, atIndex: 1) }
        let components = try componentColumns.map { columns in
            try grouped(Row.fetchCursor(db, sql: """
                SELECT \(columns) FROM food_component WHERE food_id IN (SELECT value FROM json_each(?)) ORDER BY food_id, position
                """, arguments: arguments)) { part in
                    try FoodComponent(name: part.decode(atIndex: 1), amount: part.decode(atIndex: 2),
                                      unit: part.decode(atIndex: 3),
                                      food: part.decode(String?.self, atIndex: 4).flatMap(FoodID.init(parsing:)),
                                      isHeading: part.decode(atIndex: 5), isSubRecipe: part.decode(atIndex: 6))
                }
        }
        let byKey = Dictionary(zip(keys, ids), uniquingKeysWith: { first, _ in first })
        var foods: [FoodID: Food] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT * FROM food WHERE id IN (SELECT value FROM json_each(?))",
                                    arguments: arguments) {
            let key: String = try row.decode(forColumn: "id")
            guard let id = byKey[key], let nutrients = nutrients[key], !nutrients.isEmpty else { continue }
            let allergens: String? = try row.decode(forColumn: "allergens")
            var food = try Food(id: id, name: row.decode(forColumn: "name"), description: row.decode(forColumn: "description"),
                                servingSize: row.decode(forColumn: "serving_size"), calories: row.decode(forColumn: "calories"),
                                nutrients: nutrients, ingredients: row.decode(forColumn: "ingredients"),
                                allergens: allergens.map { $0.components(separatedBy: ", ") } ?? [],
                                codes: codes[key] ?? [])
            if let amount: Double = try row.decode(forColumn: "serving_amount"),
               let unit: String = try row.decode(forColumn: "serving_unit") {
                food.serving = ServingSize(amount: amount, unit: unit)
            }
            food.labelBasis = try row.decode(String?.self, forColumn: "label_basis").flatMap(LabelBasis.init(rawValue:))
            food.batchPortions = try row.decode(forColumn: "batch_portions")
            if let components { food.components = components[key] ?? [] }
            foods[id] = food
        }
        return foods
    }

    /// `rows` (their food's id first) made values by `value` as they are stepped through, not
    /// copied, grouped by food in their order.
    private func grouped<Value>(_ rows: RowCursor, _ value: (Row) throws -> Value) throws -> [String: [Value]] {
        var groups: [String: [Value]] = [:]
        while let row = try rows.next() {
            groups[try row.decode(String.self, atIndex: 0), default: []].append(try value(row))
        }
        return groups
    }
}
