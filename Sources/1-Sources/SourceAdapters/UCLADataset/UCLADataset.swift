import Basics
import Foundation
import FoodModel

/// Adapter for the historical UCLA menus dataset (lqwk/ucla-dining-dataset, `data/v1`, MIT):
/// one JSON file per day, `{"b"|"l"|"d": [{"r", "rk": [{"k", "i": [{"e", "t", "n"}]}]}]}`.
///
/// The dataset is a scrape of the menu site with the HTML already stripped, so it has no recipe
/// ids, no portions and no descriptions, only the entree name, a vegetarian/vegan flag and the
/// 21 strings of the nutrition label.
public enum UCLADataset {
    public static let sourceName = "ucla-dataset"

    /// Parses one day's file into the food hierarchy and the foods it mentions (once each, in
    /// first-appearance order). `location` names the file in errors.
    ///
    /// Meals come out as Breakfast, Lunch, Dinner whatever the key order in the file; a meal whose
    /// list is empty or missing is left out (weekends have `"b": []`: brunch is listed under `l`).
    /// The same name served in several halls is one food, and the first label in file order that
    /// could be read is the food's that day. Every entree prints a label of its own, and halls can
    /// print different ones for one name on one day (Oatmeal on 2016-07-25: 159 kcal at Covel,
    /// 378 at Rieber): an item whose own label is not the food's carries it (`MenuItem.label`),
    /// so that it is published with what its hall printed. One whose own label could not be
    /// read carries an empty one, which gets no version of its own (docs/nutrition.md).
    public static func parseDay(_ data: Data, date: ServiceDate, location: String) throws
        -> (day: ServiceDay, foods: [Food], problems: [String])
    {
        let file = try decodeFile(data, location: location)
        var foods: [Food] = []
        var problems: [String] = []
        var seen: Set<FoodID> = []
        var meals: [Meal] = []
        for (mealName, restaurants) in [("Breakfast", file.b), ("Lunch", file.l), ("Dinner", file.d)] {
            guard let restaurants, !restaurants.isEmpty else { continue }
            var parsedRestaurants: [Restaurant] = []
            for restaurant in restaurants {
                var sections: [Section] = []
                for kitchen in restaurant.rk {
                    var items: [MenuItem] = []
                    for (index, entree) in kitchen.i.enumerated() {
                        let place = ItemPlace(file: location, meal: mealName, restaurant: restaurant.r,
                                              kitchen: kitchen.k, index: index + 1, entree: entree.e)
                        let food = makeFood(entree, at: place, problems: &problems)
                        if seen.insert(food.id).inserted {
                            foods.append(food)
                        } else if food.labelBasis != nil,
                                  let unlabelled = foods.firstIndex(where: { $0.id == food.id && $0.labelBasis == nil }) {
                            // The first label that could be read is the food's.
                            foods[unlabelled] = food
                        }
                        items.append(MenuItem(source: sourceName, recipeId: food.id.recipeId,
                                              name: food.name, codes: food.codes, label: PrintedLabel(of: food)))
                    }
                    sections.append(Section(name: displayName(kitchen.k), foods: items))
                }
                parsedRestaurants.append(Restaurant(name: displayName(restaurant.r), sections: sections))
            }
            meals.append(Meal(name: mealName, restaurants: parsedRestaurants))
        }
        // Only an item whose hall printed another label than the food's keeps its own.
        let foodLabels = Dictionary(foods.map { ($0.id, PrintedLabel(of: $0)) }, uniquingKeysWith: { first, _ in first })
        var day = ServiceDay(date: date, meals: meals)
        day.updateMenuItems { item in
            if item.label == foodLabels[item.food] { item.label = nil }
        }
        return (day, foods, problems)
    }

    /// The identity of a dataset entree.
    ///
    /// With no recipe ids in the dataset, the name is the only thing that stays the same when a
    /// dish returns on another day or in another hall, so the folded name (case and whitespace
    /// folded: the files carry trailing tabs and doubled spaces, "Kiwi  Water") is the recipe id.
    /// It is kept readable rather than hashed so that a snapshot row shows what it stands for.
    /// Two entries in 2016-11-21 have an empty name; folding them would merge every unnamed dish
    /// into one, so those are identified by a hash of their label instead.
    static func recipeId(entree: String, label: [String]) -> String {
        let folded = foldedKey(entree)
        guard folded.isEmpty else { return folded }
        return "unnamed-" + fnv1a64Hex(label.joined(separator: "\u{1F}"))
    }

