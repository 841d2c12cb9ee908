import Basics
import FoodModel
import Foundation
import SourceReading

/// One day of one menu type of one Nutrislice location, read from the platform's weeks API
/// (`/menu/api/weeks/school/{school}/menu-type/{type}/{YYYY}/{MM}/{DD}/`, a week per answer) or
/// from a day saved in the wrapped form `{restaurant, meal_type, date, menu}`
/// (Sources/1-Sources/SourceAdapters/Nutrislice/README.md).
///
/// A day's `menu_items` are rows: a station header (`is_station_header`, its name in `text`)
/// opens a station, food rows follow it in `position` order, and `menu_id` says which of the
/// location's menus (`menu_info`, each with a display name and its own order) a row is on.
/// Everything is found by its field's name; a row that cannot be read costs only itself.
public enum NutrisliceMenu {
    public static let sourceName = "nutrislice"

    public struct Parsed: Sendable {
        public var day: ServiceDay
        /// Every food on the day with its label, as the rows carry them.
        public var foods: [Food]
        /// Rows left out, one line each, naming the document and the row.
        public var problems: [String]
        /// Keys read in another unit than they name (`NutrisliceUnits`), one line each, naming
        /// the document, the day, the key, how many values and the unit they were read in.
        public var notes: [String]
        /// Rows that are text only (a note such as "Closed for break"), not foods.
        public var textRows: Int
    }

    /// The week that holds `date`: the path is the same for the seven days of a week (it starts
    /// on the Sunday), so its days share one request.
    public static func weekPath(school: String, menuType: String, containing date: ServiceDate) -> String {
        let sunday = date.adding(days: -(date.isoWeekday % 7))
        let parts = sunday.description.split(separator: "-")
        return "/menu/api/weeks/school/\(school)/menu-type/\(menuType)/\(parts[0])/\(parts[1])/\(parts[2])/"
    }

    /// The day `date` of a week answer; a week without that day is a day this menu type does
    /// not serve (no meal), not an error.
    public static func parseWeek(_ data: Data, date: ServiceDate, meal: String, restaurant: String,
                                 location: String) throws -> Parsed {
        try parseWeek(data, meal: meal, restaurant: restaurant, location: location).day(date)
    }

    /// Every day of a week answer, decoded once: the week's partitions share it (`RunContext.shared`).
    public static func parseWeek(_ data: Data, meal: String, restaurant: String, location: String) throws -> Week {
        let week = try JSONFields.object(data, location: location, expecting: "a week of menus")
        guard let days = week["days"] as? [Any] else {
            throw Failure.badInput("expected a week of menus with a list of days, found "
                                   + describe(week), at: location)
        }
        let units = NutrisliceUnits(days: days.compactMap { $0 as? [String: Any] })
        var parsed: [ServiceDate: Parsed] = [:]
        for case let day as [String: Any] in days {
            guard let date = JSONFields.text(day["date"]).flatMap(ServiceDate.init), parsed[date] == nil else { continue }
            parsed[date] = parseDay(day, date: date, meal: meal, restaurant: restaurant, units: units, location: location)
        }
        return Week(days: parsed)
    }

    /// A week answer's days, each as `parseDay` reads it (units judged over the whole week).
    public struct Week: Sendable {
        let days: [ServiceDate: Parsed]

        /// The day `date`; a week without it is a day this menu type does not serve (no meal).
        public func day(_ date: ServiceDate) -> Parsed {
            days[date] ?? Parsed(day: ServiceDay(date: date, meals: []), foods: [], problems: [], notes: [], textRows: 0)
        }
    }

    /// The day `date` of a week's days, already read.
    private static func parseWeek(days: [Any], date: ServiceDate, meal: String, restaurant: String,
                                  location: String) -> Parsed {
        for case let day as [String: Any] in days where JSONFields.text(day["date"]).flatMap(ServiceDate.init) == date {
            let units = NutrisliceUnits(days: days.compactMap { $0 as? [String: Any] })
            return parseDay(day, date: date, meal: meal, restaurant: restaurant, units: units, location: location)
        }
        return Week(days: [:]).day(date)
    }

    /// A day saved in the wrapped form: its location, meal and date are in the wrapper.
    public static func parseSaved(_ data: Data, location: String) throws -> Parsed {
        try parseSaved(JSONFields.object(data, location: location, expecting: "a saved Nutrislice day"), location: location)
    }

