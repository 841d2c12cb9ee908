import Basics
import FoodModel
import Foundation
import SourceReading

/// A food's own document in UCLA's feed: `ingredients/{id}.json` (an item served as bought) or
/// `recipes/{id}.json` (a dish cooked in the kitchen), read into a `Food` with its serving,
/// nutrients and their units, ingredients text, allergens and diets.
///
/// Both readers follow real documents (Sources/1-Sources/SourceAdapters/UCLAJamix/README.md). A field of an unexpected type
/// that the dish can do without is left out and reported; a document that is not one of the
/// feed's is refused in one line naming the file and the field.
public enum JamixFoodDocument {
    public static func parse(_ data: Data, foodId: String, location: String) throws -> FoodReading {
        guard let (kind, _) = JamixMenuDay.document(of: foodId) else {
            throw Failure.badInput("\"\(foodId)\" is not a recipe or ingredient id of the feed", at: location)
        }
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw JSONNesting.failure(data, location: location)
                ?? Failure.badInput("not valid JSON (truncated, or not a document of the feed)", at: location)
        }
        guard let fields = json as? [String: Any] else {
            throw Failure.badInput("expected an object, found \(JSONFields.kind(of: json))", at: location)
        }
        let id = FoodID(source: JamixMenuDay.sourceName, recipeId: foodId)
        switch kind {
        case .ingredient: return try ingredient(fields, id: id, location: location)
        case .recipe: return try recipe(fields, id: id, location: location)
        }
    }

    /// An ingredient document: its nutrients are flat numbers per `portion` (100, in g: the amount
    /// the values are per, not a serving, which only the menu row states).
    private static func ingredient(_ fields: [String: Any], id: FoodID, location: String) throws -> FoodReading {
        guard let name = JSONFields.text(fields["ingredientName"]) else {
            throw Failure.badInput("ingredientName is missing: not an ingredient document", at: location)
        }
        let allergens = try names(fields["ingredientAllergens"], field: "ingredientAllergens", location: location)
        let diets = try names(fields["ingredientDiets"], field: "ingredientDiets", location: location)
        var food = Food(id: id, name: name, ingredients: JSONFields.text(fields["ingredientListOfIngredients"]),
                        allergens: allergens, codes: JamixCodes.codes(allergens: allergens, diets: diets))
        var problems: [String] = []
        if let values = fields["ingredientNutritiveValues"] as? [String: Any] {
            let nutrients = try nutrients(values, field: "ingredientNutritiveValues", location: location)
            let portion = JSONFields.number(values["portion"])
            let unit = JSONFields.text(values["portionUnit"]) ?? "g"
            // A block of zeros is a label nobody filled in, not a food with no energy.
            let filled = nutrients.contains { ($0.amount ?? 0) != 0 }
            if filled, (portion ?? 100) == 100, unit == "g" {
                food.nutrients = nutrients
                food.calories = nutrients.first { $0.key == .calories }?.amount
                food.labelBasis = .hundredGrams
            } else if filled {
                problems.append("\(location): ingredientNutritiveValues is per \(portion.map(JSONFields.plain) ?? "?") "
                                + "\(unit), not per 100 g: the item is kept without its label")
            } else if holdsValues(values), (portion ?? 100) == 100, unit == "g" {
                food.labelBasis = .hundredGrams
            }
        }
        return FoodReading(food: food, problems: problems)
    }

    /// A recipe document as the feed really serves it (Sources/1-Sources/SourceAdapters/UCLAJamix/README.md): the serving is
    /// `recipePortionSize` + unit, `recipePortions` the batch; the nutrients are per 100 g (their own
    /// `portionSize`), with `dailyValues` the %DV of those per-100 g amounts. A document without a
    /// label (`recipeNutritiveValues` null) is still the dish, with its name, allergens, diets
    /// and composition.
    private static func recipe(_ fields: [String: Any], id: FoodID, location: String) throws -> FoodReading {
        guard let name = english(fields["recipeNameTranslations"]) ?? JSONFields.text(fields["recipeName"]) else {
            throw Failure.badInput("recipeNameTranslations.EN is missing: not a recipe document", at: location)
        }
        var problems: [String] = []
        let allergens = recipeAllergens(fields["recipeAllergens"], location: location, problems: &problems)
        let diets = JamixCodes.diets(codes: JSONFields.text(fields["recipeDiet"]),
                                     names: JSONFields.text(fields["recipeDietFull"]))
        var food = Food(id: id, name: name,
                        ingredients: english(fields["recipeListOfIngredientsTranslations"])
                            ?? english(fields["recipeListOfIngredients"]),
                        allergens: allergens, codes: JamixCodes.codes(allergens: allergens, diets: diets))
        setPortions(of: &food, from: fields)
        food.components = components(fields["recipeIngredientRows"], location: location, problems: &problems)
        food.cookingLossPercent = cookingLoss(fields["cookingLossPercentage"], location: location, problems: &problems)
        try setLabel(of: &food, from: fields, location: location, problems: &problems)
        return FoodReading(food: food, problems: problems)
    }

    /// A recipe's allergens, each a name or an object with `allergenName`; an entry with neither
    /// is left out and reported.
    private static func recipeAllergens(_ value: Any?, location: String, problems: inout [String]) -> [String] {
        var allergens: [String] = []
        for (index, entry) in JSONFields.array(value).enumerated() {
            if let name = JSONFields.text(entry) ?? JSONFields.text((entry as? [String: Any])?["allergenName"]) {
                allergens.append(name)
            } else {
                problems.append("\(location): recipeAllergens[\(index)] has no allergenName, left out")
            }
        }
        return allergens
    }

    /// The serving (`recipePortionSize` + unit) and the batch it is cooked in (`recipePortions`),
    /// where they are positive numbers.
    private static func setPortions(of food: inout Food, from fields: [String: Any]) {
        if let size = JSONFields.number(fields["recipePortionSize"]), size.isFinite, size > 0 {
            let unit = JSONFields.text(fields["recipePortionSizeUnit"])
            food.servingSize = [JSONFields.plain(size), unit].compactMap { $0 }.joined(separator: " ")
            food.serving = unit.map { ServingSize(amount: size, unit: $0) }
        }
        if let batch = JSONFields.number(fields["recipePortions"]), batch.isFinite, batch > 0 {
            food.batchPortions = batch
        }
    }

    /// The share of weight lost in cooking, a percentage below 100; anything else is reported and left out.
    private static func cookingLoss(_ value: Any?, location: String, problems: inout [String]) -> Double? {
        guard let loss = JSONFields.number(value) else { return nil }
        guard loss.isFinite, (0..<100).contains(loss) else {
            problems.append("\(location): cookingLossPercentage \(JSONFields.plain(loss)) is not a share of a weight, left out")
            return nil
        }
        return loss
    }

    /// The recipe's label from `recipeNutritiveValues` (per 100 g) with its printed %DV from
    /// `dailyValues`; a label per anything else is reported and the dish kept without it.
    private static func setLabel(of food: inout Food, from fields: [String: Any], location: String,
                                 problems: inout [String]) throws {
        switch fields["recipeNutritiveValues"] {
        case nil, is NSNull:
            break
        case let map as [String: Any]:
            guard let basis = basis(of: map) else {
                problems.append("\(location): recipeNutritiveValues is per \(JSONFields.text(map["portionSize"]) ?? "?") "
                                + "\(JSONFields.text(map["portitionSizeUnit"] ?? map["portionSizeUnit"]) ?? "?"), "
                                + "not per 100 g: the dish is kept without its label")
                break
            }
            var nutrients = try nutrients(map, field: "recipeNutritiveValues", location: location)
            if nutrients.contains(where: { ($0.amount ?? 0) != 0 }) {
                let printed = fields["dailyValues"] as? [String: Any] ?? [:]
                for index in nutrients.indices {
                    nutrients[index].printedDailyValuePercent = printedPercent(of: nutrients[index], in: printed)
                }
                food.nutrients = nutrients
                food.calories = nutrients.first { $0.key == .calories }?.amount
                food.labelBasis = basis
            } else if holdsValues(map) {
                // Values under names this reader does not know: a label that yielded nothing,
                // which the checks name, rather than a dish that silently has none.
                food.labelBasis = basis
            }
        case let other?:
            throw Failure.badInput("recipeNutritiveValues: expected an object, found \(JSONFields.kind(of: other))",
                                   at: location)
        }
    }

    /// Whether a nutrient block holds any value other than 0 under any name but the amount it is
    /// per: a number, or an object's `value`.
    private static func holdsValues(_ values: [String: Any]) -> Bool {
        values.contains { key, value in
            guard !["portion", "portionSize"].contains(key) else { return false }
            let number = (value as? NSNumber).flatMap { JSONFields.isBoolean($0) ? nil : $0.doubleValue }
                ?? JSONFields.number((value as? [String: Any])?["value"])
            return (number ?? 0) != 0
        }
    }

    /// What a nutrient block is per: 100 g where it says so, or where it says nothing (every real
    /// document says `portionSize: 100`, `portitionSizeUnit: "g"`, the feed's own spelling); nil
    /// for any other amount, which the snapshot has no basis for.
    private static func basis(of values: [String: Any]) -> LabelBasis? {
        let size = values["portionSize"].map(JSONFields.number)
        let unit = (values["portitionSizeUnit"] ?? values["portionSizeUnit"]).map(JSONFields.text)
        switch (size, unit) {
        case (nil, nil): return .hundredGrams
        case (.some(100), .some("g")), (.some(100), nil): return .hundredGrams
        default: return nil
        }
    }

    /// The %DV `dailyValues` prints for a nutrient: `{value}` under the nutrient's key, or for
    /// energy the kcal entry of `energy.values`.
    private static func printedPercent(of nutrient: NutrientValue, in printed: [String: Any]) -> Double? {
        guard let feedKey = JamixCodes.nutrients.first(where: { $0.key == nutrient.key })?.feedKey else { return nil }
        let value: Double?
        if nutrient.key == .calories {
            value = JSONFields.array((printed["energy"] as? [String: Any])?["values"])
                .compactMap { $0 as? [String: Any] }
                .first { JSONFields.text($0["unit"]) == "kcal" }
                .flatMap { JSONFields.number($0["value"]) }
        } else {
            value = JSONFields.number((printed[feedKey] as? [String: Any])?["value"])
        }
        return value.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    }

    /// `recipeIngredientRows` in their order (`ingredientRowOrder`, then as listed): a sub-recipe
    /// row points at that recipe's document, an ingredient row at the ingredient's; a row with
    /// neither and no amount is a heading. A row without a name is left out, and reported when
    /// it has an amount or a document (an empty line of the recipe is no loss).
    private static func components(_ value: Any?, location: String, problems: inout [String]) -> [FoodComponent] {
        var rows: [(order: Double, component: FoodComponent)] = []
        for (index, entry) in JSONFields.array(value).enumerated() {
            guard let row = entry as? [String: Any] else {
                problems.append("\(location): recipeIngredientRows[\(index)] is not an object, left out")
                continue
            }
            let amount = JSONFields.number(row["ingredientAmount"]).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            guard let name = english(row["ingredientNameTranslations"]) ?? JSONFields.text(row["ingredientName"]) else {
                // A row with no name, amount or document is an empty line of the recipe.
                if (amount ?? 0) > 0 || JSONFields.identifier(row["ingredientId"]) != nil
                    || JSONFields.identifier(row["subrecipeId"]) != nil {
                    problems.append("\(location): recipeIngredientRows[\(index)] has no ingredientName, left out")
                }
                continue
            }
            var food: FoodID?
            let isSubRecipe = JSONFields.bool(row["isSubrecipe"]) == true
            if isSubRecipe, let recipe = JSONFields.identifier(row["subrecipeId"]) {
                food = FoodID(source: JamixMenuDay.sourceName, recipeId: JamixMenuDay.foodId(.recipe, recipe))
            } else if let ingredient = JSONFields.identifier(row["ingredientId"]) {
                food = FoodID(source: JamixMenuDay.sourceName, recipeId: JamixMenuDay.foodId(.ingredient, ingredient))
            }
            let heading = food == nil && amount == nil && JSONFields.bool(row["isSubTitle"]) == true
            let order = JSONFields.number(row["ingredientRowOrder"]) ?? Double(index)
            rows.append((order.isFinite ? order : Double(index),
                         FoodComponent(name: name, amount: heading ? nil : amount,
                                       unit: heading ? nil : JSONFields.text(row["ingredientAmountUnit"]),
                                       food: food, isHeading: heading, isSubRecipe: isSubRecipe && !heading)))
        }
        return rows.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }
            .map(\.element.component)
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
                throw Failure.badInput("\(field).\(entry.feedKey): expected a number or an object with a numeric value, "
                                       + "found \(JSONFields.kind(of: raw))", at: location)
            }
            guard amount.isFinite, amount >= 0 else {
                throw Failure.badInput("\(field).\(entry.feedKey): \(amount) is not an amount", at: location)
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
            throw Failure.badInput("\(field): expected a list of names, found \(JSONFields.kind(of: value))", at: location)
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
