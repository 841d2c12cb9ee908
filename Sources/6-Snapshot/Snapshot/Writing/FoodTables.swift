import Basics
import FoodModel
import Foundation
import GRDB

/// The foods' rows: their codes and what the codes mean, the foods with their codes and
/// components, and their nutrients (`tables`), in a deterministic order so that
/// the same inputs give the same rows. Written through `RowInsert`s that `insert` makes, so the
/// same code gives either the rows (on a database) or their digest (on a `RowDigest`), which a
/// continued snapshot compares with the night before's to keep these tables as they are.
struct FoodTables {
    /// The tables this writes, which a continued snapshot keeps when their rows come out the
    /// same (`StagingSnapshot.finish`). `nutrient` is not among them: the label versions add to
    /// it after the foods.
    static let tables = ["dietary_code", "food", "food_code", "food_component", "term", "code_term", "food_nutrient"]

    let dataset: Dataset
    let menus: MenuDigest
    let knownCodes: [DietaryCode]

    /// The digest of the rows `write` would insert. Its two parts are taken side by side, one
    /// per core: on a year of menus the food tables' digest was a tenth of a night with one day
    /// changed, on one core while the other waited.
    var digest: String {
        get throws {
            let parts = Part.allCases.mappedOnEveryCore(minimumCount: 2) { part in
                Result {
                    let digest = RowDigest()
                    try write(part) { RowInsert(digesting: digest, sql: $0) }
                    return digest.sha256
                }
            }
            return Self.digest(ofParts: try parts.map { try $0.get() })
        }
    }

    /// Writes the rows into `db`; returns their digest, the one `digest` gives.
    func write(into db: Database) throws -> String {
        let parts = try Part.allCases.map { part in
            let digest = RowDigest()
            try write(part) { try RowInsert(db, sql: $0, digesting: digest) }
            return digest.sha256
        }
        return Self.digest(ofParts: parts)
    }

    /// The rows in two parts of about the same weight, each digested apart: the codes and the
    /// foods, and the foods' nutrients.
    private enum Part: CaseIterable {
        case codesAndFoods, nutrients
    }

    private static func digest(ofParts parts: [String]) -> String {
        sha256Hex(Data(parts.joined(separator: "\n").utf8))
    }

    private func write(_ part: Part, _ insert: (String) throws -> RowInsert) throws {
        switch part {
        case .codesAndFoods:
            let foods = foodRows()
            try writeCodes(foods, insert)
            try writeFoods(foods, insert)
        case .nutrients:
            try writeNutrients(dataset.foods.values.sorted { $0.id < $1.id }, insert)
        }
    }

    /// A food row: the food's own page when it was read, else what its first menu item says.
    private struct FoodRow {
        var food: Food
        var hasPage: Bool
        var codes: Set<String>
    }

    private func foodRows() -> [FoodRow] {
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

    private func writeCodes(_ foods: [FoodRow], _ insert: (String) throws -> RowInsert) throws {
        let statement = try insert("INSERT INTO dietary_code (code, label, kind) VALUES (?, ?, ?)")
        var written = Set<String>()
        for code in knownCodes where written.insert(code.code).inserted {
            try statement.insert(code.code, code.label, code.kind.rawValue)
        }
        // A code the legend does not know is kept, raw, so that no appearance loses it; the
        // check stage reports it.
        for code in Set(foods.flatMap(\.codes)).subtracting(written).sorted() {
            try statement.insert(code, code, DietaryCode.Kind.unknown.rawValue)
        }
        let term = try insert("INSERT INTO term (name, kind, label) VALUES (?, ?, ?)")
        for each in Vocabulary.terms {
            try term.insert(each.name, each.kind.rawValue, each.label)
        }
        let meaning = try insert("INSERT OR IGNORE INTO code_term (code, term, presence) VALUES (?, ?, ?)")
        var mapped = Set<String>()
        for code in knownCodes where mapped.insert(code.code).inserted {
            for name in code.terms { try meaning.insert(code.code, name, code.presence.rawValue) }
        }
    }

    private func writeFoods(_ foods: [FoodRow], _ insert: (String) throws -> RowInsert) throws {
        let food = try insert("""
            INSERT INTO food (id, source, recipe_id, name, description, serving_size, calories,
                              ingredients, allergens, has_page, serving_amount, serving_unit,
                              label_basis, serving_grams, batch_portions)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let code = try insert("INSERT INTO food_code (food_id, code) VALUES (?, ?)")
        let component = try insert("""
            INSERT INTO food_component (food_id, position, name, amount, unit, component_food_id, is_heading, is_subrecipe)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for row in foods {
            let value = row.food
            let id = value.id.description
            let serving = value.serving ?? value.servingSize.flatMap(ServingSize.init(printed:))
            try food.insert(
                id, value.id.source, value.id.recipeId, value.name, value.description, value.servingSize,
                value.calories, value.ingredients, value.allergens.isEmpty ? nil : value.allergens.joined(separator: ", "),
                row.hasPage, serving?.amount, serving?.unit, value.labelBasis?.rawValue, value.servingGrams,
                value.batchPortions)
            for each in row.codes.sorted() {
                try code.insert(id, each)
            }
            for (index, part) in value.components.enumerated() {
                try component.insert(id, index + 1, part.name, part.amount, part.unit, part.food?.description,
                                     part.isHeading, part.isSubRecipe)
            }
        }
    }

    private func writeNutrients(_ foods: [Food], _ insert: (String) throws -> RowInsert) throws {
        let amount = try insert("""
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

    /// The `nutrient` table: each key the foods' labels print, with the first name and unit met,
    /// by key. Written every night, before the label versions add theirs.
    static func writeNutrientNames(_ foods: [Food], into db: Database) throws {
        var nutrients: [NutrientKey: (name: String, unit: String?)] = [:]
        for food in foods {
            for value in food.nutrients where nutrients[value.key] == nil {
                nutrients[value.key] = (value.name, value.unit)
            }
        }
        let nutrient = try RowInsert(db, sql: "INSERT INTO nutrient (key, name, unit) VALUES (?, ?, ?)")
        for (key, info) in nutrients.sorted(by: { $0.key < $1.key }) {
            try nutrient.insert(key.rawValue, info.name, info.unit)
        }
    }
}
