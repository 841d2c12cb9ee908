import FoodModel
import Foundation

/// UCLA's live feed as saved on seven real nights in `../shared/data/ucla-jamix-2025`
/// (2025-04-07..13, six dates a night), with the tests' own reading of its menu files: the
/// adapter's tests and the pipeline's take their expected counts from here, never from the adapter.
public enum UCLAJamixNights {
    public static let folder = Paths.sharedData.appendingPathComponent("ucla-jamix-2025")
    public static let nights = (7...13).map { ServiceDate("2025-04-\(String(format: "%02d", $0))")! }

    public static func menuFile(night: ServiceDate, date: ServiceDate) -> URL {
        folder.appendingPathComponent("nights/\(night)/menus/\(date).json")
    }

    public static func dates(of night: ServiceDate) -> [ServiceDate] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("nights/\(night)/menus").path)) ?? [])
            .compactMap { ServiceDate(String($0.dropLast(".json".count))) }.sorted()
    }

    /// One published row of a day file, as this reading sees it: its store, meal, station, food.
    public struct Row: Hashable, Sendable {
        public var date: String
        public var meal: String
        public var store: String
        public var station: String
        public var food: String
        public var name: String
        public var portion: String?
    }

    public static func rows(night: ServiceDate, date: ServiceDate) throws -> [Row] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: menuFile(night: night, date: date)))
        var rows: [Row] = []
        for case let menu as [String: Any] in json as? [Any] ?? [] {
            for case let week as [String: Any] in menu["menuWeeks"] as? [Any] ?? [] {
                for case let day as [String: Any] in week["menuDays"] as? [Any] ?? [] where day["dayDate"] as? String == "\(date)" {
                    for case let option as [String: Any] in day["menuDayMealOptions"] as? [Any] ?? [] {
                        let list: [Any] = (option["menuRows"] as? [Any])
                            ?? (option["menuRows"] as? [String: Any]).map { Array($0.values) } ?? []
                        for case let row as [String: Any] in list where (row["publish"] as? Bool) ?? true {
                            let food: String
                            if let recipe = row["recipeId"] as? Int, recipe > 0 {
                                food = "recipe-\(recipe)"
                            } else if let ingredient = row["ingredientId"] as? Int, ingredient > 0 {
                                food = "ingredient-\(ingredient)"
                            } else {
                                continue
                            }
                            var portion: String?
                            if let size = (row["menuRowPortionSize"] as? NSNumber)?.doubleValue {
                                let amount = size == size.rounded() ? "\(Int(size))" : "\(size)"
                                portion = [amount, row["menuRowPortionSizeUnit"] as? String].compactMap { $0 }
                                    .joined(separator: " ")
                            }
                            // Names as a reader sees them: "Entrée " and "Entrée" are one station.
                            func name(_ value: Any?) -> String {
                                (value as? String ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                            }
                            rows.append(Row(date: "\(date)", meal: name(menu["menuTypeName"]),
                                            store: name(menu["storeName"]), station: name(option["mealOptionName"]),
                                            food: food, name: name(row["menuRowName"]), portion: portion))
                        }
                    }
                }
            }
        }
        return rows
    }
}