    private static func parseSaved(_ saved: [String: Any], location: String) throws -> Parsed {
        guard let menu = saved["menu"] as? [String: Any] else {
            throw Failure.badInput("expected a saved day with its menu, found " + describe(saved), at: location)
        }
        guard let date = JSONFields.text(saved["date"]).flatMap(ServiceDate.init) else {
            throw Failure.badInput("the saved day has no date (YYYY-MM-DD)", at: location)
        }
        let restaurant = JSONFields.text((saved["restaurant"] as? [String: Any])?["name"]) ?? JSONFields.text(saved["restaurant"])
        let meal = JSONFields.text((saved["meal_type"] as? [String: Any])?["name"]) ?? JSONFields.text(saved["meal_type"])
        guard let restaurant, let meal else {
            throw Failure.badInput("the saved day names no restaurant or meal type", at: location)
        }
        return parseDay(menu, date: date, meal: meal, restaurant: restaurant, units: NutrisliceUnits(days: [menu]),
                        location: location)
    }

    /// A document read on its own (`commissary parse`): a day saved in the wrapped form, or a
    /// week as the API answers it, told apart by their fields (`menu`, `days`). A week answer
    /// names neither its location nor its menu type; they are read from its API path where the
    /// address is one, else named as unknown. Its day is `date` (`--date`, or the date in the
    /// file's name), which must be one of its days.
    public static func parseDocument(_ data: Data, date: ServiceDate?, location: String) throws -> Parsed {
        let object = try JSONFields.object(data, location: location, expecting: "a Nutrislice day or week")
        guard let days = object["days"] as? [Any], object["menu"] == nil else {
            return try parseSaved(object, location: location)
        }
        let dates = days.compactMap { JSONFields.text(($0 as? [String: Any])?["date"]) }
        guard let date, dates.contains(date.description) else {
            throw Failure.badInput("a week of menus (\(dates.first ?? "?")..\(dates.last ?? "?")): give one of its days "
                                   + "with --date", at: location)
        }
        let place = weekPlace(in: location)
        let meal = place?.menuType ?? JSONFields.identifier(object["menu_type_id"]).map { "menu type \($0)" } ?? "unknown menu type"
        return parseWeek(days: days, date: date, meal: meal, restaurant: place?.school ?? "unknown location", location: location)
    }

    /// The location and menu type an API path names (`/school/{school}/menu-type/{type}/`).
    private static func weekPlace(in location: String) -> (school: String, menuType: String)? {
        let parts = location.split(separator: "/").map(String.init)
        guard let school = parts.firstIndex(of: "school"), let type = parts.firstIndex(of: "menu-type"),
              school + 1 < parts.count, type + 1 < parts.count
        else { return nil }
        return (parts[school + 1], parts[type + 1])
    }

    /// The keys of an object that is not what was expected (an error answer says itself there).
    private static func describe(_ object: [String: Any]) -> String {
        if let detail = JSONFields.text(object["detail"]) ?? JSONFields.text(object["error"]) {
            return "an error answer: \"\(detail)\""
        }
        return "an object with " + (object.keys.isEmpty ? "no keys" : "keys " + object.keys.sorted().prefix(6).joined(separator: ", "))
    }

    /// One day of an answer, its nutrient keys read in `units` (judged on the whole answer).
    /// A food is the first row's that serves it; a later row of the same food printing another
    /// label (another size) carries that label itself.
    static func parseDay(_ day: [String: Any], date: ServiceDate, meal: String, restaurant: String,
                         units: NutrisliceUnits, location: String) -> Parsed {
        let menus = MenuSections(day["menu_info"])
        var problems: [String] = []
        var reread: [String: Int] = [:]
        var textRows = 0
        let rows = orderedRows(of: day, menus: menus, place: "\(location): \(date)", problems: &problems)
        let several = Set(rows.map(\.menu)).count > 1

        var sections: [Section] = []
        var foods = FirstServings()
        var currentMenu: String??
        var station: String?
        for row in rows {
            if currentMenu != .some(row.menu) {
                currentMenu = .some(row.menu)
                station = nil
            }
            let fields = row.fields
            if JSONFields.bool(fields["is_station_header"]) == true {
                station = JSONFields.text(fields["text"])
                continue
            }
            guard let food = fields["food"] as? [String: Any] else {
                if JSONFields.text(fields["text"]) != nil { textRows += 1 }
                continue
            }
            let place = "\(location): \(date) menu_items[\(row.arrival)]"
            guard let id = JSONFields.identifier(food["id"]), let name = JSONFields.text(food["name"]) else {
                problems.append("\(place) has a food without an id or a name: left out")
                continue
            }
            let read = NutrisliceFood.read(food, id: id, name: name, units: units, place: place)
            problems += read.problems
            for field in read.reread { reread[field, default: 0] += 1 }
            let item = MenuItem(source: sourceName, recipeId: id, name: name,
                                portion: portion(amount: fields["serving_size_amount"], unit: fields["serving_size_unit"]),
                                codes: read.food.codes, label: foods.serve(read.food))
            let section = sectionName(menu: menus.name(row.menu), station: station, several: several, restaurant: restaurant)
            file(item, under: section, in: &sections)
        }
        let meals = sections.isEmpty ? [] : [Meal(name: meal, restaurants: [Restaurant(name: restaurant, sections: sections)])]
        let notes = reread.sorted { $0.key < $1.key }.compactMap { field, values in
            units.note(field, values: values, place: "\(location): \(date)")
        }
        return Parsed(day: ServiceDay(date: date, meals: meals), foods: foods.inOrder,
                      problems: problems, notes: notes, textRows: textRows)
    }

