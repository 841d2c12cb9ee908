import Basics
import FoodModel
import Foundation
import SourceReading

/// UCLA's live menus as its kitchen system (Jamix) publishes them, one JSON file per service day
/// (`jamix/menus/{YYYY-MM-DD}.json`; Sources/1-Sources/SourceAdapters/UCLAJamix/README.md).
///
/// A file is an array of menus, each of one store (the restaurant) and one meal type, holding
/// weeks of days of stations (`menuDayMealOptions`) of rows. The feed drifts from month to month
/// (fields disappear, menus are renamed or added), so every part is found by its field's name,
/// never by its position, and a part that cannot be read costs only itself: it is reported and
/// the rest of the day is kept. Only a file that is not a JSON array of menus fails the day.
public enum JamixMenuDay {
    public static let sourceName = "ucla-jamix"

    /// One menu row's food: a recipe (a dish cooked in the kitchen) or an ingredient (an item
    /// served as bought). Their ids are separate series, so the kind is part of the identity.
    public enum FoodKind: String, Sendable, Hashable {
        case recipe, ingredient

        /// The folder of the feed that holds this kind's documents.
        var folder: String { self == .recipe ? "recipes" : "ingredients" }
    }

    /// What a day's file holds besides its menu.
    public struct Parsed: Sendable {
        public var day: ServiceDay
        /// Rows the kitchen marked `publish: false` (or of a menu not published): kept out of
        /// the menu, counted here.
        public var unpublishedRows: Int
        /// Parts of the file that could not be read and were left out, one line each, naming
        /// the file, the menu and the row.
        public var problems: [String]
        /// Rows kept under a station named by its position, because the file names none.
        public var rowsInUnnamedStations = 0
    }

    /// The food id of a row: `recipe-1883`, `ingredient-7808`.
    public static func foodId(_ kind: FoodKind, _ id: String) -> String { "\(kind.rawValue)-\(id)" }

    /// The kind and feed id of a food id made by `foodId`.
    static func document(of foodId: String) -> (kind: FoodKind, id: String)? {
        for kind in [FoodKind.recipe, .ingredient] where foodId.hasPrefix(kind.rawValue + "-") {
            return (kind, String(foodId.dropFirst(kind.rawValue.count + 1)))
        }
        return nil
    }

    /// The path of a food's document under the feed's root; nil for an id the feed does not
    /// give (the menu leaves such rows out), which is never requested.
    public static func documentPath(of foodId: String) -> String? {
        guard let (kind, id) = document(of: foodId), LinkedId.wholeNumber.accepts(id) else { return nil }
        return "/\(kind.folder)/\(LinkedId.pathSegment(id)).json"
    }

    public static func menuPath(for date: ServiceDate) -> String { "/menus/\(date).json" }

