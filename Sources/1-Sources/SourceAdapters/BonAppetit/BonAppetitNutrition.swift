import FoodModel
import Foundation
import Nutrition
import SourceReading

/// What an item declares of its label, per serving: `nutrition.kcal` (text; empty is "not
/// declared", never 0), and, where an answer carries them (the items API), `nutrition_details`,
/// entries of `{label, value, unit}` such as `fatContent: {label: "Fat", value: "10", unit: "g"}`
/// and the serving (`servingSize`). Values are read in the unit each declares, unless the answer's
/// values of that nutrient are implausible in it (`units(of:)`).
enum BonAppetitNutrition {
    struct Read {
        var nutrients: [NutrientValue] = []
        var servingSize: String?
        var problems: [String] = []
    }

    /// The `nutrition` keys that are no amount: a well-being programme's mark and its picture.
    static let notNutrients: Set<String> = ["kcal", "well_being", "well_being_image"]

    static func read(_ item: [String: Any], units: LabelUnits, place: String) -> Read {
        var read = Read()
        let nutrition = item["nutrition"] as? [String: Any] ?? [:]
        if let raw = nutrition["kcal"], !isBlank(raw) {
            if let kcal = JSONFields.number(raw), kcal >= 0 {
                read.nutrients.append(NutrientValue(key: .calories, name: "Calories", amount: kcal, unit: "kcal"))
            } else {
                read.problems.append("\(place): nutrition.kcal is \(describe(raw)), not an amount: left out")
            }
        }
        for key in nutrition.keys.sorted() where !notNutrients.contains(key) && !isBlank(nutrition[key]) {
            read.problems.append("\(place): nutrition.\(key) is a field this reader does not know: kept out of the label")
        }
        let details = item["nutrition_details"] as? [String: Any] ?? [:]
        for key in details.keys.sorted() {
            guard let entry = details[key] as? [String: Any], !isBlank(entry["value"]) else { continue }
            let label = JSONFields.text(entry["label"]) ?? key
            let unit = JSONFields.text(entry["unit"])
            if key == "servingSize" || label.lowercased() == "serving size" {
                read.servingSize = [JSONFields.text(entry["value"]), unit].compactMap { $0 }.joined(separator: " ")
                continue
            }
            let nutrient = NutrientNaming.key(forLabel: label)
            var value = nutrient == .calories
                ? NutrientValue(key: .calories, name: "Calories", amount: nil, unit: "kcal")
                : NutrientValue(key: nutrient, name: label, amount: nil, unit: units.unit(of: nutrient, printed: unit))
            guard record(entry["value"], in: &value) else {
                read.problems.append("\(place): nutrition_details.\(key) is \(describe(entry["value"] as Any)), not an amount: left out")
                continue
            }
            if let amount = value.amount, !units.admits(amount, of: nutrient, printed: unit) {
                read.problems.append("\(place): nutrition_details.\(key) is \(JSONFields.plain(amount)) \(unit ?? ""), more than "
                                     + "a serving of any food holds in \(value.unit ?? ""), the unit the answer's other values "
                                     + "are read in: left out")
                continue
            }
            if nutrient == .calories, read.nutrients.contains(where: { $0.key == .calories }) { continue }
            read.nutrients.append(value)
        }
        return read
    }

    /// A number as the amount; a printed bound ("< 1", as fibre and protein print below a gram)
    /// as a bound, with the text as printed (`PrintedAmount`). False for anything else.
    private static func record(_ raw: Any?, in value: inout NutrientValue) -> Bool {
        if let amount = JSONFields.number(raw), amount >= 0 {
            value.amount = amount
            return true
        }
        guard let printed = JSONFields.text(raw) else { return false }
        let reading = PrintedAmount(printed)
        guard case .below = reading else { return false }
        return reading.record(printed, in: &value) != .unreadable
    }

    static func isBlank(_ value: Any?) -> Bool {
        value == nil || value is NSNull || (value as? String)?.trimmingCharacters(in: .whitespaces).isEmpty == true
    }

    private static func describe(_ value: Any) -> String {
        (value as? String).map { "\"\($0)\"" } ?? JSONFields.kind(of: value)
    }

    /// The units of one answer's items, judged together (`LabelUnits`): the platform stores a
    /// field in one unit for all its items, so a nutrient's values are judged per answer and
    /// declared unit, never per value; an item declaring another unit is judged with those that
    /// declare it.
    static func units(of items: [String: Any]) -> LabelUnits {
        var declared: [(nutrient: NutrientKey, unit: String, amount: Double)] = []
        for case let item as [String: Any] in items.values {
            for case let entry as [String: Any] in (item["nutrition_details"] as? [String: Any] ?? [:]).values {
                guard let label = JSONFields.text(entry["label"]), let unit = JSONFields.text(entry["unit"]),
                      let amount = JSONFields.number(entry["value"]), amount >= 0 else { continue }
                declared.append((NutrientNaming.key(forLabel: label), unit, amount))
            }
        }
        return LabelUnits(declaring: declared)
    }
}