    /// Names as printed minus the scraper's stray tabs and doubled spaces.
    static func displayName(_ name: String) -> String {
        name.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Every entree carries the 21 strings of its label, per serving as the menu site printed it.
    /// A label that cannot be read costs only itself: the dish stays on the menu without it, and
    /// the problem names the item and the value.
    private static func makeFood(_ entree: EntreeRecord, at place: ItemPlace, problems: inout [String]) -> Food {
        let codes = self.codes(ofEntreeType: entree.t)
        if !codes.unknown.isEmpty {
            problems.append("\(place): entree type \"\(entree.t)\" has letter(s) \(codes.unknown.joined(separator: ", ")) "
                            + "that the dataset's README does not define: kept raw as codes")
        }
        let id = FoodID(source: sourceName, recipeId: recipeId(entree: entree.e, label: entree.n))
        let nutrients: [NutrientValue]
        do {
            nutrients = try DatasetLabel.nutrients(from: entree.n, at: place)
        } catch {
            problems.append("\(error): the dish is kept without its label")
            return Food(id: id, name: displayName(entree.e), codes: codes.codes)
        }
        return Food(id: id, name: displayName(entree.e),
                    calories: nutrients.first { $0.key == .calories }?.amount,
                    nutrients: nutrients, codes: codes.codes, labelBasis: .serving)
    }

    /// The dataset's README defines each letter of an entree type (v2, 2017: a combination such
    /// as "vde", in any order; v1, 2016: one of "o", "v", "g"), as the menu site's web codes.
    /// "o" and the empty type declare nothing; a letter not in the table is kept raw as a code,
    /// so the unknown-code check reports it, and named in the day's problems.
    static let entreeLetters: [Character: String] = [
        "v": "V", "g": "VG", "p": "APNT", "t": "ATNT", "w": "AWHT", "s": "ASOY", "d": "AMLK", "e": "AEGG",
        "l": "ACSF", "f": "AFSH", "c": "LC",
    ]

    static func codes(ofEntreeType type: String) -> (codes: [String], unknown: [String]) {
        let letters = type.trimmingCharacters(in: .whitespaces)
        guard letters != "o" else { return ([], []) }
        var codes: [String] = []
        var unknown: [String] = []
        for letter in letters {
            let code = entreeLetters[letter] ?? String(letter)
            if entreeLetters[letter] == nil, !unknown.contains(code) { unknown.append(code) }
            if !codes.contains(code) { codes.append(code) }
        }
        return (codes, unknown)
    }

    private static func decodeFile(_ data: Data, location: String) throws -> DayRecord {
        do {
            return try JSONDecoder().decode(DayRecord.self, from: data)
        } catch let error as DecodingError {
            if let tooDeep = JSONNesting.failure(data, location: location) { throw tooDeep }
            throw Failure.badInput("not a UCLA dataset day file: \(describe(error))", at: location)
        } catch {
            throw Failure.badInput("not a UCLA dataset day file: \(SystemMessage.describe(error))", at: location)
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "the top level" : String(text.drop { $0 == "." })
        }
        switch error {
        case .dataCorrupted(let context):
            return "invalid JSON at \(path(context.codingPath)) (\(context.debugDescription))"
        case .keyNotFound(let key, let context):
            return "missing key \"\(key.stringValue)\" at \(path(context.codingPath))"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "expected \(type) at \(path(context.codingPath))"
        @unknown default:
            return String(describing: error)
        }
    }

    /// 64-bit FNV-1a: a short, stable, dependency-free digest (not for security).
    private static func fnv1a64Hex(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// Where an entree sits, for error messages: file, meal, restaurant, kitchen and item.
struct ItemPlace: CustomStringConvertible {
    let file: String
    let meal: String
    let restaurant: String
    let kitchen: String
    let index: Int
    let entree: String

    var description: String {
        "\(file) (\(meal), \(restaurant), \(kitchen), item \(index) \"\(entree)\")"
    }
}

private struct DayRecord: Decodable {
    let b: [RestaurantRecord]?
    let l: [RestaurantRecord]?
    let d: [RestaurantRecord]?
}

private struct RestaurantRecord: Decodable {
    let r: String
    let rk: [KitchenRecord]
}

private struct KitchenRecord: Decodable {
    let k: String
    let i: [EntreeRecord]
}

struct EntreeRecord: Decodable {
    let e: String
    let t: String
    let n: [String]
}

/// Reads the dataset's 21 label strings, in the order its README documents.
///
/// Amounts are printed with their unit ("177.4mg", "0.2g"), calories as a bare number, and
/// percentages with `%` ("7%"). A bare `%` (1,107 vitamin/mineral entries in 2016) means the
/// label printed no value: that nutrient is left out rather than recorded as zero.
enum DatasetLabel {
    /// One nutrient: where its amount and its printed %DV sit in the 21 strings.
    struct Slot {
        let key: NutrientKey
        let name: String
        let amountIndex: Int?
        /// The unit as printed after the amount: `""` for calories, `g`, `mg`.
        let printedUnit: String
        let unit: String?
        let percentIndex: Int?
    }

    static let slots: [Slot] = [
        Slot(key: .calories, name: "Calories", amountIndex: 0, printedUnit: "", unit: "kcal", percentIndex: nil),
        Slot(key: .caloriesFromFat, name: "Calories from Fat", amountIndex: 1, printedUnit: "", unit: "kcal",
             percentIndex: nil),
        Slot(key: .vitaminA, name: "Vitamin A", amountIndex: nil, printedUnit: "", unit: nil, percentIndex: 2),
        Slot(key: .vitaminC, name: "Vitamin C", amountIndex: nil, printedUnit: "", unit: nil, percentIndex: 3),
        Slot(key: .calcium, name: "Calcium", amountIndex: nil, printedUnit: "", unit: nil, percentIndex: 4),
        Slot(key: .iron, name: "Iron", amountIndex: nil, printedUnit: "", unit: nil, percentIndex: 5),
        Slot(key: .totalFat, name: "Total Fat", amountIndex: 6, printedUnit: "g", unit: "g", percentIndex: 7),
        Slot(key: .saturatedFat, name: "Saturated Fat", amountIndex: 8, printedUnit: "g", unit: "g", percentIndex: 9),
        Slot(key: .transFat, name: "Trans Fat", amountIndex: 10, printedUnit: "g", unit: "g", percentIndex: nil),
        Slot(key: .cholesterol, name: "Cholesterol", amountIndex: 11, printedUnit: "mg", unit: "mg", percentIndex: 12),
        Slot(key: .sodium, name: "Sodium", amountIndex: 13, printedUnit: "mg", unit: "mg", percentIndex: 14),
        Slot(key: .totalCarbohydrate, name: "Total Carbohydrate", amountIndex: 15, printedUnit: "g", unit: "g",
             percentIndex: 16),
        Slot(key: .dietaryFiber, name: "Dietary Fiber", amountIndex: 17, printedUnit: "g", unit: "g", percentIndex: 18),
        Slot(key: .sugars, name: "Sugars", amountIndex: 19, printedUnit: "g", unit: "g", percentIndex: nil),
        Slot(key: .protein, name: "Protein", amountIndex: 20, printedUnit: "g", unit: "g", percentIndex: nil),
    ]

    static let stringCount = 21

    static func nutrients(from label: [String], at place: ItemPlace) throws -> [NutrientValue] {
        guard label.count == stringCount else {
            throw Failure.badInput("nutrition list has \(label.count) strings; expected \(stringCount)",
                                   at: place.description)
        }
        var values: [NutrientValue] = []
        for slot in slots {
            let amount = try slot.amountIndex.flatMap { index in
                try number(label[index], suffix: slot.printedUnit, allowEmpty: false,
                           what: "\(slot.name) amount (string \(index + 1))", at: place)
            }
            let percent = try slot.percentIndex.flatMap { index in
                try number(label[index], suffix: "%", allowEmpty: true,
                           what: "\(slot.name) %DV (string \(index + 1))", at: place)
            }
            guard amount != nil || percent != nil else { continue }
            values.append(NutrientValue(key: slot.key, name: slot.name, amount: amount,
                                        unit: amount == nil ? nil : slot.unit,
                                        printedDailyValuePercent: percent))
        }
        return values
    }

    /// A plain decimal ("177.4") followed by exactly `suffix`; nil for a bare suffix when allowed.
    /// `Double(_:)` alone would also take "inf", "1e3" or "-2", none of which a label prints.
    private static func number(_ text: String, suffix: String, allowEmpty: Bool, what: String,
                               at place: ItemPlace) throws -> Double? {
        let digits = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let rest = text[digits.endIndex...]
        if digits.isEmpty, rest == suffix, allowEmpty { return nil }
        guard rest == suffix, digits.filter({ $0 == "." }).count <= 1, digits.first != ".",
              let value = Double(digits)
        else {
            let expected = suffix.isEmpty ? "a number" : "a number followed by \"\(suffix)\""
            throw Failure.badInput("\(what) is \"\(text)\"; expected \(expected)", at: place.description)
        }
        return value
    }
}
