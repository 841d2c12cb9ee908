import FoodModel
import Foundation
import SourceReading

/// An item's label, filters and allergens. A nutrient's name carries its unit ("Protein (g)")
/// beside `uom`; its value is text that may be a number, a bound ("< 1" or "less than 1 gram":
/// below 1; "0+": at least 0, the kitchen's sum lacking some ingredients) or unknown ("-").
enum DineOnCampusFood {
    struct Read {
        var food: Food
        var problems: [String]
    }

    static func read(_ item: [String: Any], name: String, place: String) -> Read {
        var problems: [String] = []
        var codes: [String] = []
        var allergens: [String] = []
        for case let filter as [String: Any] in JSONFields.array(item["filters"]) {
            guard let code = JSONFields.text(filter["name"]) else { continue }
            if !codes.contains(code) { codes.append(code) }
            if JSONFields.text(filter["type"])?.lowercased() == "allergen" { allergens.append(code) }
        }
        for custom in JSONFields.array(item["custom_allergens"]) {
            let name = JSONFields.text(custom) ?? JSONFields.text((custom as? [String: Any])?["name"])
            if let name, !allergens.contains(name) { allergens.append(name) }
        }
        var food = Food(id: FoodID(source: DineOnCampusMenu.sourceName, recipeId: ""), name: name,
                        description: JSONFields.text(item["desc"]), servingSize: JSONFields.text(item["portion"]),
                        ingredients: JSONFields.text(item["ingredients"]), allergens: allergens, codes: codes)
        let printedNutrients = JSONFields.array(item["nutrients"])
        // The list is the item's label, per its portion; an item without one printed no label.
        if !printedNutrients.isEmpty { food.labelBasis = .serving }
        for (index, value) in printedNutrients.enumerated() {
            guard let fields = value as? [String: Any], let printedName = JSONFields.text(fields["name"]) else {
                problems.append("\(place): nutrients[\(index)] has no name: left out")
                continue
            }
            let (label, unitInName) = split(printedName)
            let unit = JSONFields.text(fields["uom"]) ?? unitInName
            let printed = JSONFields.text(fields["value"]) ?? JSONFields.number(fields["value"]).map(JSONFields.plain)
                ?? JSONFields.text(fields["value_numeric"])
            guard let printed else { continue }
            var nutrient = NutrientValue(key: NutrientNaming.key(forLabel: label), name: label, amount: nil, unit: unit)
            let reading = PrintedAmount(printed)
            if reading.record(printed, in: &nutrient) == .unreadable {
                if reading == .unreadable, let numeric = JSONFields.number(fields["value_numeric"]), numeric.isFinite,
                   numeric >= 0, JSONFields.text(fields["value_numeric"]) != printed {
                    // The answer's own number beside a text that is no amount nor bound.
                    nutrient.amount = numeric
                    problems.append("\(place): \(printedName) is \"\(printed)\", not an amount: its value_numeric, "
                                    + "\(JSONFields.plain(numeric)), taken")
                } else if case .below(_, let words?) = reading, let unit {
                    problems.append("\(place): \(printedName) is \"\(printed)\", a bound in \(words), which cannot be "
                                    + "expressed in \(unit): kept as printed, with no bound")
                } else {
                    problems.append("\(place): \(printedName) is \"\(printed)\", not an amount: kept as printed")
                }
            }
            guard !food.nutrients.contains(where: { $0.key == nutrient.key }) else {
                problems.append("\(place): \(printedName) is listed twice: the first kept")
                continue
            }
            food.nutrients.append(nutrient)
        }
        food.calories = food.nutrients.first { $0.key == .calories }?.amount
            ?? (food.nutrients.contains { $0.key == .calories } ? nil : JSONFields.number(item["calories"]))
        food.serving = food.servingSize.flatMap(ServingSize.init(printed:))
        return Read(food: food, problems: problems)
    }

    /// "Protein (g)" is ("Protein", "g"); a name without a bracketed unit keeps it whole.
    static func split(_ name: String) -> (label: String, unit: String?) {
        guard name.hasSuffix(")"), let open = name.lastIndex(of: "(") else { return (name, nil) }
        let unit = name[name.index(after: open)..<name.index(before: name.endIndex)].trimmingCharacters(in: .whitespaces)
        let label = name[..<open].trimmingCharacters(in: .whitespaces)
        return label.isEmpty || unit.isEmpty ? (name, nil) : (label, unit)
    }
}
