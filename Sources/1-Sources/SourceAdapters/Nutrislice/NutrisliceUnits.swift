import FoodModel
import Foundation
import Nutrition
import SourceReading

/// The unit each nutrient key of one answer (a week, or a saved day) is read in. A key names its
/// unit (`mg_vitamin_d`), but an organisation sets its keys up once for all its foods, and can
/// set one up wrongly: UW–Madison's `mg_vitamin_d` holds micrograms (an egg sandwich's 1.1 would
/// be 5,500% of the daily value in mg). A key whose values, in its own unit, reach more than a
/// serving of any food holds (`PlausibleAmount`) is read, for the whole answer, in the smaller
/// unit in which every one of them is plausible (Sources/1-Sources/SourceAdapters/Nutrislice/README.md).
///
/// The judgement is per answer and key, never per value: the platform stores one key in one unit,
/// so a food's 0.1 beside another's 1.2 are both micrograms, although 0.1 mg alone would be a
/// lot of vitamin D rather than an impossible amount.
struct NutrisliceUnits {
    struct Reading {
        var declared: NutrientUnit
        var judgement: PlausibleAmount.Judgement
        /// The largest value of the key in the answer.
        var largest: Double
        /// How many of the key's values the unit read does not admit.
        var refused: Int
        var nutrient: NutrientKey
    }

    /// The keys of a nutrient whose plausible amounts are known, judged on the answer's values.
    private(set) var readings: [String: Reading] = [:]

    /// Every key as it declares itself.
    init() {}

    /// The units for the foods of `days` (each a day object with its `menu_items`).
    init(days: [[String: Any]]) {
        var amounts: [String: [Double]] = [:]
        for day in days {
            for case let row as [String: Any] in JSONFields.array(day["menu_items"]) {
                guard let food = row["food"] as? [String: Any], JSONFields.bool(food["has_nutrition_info"]) != false,
                      let label = food["rounded_nutrition_info"] as? [String: Any]
                else { continue }
                for (field, raw) in label {
                    if let amount = JSONFields.number(raw), amount.isFinite, amount >= 0 {
                        amounts[field, default: []].append(amount)
                    }
                }
            }
        }
        for (field, values) in amounts {
            guard let nutrient = NutrisliceCodes.nutrient(field), let declared = NutrientUnit(label: nutrient.unit) else { continue }
            let judgement = PlausibleAmount.judge(values, of: nutrient.key, declaredIn: declared)
            guard judgement.limit != nil else { continue }
            readings[field] = Reading(declared: declared, judgement: judgement, largest: values.max() ?? 0,
                                      refused: values.filter { !judgement.admits($0) }.count, nutrient: nutrient.key)
        }
    }

    /// The unit a key's values are read in, where it is not the key's own.
    func unit(of field: String) -> String? {
        readings[field].flatMap { $0.judgement.unit != $0.declared ? $0.judgement.unit.rawValue : nil }
    }

    /// Whether a value of the key is one a serving can hold, in the unit the key is read in.
    func admits(_ field: String, _ amount: Double) -> Bool {
        readings[field]?.judgement.admits(amount) ?? true
    }

    /// The line that says a key of a day was read in another unit, and why.
    func note(_ field: String, values: Int, place: String) -> String? {
        guard let reading = readings[field], reading.judgement.unit != reading.declared,
              let ceiling = PlausibleAmount.ceiling(of: reading.nutrient) else { return nil }
        let declared = reading.declared.rawValue
        let read = reading.judgement.unit.rawValue
        return "\(place) rounded_nutrition_info.\(field): \(values) value(s) read in \(read), not "
            + "\(declared): the answer's values reach \(JSONFields.plain(reading.largest)), more than a serving of any "
            + "food holds in \(declared) (\(reading.nutrient): at most \(JSONFields.plain(ceiling.amount)) "
            + "\(ceiling.unit.rawValue)), and "
            + (reading.refused == 0 ? "every one is plausible in \(read)"
                : "all but \(reading.refused) are plausible in \(read) (those left out)")
    }
}