    public static func parse(_ data: Data, date: ServiceDate, location: String) throws -> Parsed {
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw JSONNesting.failure(data, location: location)
                ?? Failure.badInput("not valid JSON (truncated, or not the menu feed): cannot read the day", at: location)
        }
        guard let menus = json as? [Any] else {
            throw Failure.badInput("expected an array of menus, found \(JSONFields.kind(of: json))", at: location)
        }
        var reading = DayReading()
        for (index, element) in menus.enumerated() {
            guard let menu = element as? [String: Any] else {
                reading.problems.append("\(location): menus[\(index)] is \(JSONFields.kind(of: element)), not a menu: left out")
                continue
            }
            let menuName = JSONFields.text(menu["menuName"]) ?? "menus[\(index)]"
            let place = "\(location): menu \"\(menuName)\""
            guard let store = JSONFields.text(menu["storeName"]) else {
                reading.problems.append("\(place) names no store (storeName): left out")
                continue
            }
            guard let meal = JSONFields.text(menu["menuTypeName"]) ?? JSONFields.text(menu["menuGroupName"]) else {
                reading.problems.append("\(place) names no meal (menuTypeName): left out")
                continue
            }
            let published = (menu["menuPublish"] as? Bool) ?? true
            for day in days(of: menu, place: place, problems: &reading.problems)
            where JSONFields.text(day["dayDate"]).flatMap(ServiceDate.init) == date {
                for (optionIndex, option) in JSONFields.array(day["menuDayMealOptions"]).enumerated() {
                    reading.read(station: option, at: optionIndex, of: Menu(place: place, store: store, meal: meal,
                                                                           published: published))
                }
            }
        }
        return reading.parsed(date: date, location: location)
    }

    /// The store, meal and publication of the menu a station belongs to.
    private struct Menu {
        var place: String
        var store: String
        var meal: String
        var published: Bool
    }

    /// A day's file as it is read, station by station: the day's items and what could not be
    /// read or had to be named by the reader.
    private struct DayReading {
        var builder = DayBuilder()
        var problems: [String] = []
        var unpublished = 0
        var unnamedStations = 0
        var rowsInUnnamedStations = 0
        var rowsNamedByFood = 0

        mutating func read(station value: Any, at index: Int, of menu: Menu) {
            guard let option = value as? [String: Any] else {
                problems.append("\(menu.place): station \(index + 1) is not an object: left out")
                return
            }
            let stationName = JSONFields.text(option["mealOptionName"])
            let station = stationName ?? "Station \(index + 1)"
            if stationName == nil { unnamedStations += 1 }
            let place = "\(menu.place), station \"\(station)\""
            for row in JamixMenuDay.rows(of: option, place: place, problems: &problems) {
                guard menu.published, (row.fields["publish"] as? Bool) ?? true else {
                    unpublished += 1
                    continue
                }
                guard let item = JamixMenuDay.menuItem(row, place: place, problems: &problems) else { continue }
                if stationName == nil { rowsInUnnamedStations += 1 }
                if item.item.name == item.item.recipeId { rowsNamedByFood += 1 }
                builder.add(item.item, order: item.order, meal: menu.meal, restaurant: menu.store, section: station)
            }
        }

        /// The day, with one line each for what touches many rows: a renamed key leaves every
        /// station or row without its name, and a line per row would bury the rest.
        func parsed(date: ServiceDate, location: String) -> Parsed {
            var problems = problems
            if unnamedStations > 0 {
                problems.append("\(location): \(unnamedStations) station(s) name nothing (mealOptionName): their "
                                + "\(rowsInUnnamedStations) row(s) kept under \"Station\" and their position")
            }
            if rowsNamedByFood > 0 {
                problems.append("\(location): \(rowsNamedByFood) row(s) name nothing (menuRowName): kept under their food id")
            }
            return Parsed(day: ServiceDay(date: date, meals: builder.meals), unpublishedRows: unpublished,
                          problems: problems, rowsInUnnamedStations: rowsInUnnamedStations)
        }
    }

    /// The days of every week of a menu.
    private static func days(of menu: [String: Any], place: String, problems: inout [String]) -> [[String: Any]] {
        var days: [[String: Any]] = []
        for week in JSONFields.array(menu["menuWeeks"]) {
            guard let week = week as? [String: Any] else {
                problems.append("\(place): a week is not an object: left out")
                continue
            }
            days += JSONFields.array(week["menuDays"]).compactMap { $0 as? [String: Any] }
        }
        return days
    }

    private struct Row {
        var fields: [String: Any]
        /// Where the row stood, for errors: its position, or its key when rows are an object.
        var label: String
    }

    /// A station's rows: an array, or an object keyed by position (`{"4": {...}}`), taken in
    /// the order of their keys as numbers; `null` or no rows at all is a station with nothing.
    private static func rows(of option: [String: Any], place: String, problems: inout [String]) -> [Row] {
        switch option["menuRows"] {
        case nil, is NSNull:
            return []
        case let list as [Any]:
            return list.enumerated().compactMap { index, value in
                guard let fields = value as? [String: Any] else {
                    problems.append("\(place): row \(index + 1) is not an object: left out")
                    return nil
                }
                return Row(fields: fields, label: "row \(index + 1)")
            }
        case let keyed as [String: Any]:
            return keyed.sorted { (Int($0.key) ?? .max, $0.key) < (Int($1.key) ?? .max, $1.key) }
                .compactMap { key, value in
                    guard let fields = value as? [String: Any] else {
                        problems.append("\(place): row \"\(key)\" is not an object: left out")
                        return nil
                    }
                    return Row(fields: fields, label: "row \"\(key)\"")
                }
        case let other?:
            problems.append("\(place): menuRows is \(JSONFields.kind(of: other)), not a list of rows: left out")
            return []
        }
    }

    /// A row as a menu item: its food (the recipe, else the ingredient), the kitchen's name for
    /// it, its portion and planned portions, and its place in the station.
    private static func menuItem(_ row: Row, place: String, problems: inout [String])
        -> (item: MenuItem, order: Double)? {
        let fields = row.fields
        let rowName = JSONFields.text(fields["menuRowName"])
        let rowPlace = "\(place), \(row.label)\(rowName.map { " (\($0))" } ?? "")"
        // The recipe, else the ingredient; an id unlike the feed's is not requested or published.
        let given = [(FoodKind.recipe, "recipeId"), (FoodKind.ingredient, "ingredientId")].lazy
            .compactMap { kind, field in JSONFields.identifier(fields[field]).map { (kind: kind, field: field, id: $0) } }
            .first
        guard let given else {
            problems.append("\(rowPlace) has neither recipeId nor ingredientId: left out")
            return nil
        }
        guard LinkedId.wholeNumber.accepts(given.id) else {
            problems.append("\(rowPlace): \(LinkedId.wholeNumber.refusal(of: given.id, field: given.field))")
            return nil
        }
        let food = foodId(given.kind, given.id)
        let portion: String? = JSONFields.number(fields["menuRowPortionSize"]).map { size in
            [JSONFields.plain(size), JSONFields.text(fields["menuRowPortionSizeUnit"])].compactMap { $0 }.joined(separator: " ")
        }
        var planned: Int?
        if let value = fields["menuRowPlannedPortions"], !(value is NSNull) {
            planned = JSONFields.count(value)
            if planned == nil {
                problems.append("\(rowPlace): menuRowPlannedPortions \(value) is not a count of portions, left out")
            }
        }
        let item = MenuItem(source: sourceName, recipeId: food, name: rowName ?? food, portion: portion,
                            plannedPortions: planned)
        return (item, JSONFields.number(fields["rowOrderNumber"]) ?? .infinity)
    }

    /// Meals in the order they first appear; within a meal, a store's menus merged into one
    /// restaurant and a station's rows into one section, rows in their order numbers.
    private struct DayBuilder {
        private var mealOrder: [String] = []
        private var restaurants: [String: [String]] = [:]
        private var sections: [String: [String: [String]]] = [:]
        private var items: [String: [String: [String: [(item: MenuItem, order: Double, arrival: Int)]]]] = [:]
        private var arrivals = 0

        mutating func add(_ item: MenuItem, order: Double, meal: String, restaurant: String, section: String) {
            if restaurants[meal] == nil {
                mealOrder.append(meal)
                restaurants[meal] = []
            }
            if sections[meal, default: [:]][restaurant] == nil {
                restaurants[meal]?.append(restaurant)
                sections[meal, default: [:]][restaurant] = []
            }
            if items[meal, default: [:]][restaurant, default: [:]][section] == nil {
                sections[meal, default: [:]][restaurant]?.append(section)
            }
            items[meal, default: [:]][restaurant, default: [:]][section, default: []]
                .append((item, order, arrivals))
            arrivals += 1
        }

        var meals: [Meal] {
            mealOrder.map { meal in
                Meal(name: meal, restaurants: (restaurants[meal] ?? []).map { restaurant in
                    Restaurant(name: restaurant, sections: (sections[meal]?[restaurant] ?? []).map { section in
                        let rows = items[meal]?[restaurant]?[section] ?? []
                        return Section(name: section, foods: rows.sorted { ($0.order, $0.arrival) < ($1.order, $1.arrival) }
                            .map(\.item))
                    })
                })
            }
        }
    }
}