    /// The day's foods, each as the first row that serves it prints it, in the order first served.
    private struct FirstServings {
        private var foods: [FoodID: Food] = [:]
        private var order: [FoodID] = []

        var inOrder: [Food] { order.compactMap { foods[$0] } }

        /// Keeps a food as first served; a later row printing another label than the first's
        /// (another size) gets that label back, for its item to carry itself.
        mutating func serve(_ food: Food) -> PrintedLabel? {
            guard let first = foods[food.id] else {
                foods[food.id] = food
                order.append(food.id)
                return nil
            }
            return PrintedLabel(of: first) != PrintedLabel(of: food) ? PrintedLabel(of: food) : nil
        }
    }

    /// A row's section: its menu's name when the day has several menus, then its station; the
    /// menu's name, or else the restaurant's, where that leaves nothing.
    private static func sectionName(menu: String?, station: String?, several: Bool, restaurant: String) -> String {
        let name = [several ? menu : nil, station].compactMap { $0 }.joined(separator: " / ")
        return name.isEmpty ? (menu ?? restaurant) : name
    }

    /// A row of `menu_items` with what orders it: its menu, its position, where it arrived.
    private typealias Row = (menu: String?, position: Double, arrival: Int, fields: [String: Any])

    /// The day's rows of each menu in position order, menus in their own order; a value that is
    /// not a row is reported and left out.
    private static func orderedRows(of day: [String: Any], menus: MenuSections, place: String,
                                    problems: inout [String]) -> [Row] {
        var rows: [Row] = []
        for (index, value) in JSONFields.array(day["menu_items"]).enumerated() {
            guard let fields = value as? [String: Any] else {
                problems.append("\(place) menu_items[\(index)] is \(JSONFields.kind(of: value)), not a row: left out")
                continue
            }
            rows.append((JSONFields.identifier(fields["menu_id"]), JSONFields.number(fields["position"]) ?? .infinity,
                         index, fields))
        }
        return rows.sorted { (menus.order($0.menu), $0.menu ?? "", $0.position, $0.arrival)
            < (menus.order($1.menu), $1.menu ?? "", $1.position, $1.arrival) }
    }

    /// Files an item under its section: the current one, an earlier one of the same name, or a new one.
    private static func file(_ item: MenuItem, under section: String, in sections: inout [Section]) {
        if sections.last?.name == section {
            sections[sections.count - 1].foods.append(item)
        } else if let index = sections.firstIndex(where: { $0.name == section }) {
            sections[index].foods.append(item)
        } else {
            sections.append(Section(name: section, foods: [item]))
        }
    }

    /// A row's portion as the menu prints it (`1 each`, `2 slice`).
    static func portion(amount: Any?, unit: Any?) -> String? {
        let text = [JSONFields.number(amount).map(JSONFields.plain) ?? JSONFields.text(amount), JSONFields.text(unit)]
            .compactMap { $0 }.joined(separator: " ")
        return text.isEmpty ? nil : text
    }

    /// The location's menus (`menu_info`): each menu's display name and order.
    struct MenuSections {
        private var names: [String: String] = [:]
        private var positions: [String: Double] = [:]

        init(_ value: Any?) {
            guard let info = value as? [String: Any] else { return }
            for (id, entry) in info {
                guard let entry = entry as? [String: Any] else { continue }
                positions[id] = JSONFields.number(entry["position"])
                names[id] = JSONFields.text((entry["section_options"] as? [String: Any])?["display_name"])
            }
        }

        func name(_ menu: String?) -> String? { menu.flatMap { names[$0] } }
        func order(_ menu: String?) -> Double { menu.flatMap { positions[$0] } ?? .infinity }
    }
}
