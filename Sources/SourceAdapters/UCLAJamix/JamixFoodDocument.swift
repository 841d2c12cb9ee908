import DiningSources
import FoodModel
import Foundation

/// A food's own document in UCLA's feed: `ingredients/{id}.json` (an item served as bought) or
/// `recipes/{id}.json` (a dish cooked in the kitchen), read into a `Food` with its serving,
/// nutrients and their units, ingredients text, allergens and diets.
///
/// The ingredient reader follows real documents. No recipe document was ever captured: its reader
/// follows the fields other public readers of the feed use (docs/sources/ucla-jamix.md) and refuses,
/// in one line naming the file and the field, what does not fit them.
public enum JamixFoodDocument {
    public static func parse(_ data: Data, foodId: String, location: String) throws -> Food {
        guard let (kind, _) = JamixMenuDay.document(of: foodId) else {
            throw InputError("\"\(foodId)\" is not a recipe or ingredient id of the feed", at: location)
        }
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw InputError("not valid JSON (truncated, or not a document of the feed)", at: location)
        }
        guard let fields = json as? [String: Any] else {
            throw InputError("expected an object, found \(JSONFields.kind(of: json))", at: location)
        }
        let id = FoodID(source: JamixMenuDay.sourceName, recipeId: foodId)
        switch kind {
        case .ingredient: return try ingredient(fields, id: id, location: location)
        case .recipe: return try recipe(fields, id: id, location: location)
        }
    }

    private static func ingredient(_ fields: [String: Any], id: FoodID, location: String) throws -> Food {
        guard let name = JSONFields.text(fields["ingredientName"]) else {
            throw InputError("ingredientName is missing: not an ingredient document", at: location)
        }
        let allergens = try names(fields["ingredientAllergens"], field: "ingredientAllergens", location: location)
        let diets = try names(fields["ingredientDiets"], field: "ingredientDiets", location: location)
        var food = Food(id: id, name: name, ingredients: JSONFields.text(fields["ingredientListOfIngredients"]),
                        allergens: allergens, codes: JamixCodes.codes(allergens: allergens, diets: diets))
        if let values = fields["ingredientNutritiveValues"] as? [String: Any] {
            let nutrients = try nutrients(values, field: "ingredientNutritiveValues", location: location)
            // A block of zeros is a label nobody filled in, not a food with no energy.
            if nutrients.contains(where: { ($0.amount ?? 0) != 0 }) {
                food.nutrients = nutrients
                food.calories = nutrients.first { $0.key == .calories }?.amount
                if let portion = JSONFields.number(values["portion"]) {
                    food.servingSize = [JSONFields.plain(portion), JSONFields.text(values["portionUnit"]) ?? "g"]
                        .joined(separator: " ")
                }
            }
        }
        return food
    }

    private static func recipe(_ fields: [String: Any], id: FoodID, location: String) throws -> Food {
        guard let name = english(fields["recipeNameTranslations"]) ?? JSONFields.text(fields["recipeName"]) else {
            throw InputError("recipeNameTranslations.EN is missing: not a recipe document", at: location)
        }
        var allergens: [String] = []
        if let list = fields["recipeAllergens"] {
            guard let entries = list as? [Any] else {
                throw InputError("recipeAllergens: expected a list, found \(JSONFields.kind(of: list))", at: location)
            }
            for (index, entry) in entries.enumerated() {
                if let name = JSONFields.text(entry) ?? JSONFields.text((entry as? [String: Any])?["allergenName"]) {
                    allergens.append(name)
                } else {
                    throw InputError("recipeAllergens[\(index)]: expected an object with allergenName", at: location)
                }
            }
        }
        let diets = try names(fields["recipeDiets"], field: "recipeDiets", location: location)
        var food = Food(id: id, name: name, ingredients: english(fields["recipeListOfIngredientsTranslations"]),
                        allergens: allergens, codes: JamixCodes.codes(allergens: allergens, diets: diets))
        if let portions = JSONFields.number(fields["recipePortions"] ?? fields["recipePortionSize"]) {
            food.servingSize = [JSONFields.plain(portions), JSONFields.text(fields["recipePortionSizeUnit"])]
                .compactMap { $0 }.joined(separator: " ")
        }
        if let values = fields["recipeNutritiveValues"] {
            guard let map = values as? [String: Any] else {
                throw InputError("recipeNutritiveValues: expected an object, found \(JSONFields.kind(of: values))",
                                 at: location)
            }
            let nutrients = try nutrients(map, field: "recipeNutritiveValues", location: location)
            if nutrients.contains(where: { ($0.amount ?? 0) != 0 }) {
                food.nutrients = nutrients
                food.calories = nutrients.first { $0.key == .calories }?.amount
            }
        }
        return food
    }

    /// The nutrients the snapshot knows, each with its unit: the document's `<key>Unit` where it
    /// gives one, else the unit the feed uses for that key. A value is a number or an object
    /// with a numeric `value`; anything else is refused. A key the table below does not know
    /// is left out (it is not a label line students see).
    static func nutrients(_ values: [String: Any], field: String, location: String) throws -> [NutrientValue] {
        var nutrients: [NutrientValue] = []
        for entry in JamixCodes.nutrients {
            guard let raw = values[entry.feedKey], !(raw is NSNull) else { continue }
            let amount: Double
            var unit = JSONFields.text(values[entry.feedKey + "Unit"])
            if let number = raw as? NSNumber, !JSONFields.isBoolean(number) {
                amount = number.doubleValue
            } else if let object = raw as? [String: Any], let number = JSONFields.number(object["value"]) {
                amount = number
                unit = JSONFields.text(object["unit"]) ?? unit
            } else {
                throw InputError("\(field).\(entry.feedKey): expected a number or an object with a numeric value, "
                                 + "found \(JSONFields.kind(of: raw))", at: location)
            }
            guard amount.isFinite, amount >= 0 else {
                throw InputError("\(field).\(entry.feedKey): \(amount) is not an amount", at: location)
            }
            nutrients.append(NutrientValue(key: entry.key, name: entry.name, amount: amount,
                                           unit: (unit ?? entry.unit).replacingOccurrences(of: "µg", with: "mcg")))
        }
        return nutrients
    }

    /// A list of names, or nothing; a value of another type is refused.
    private static func names(_ value: Any?, field: String, location: String) throws -> [String] {
        guard let value, !(value is NSNull) else { return [] }
        guard let list = value as? [Any] else {
            throw InputError("\(field): expected a list of names, found \(JSONFields.kind(of: value))", at: location)
        }
        return list.compactMap(JSONFields.text)
    }

    /// The English text of a `...Translations` object (`{"EN": "..."}`), or plain text.
    private static func english(_ value: Any?) -> String? {
        if let translations = value as? [String: Any] {
            return JSONFields.text(translations["EN"]) ?? JSONFields.text(translations["en"])
        }
        return JSONFields.text(value)
    }
}
