import FoodModel
import Foundation
import SourceReading

/// A Nutrislice food object: its label (`rounded_nutrition_info`, each key naming its unit,
/// `g_fat`, `mg_sodium`, unless the answer's values say otherwise (`NutrisliceUnits`); null is
/// "not declared", never 0), serving (`serving_size_info`, as printed and, where the text
/// allows, as an amount and a unit), ingredients and icons.
enum NutrisliceFood {
    struct Read {
        var food: Food
        var problems: [String]
        /// The label's keys read in another unit than their own.
        var reread: [String]
    }

    static func read(_ fields: [String: Any], id: String, name: String, units: NutrisliceUnits,
                     place: String) -> Read {
        var problems: [String] = []
        var reread: [String] = []
        let icons = (fields["icons"] as? [String: Any]).map { JSONFields.array($0["food_icons"]) } ?? []
        var codes: [String] = []
        var allergens: [String] = []
        for case let icon as [String: Any] in icons {
            // The slug is the platform's stable name for an icon; a custom icon without one is
            // kept under its shown name.
            guard let code = JSONFields.text(icon["slug"]) ?? JSONFields.text(icon["name"]) else { continue }
            if !codes.contains(code) { codes.append(code) }
            if NutrisliceCodes.kind(of: code) == .allergen {
                allergens.append(JSONFields.text(icon["synced_name"]) ?? JSONFields.text(icon["name"]) ?? code)
            }
        }
        var food = Food(id: FoodID(source: NutrisliceMenu.sourceName, recipeId: id), name: name,
                        description: JSONFields.text(fields["description"]),
                        ingredients: JSONFields.text(fields["ingredients"]) ?? JSONFields.text(fields["synced_ingredients"]),
                        allergens: allergens, codes: codes)
        if let serving = fields["serving_size_info"] as? [String: Any] {
            let amount = JSONFields.text(serving["serving_size_amount"]) ?? JSONFields.number(serving["serving_size_amount"]).map(JSONFields.plain)
            let unit = JSONFields.text(serving["serving_size_unit"])
            let printed = [amount, unit].compactMap { $0 }.joined(separator: " ")
            food.servingSize = printed.isEmpty ? nil : printed
            food.serving = servingSize(amount: amount, unit: unit)
        }
        // `has_nutrition_info: false` means the values present are not a label. A label whose
        // every value is null is none either: the platform sets the flag on build-your-own bars
        // ("Build Your Own Salad") that declare nothing.
        if JSONFields.bool(fields["has_nutrition_info"]) != false,
           let values = fields["rounded_nutrition_info"] as? [String: Any],
           values.values.contains(where: { !($0 is NSNull) }) {
            let label = nutrients(values, units: units, place: place)
            food.nutrients = label.nutrients
            food.labelBasis = .serving
            problems += label.problems
            reread = label.reread
            food.calories = label.nutrients.first { $0.key == .calories }?.amount
        }
        return Read(food: food, problems: problems, reread: reread)
    }

    /// The amount and unit of a serving: "1" and "each" is 1 each; a unit that carries its own
    /// amount ("11.6 oz", "2 slice") is that amount times the first; a unit with digits inside
    /// it ("each1.9 oz") is not read.
    static func servingSize(amount: String?, unit: String?) -> ServingSize? {
        guard let amount, let count = Double(amount), count > 0, let unit else { return nil }
        if let inner = ServingSize(printed: unit) {
            return ServingSize(amount: count * inner.amount, unit: inner.unit)
        }
        return ServingSize(printed: "\(amount) \(unit)")
    }

    /// Every declared value of the label, its unit from its key's prefix or, for a key the
    /// answer's values show to be in another unit, that one (`units`). Where several keys
    /// declare one nutrient in different units (`mcg_vitamin_a`, `iu_vitamin_a`), the first
    /// declared in `NutrisliceCodes.unitPreference` order is kept, and of two in one unit the one
    /// that declares it itself (`mcg_vitamin_d` before `mg_vitamin_d` read in mcg). A key of
    /// unknown form is reported, not guessed.
    static func nutrients(_ values: [String: Any], units: NutrisliceUnits, place: String)
        -> (nutrients: [NutrientValue], problems: [String], reread: [String]) {
        var byKey: [NutrientKey: (rank: Int, reread: Bool, value: NutrientValue)] = [:]
        var problems: [String] = []
        var reread: [String] = []
        for (field, raw) in values.sorted(by: { $0.key < $1.key }) {
            guard !(raw is NSNull) else { continue }
            guard let amount = JSONFields.number(raw), amount.isFinite, amount >= 0 else {
                problems.append("\(place): rounded_nutrition_info.\(field) is \(JSONFields.kind(of: raw)), not an amount: left out")
                continue
            }
            guard let nutrient = NutrisliceCodes.nutrient(field) else {
                problems.append("\(place): rounded_nutrition_info.\(field) names no unit this reader knows: left out")
                continue
            }
            let read = units.unit(of: field)
            let unit = read ?? nutrient.unit
            guard units.admits(field, amount) else {
                problems.append("\(place): rounded_nutrition_info.\(field) is \(JSONFields.plain(amount)), more than a serving "
                                + "of any food holds in \(unit), the unit the answer's other values are read in: left out")
                continue
            }
            if read != nil { reread.append(field) }
            let rank = NutrisliceCodes.unitPreference.firstIndex(of: unit) ?? .max
            if let kept = byKey[nutrient.key], (kept.rank, kept.reread ? 1 : 0) <= (rank, read != nil ? 1 : 0) { continue }
            byKey[nutrient.key] = (rank, read != nil, NutrientValue(key: nutrient.key, name: nutrient.name,
                                                                    amount: amount, unit: unit))
        }
        let nutrients = byKey.values.map(\.value).sorted {
            (NutrisliceCodes.labelOrder($0.key), $0.key) < (NutrisliceCodes.labelOrder($1.key), $1.key)
        }
        return (nutrients, problems, reread)
    }
}
