import Basics
import FoodModel
import Foundation
import Nutrition
import SourceReading

/// One answer of DineOnCampus's menu API for one location and day (Sources/1-Sources/SourceAdapters/DineOnCampus/README.md):
/// the public v1 form (`menu.periods` one period, the day's `periods` listed beside it) or the
/// partner form (`menu.periods` a list). A closed location answers `closed: true` and no menu:
/// a day without that location's meals, not an error.
///
/// An item's `id` changes every day; its recipe number (`mrn`) is its identity. Values are text
/// and may be bounds or unknowns ("< 1", "0+", "-"), kept as printed, never made numbers.
public enum DineOnCampusMenu {
    public static let sourceName = "dineoncampus"

    /// A period the day has, as the answer lists it.
    public struct Period: Hashable, Sendable {
        public var id: String
        public var name: String
    }

    /// One item as served: where, and its food before identities are settled (`FoodIdentities`).
    struct Entry {
        var meal: String
        var section: String
        /// The section's name is made up (the category names nothing).
        var unnamedSection: Bool
        var mrn: String
        var item: MenuItem
        var food: Food
    }

    public struct Answer {
        var entries: [Entry]
        /// The periods the day lists (v1 form), in their order.
        public var periods: [Period]
        /// The periods whose menu this answer holds.
        public var served: [Period]
        public var closed: Bool
        public var problems: [String]
    }

    /// Reads one answer; `restaurant` is the location's name, which the answer does not print.
    static func read(_ data: Data, restaurant: String, location: String) throws -> Answer {
        let object = try JSONFields.object(data, location: location, expecting: "a DineOnCampus menu")
        if let status = JSONFields.text(object["status"]), status.lowercased() != "success" {
            let message = JSONFields.text(object["msg"]) ?? JSONFields.text(object["message"])
                ?? JSONFields.text(object["error"]) ?? "no message"
            throw Failure.badInput("the API answered status \"\(status)\": \(message)", at: location)
        }
        let listed = JSONFields.array(object["periods"]).compactMap(period)
        if JSONFields.bool(object["closed"]) == true {
            return Answer(entries: [], periods: listed, served: [], closed: true, problems: [])
        }
        guard let menu = object["menu"] as? [String: Any] else {
            throw Failure.badInput("expected a menu (or closed: true), found an object with keys "
                                   + object.keys.sorted().prefix(6).joined(separator: ", "), at: location)
        }
        let periods: [[String: Any]]
        switch menu["periods"] {
        case let one as [String: Any]: periods = [one]
        case let many as [Any]: periods = many.compactMap { $0 as? [String: Any] }
        case nil, is NSNull: periods = []
        case let other?:
            throw Failure.badInput("menu.periods is \(JSONFields.kind(of: other)), not a period or a list of them", at: location)
        }
        var answer = Answer(entries: [], periods: listed, served: [], closed: false, problems: [])
        for (periodIndex, fields) in periods.enumerated() {
            guard let meal = JSONFields.text(fields["name"]) else {
                answer.problems.append("\(location): menu.periods[\(periodIndex)] has no name: left out")
                continue
            }
            if let served = period(fields) { answer.served.append(served) }
            let categories = JSONFields.array(fields["categories"]).compactMap { $0 as? [String: Any] }
            for (categoryIndex, category) in ordered(categories).enumerated() {
                read(category, position: categoryIndex + 1, meal: meal, location: location, into: &answer)
            }
        }
        return answer
    }

    /// A category's items in their order, as the entries of one section; a category that names
    /// nothing is named by its position, and an item without a name or recipe number is
    /// reported and left out.
    private static func read(_ category: [String: Any], position: Int, meal: String, location: String,
                             into answer: inout Answer) {
        let sectionName = JSONFields.text(category["name"])
        let section = sectionName ?? "\(meal) \(position)"
        let place = "\(location): \(meal), \"\(section)\""
        let items = JSONFields.array(category["items"]).compactMap { $0 as? [String: Any] }
        if sectionName == nil, !items.isEmpty {
            answer.problems.append("\(place): the category names nothing (name): its items kept under its position")
        }
        for (itemIndex, item) in ordered(items).enumerated() {
            let itemPlace = "\(place), item \(itemIndex + 1)"
            guard let name = JSONFields.text(item["name"]) else {
                answer.problems.append("\(itemPlace) has no name: left out")
                continue
            }
            guard let mrn = JSONFields.text(item["mrn"]) ?? JSONFields.identifier(item["mrn"]) else {
                answer.problems.append("\(itemPlace) (\(name)) has no recipe number (mrn): left out")
                continue
            }
            let read = DineOnCampusFood.read(item, name: name, place: "\(itemPlace) (\(name))")
            answer.problems += read.problems
            answer.entries.append(Entry(
                meal: meal, section: section, unnamedSection: sectionName == nil, mrn: mrn,
                item: MenuItem(source: sourceName, recipeId: mrn, name: name,
                               portion: JSONFields.text(item["portion"]), codes: read.food.codes,
                               description: JSONFields.text(item["desc"])),
                food: read.food))
        }
    }

    /// A period `{id, name}`; nil without either.
    private static func period(_ value: Any) -> Period? {
        guard let fields = value as? [String: Any], let id = JSONFields.identifier(fields["id"]),
              let name = JSONFields.text(fields["name"]) else { return nil }
        return Period(id: id, name: name)
    }

    /// By `sort_order` where given, else as listed (a stable sort keeps ties as listed).
    private static func ordered(_ list: [[String: Any]]) -> [[String: Any]] {
        list.enumerated().sorted {
            (JSONFields.number($0.element["sort_order"]) ?? .infinity, $0.offset)
                < (JSONFields.number($1.element["sort_order"]) ?? .infinity, $1.offset)
        }.map(\.element)
    }

    /// The day of a location from its answers (one per period), with foods whose identities are
    /// settled over all of them.
    public struct Parsed: Sendable {
        public var day: ServiceDay
        public var foods: [Food]
        public var problems: [String]
        /// Items kept under a section named by its position, because the answer names none.
        public var itemsInUnnamedSections: Int
    }

    /// One location's answers for one day as a service day.
    static func day(_ answers: [(restaurant: String, answer: Answer)], date: ServiceDate) -> Parsed {
        var problems = answers.flatMap(\.answer.problems)
        let entries = answers.flatMap { pair in pair.answer.entries.map { (pair.restaurant, $0) } }
        let identities = FoodIdentities(entries.map(\.1))
        problems += identities.problems
        // Units printed beside each value are judged on the whole day's labels (`LabelUnits`).
        let units = LabelUnits(entries.map(\.1.food))
        var reread: [String: Int] = [:]
        var meals: [Meal] = []
        var foods: [FoodID: Food] = [:]
        var foodOrder: [FoodID] = []
        for (index, (restaurant, entry)) in entries.enumerated() {
            var item = entry.item
            item.recipeId = identities.ids[index]
            var food = entry.food
            food.id = item.food
            if foods[food.id] == nil {
                let reading = units.read(food, place: "\(date) \(entry.meal), \(restaurant), item \(item.recipeId) (\(food.name))")
                problems += reading.leftOut
                for (key, units) in reading.reread { reread["\(key) declared in \(units.declared), read in \(units.read)", default: 0] += 1 }
                foods[food.id] = reading.food
                foodOrder.append(food.id)
            }
            let mealIndex = meals.firstIndex { $0.name == entry.meal } ?? {
                meals.append(Meal(name: entry.meal, restaurants: []))
                return meals.count - 1
            }()
            let restaurantIndex = meals[mealIndex].restaurants.firstIndex { $0.name == restaurant } ?? {
                meals[mealIndex].restaurants.append(Restaurant(name: restaurant, sections: []))
                return meals[mealIndex].restaurants.count - 1
            }()
            var sections = meals[mealIndex].restaurants[restaurantIndex].sections
            if let sectionIndex = sections.firstIndex(where: { $0.name == entry.section }) {
                sections[sectionIndex].foods.append(item)
            } else {
                sections.append(Section(name: entry.section, foods: [item]))
            }
            meals[mealIndex].restaurants[restaurantIndex].sections = sections
        }
        problems += reread.sorted { $0.key < $1.key }.map { change, count in
            "\(date): \(change) for \(count) food(s): the day's values of it are more than a serving of any food holds in "
                + "the unit printed"
        }
        return Parsed(day: ServiceDay(date: date, meals: meals), foods: foodOrder.compactMap { foods[$0] },
                      problems: problems, itemsInUnnamedSections: entries.filter(\.1.unnamedSection).count)
    }

    /// A saved answer read on its own (`commissary parse`): its date from the answer.
    public static func parse(_ data: Data, restaurant: String, date: ServiceDate?, location: String) throws -> Parsed {
        let answer = try read(data, restaurant: restaurant, location: location)
        let object = try JSONFields.object(data, location: location, expecting: "a DineOnCampus menu")
        guard let day = date ?? JSONFields.text((object["menu"] as? [String: Any])?["date"]).flatMap(ServiceDate.init) else {
            throw Failure.badInput("the answer prints no date (menu.date); give --date", at: location)
        }
        return Self.day([(restaurant, answer)], date: day)
    }
}

/// Which food each item is. The recipe number is the identity, but a kitchen sometimes prints
/// one number for different items (two dressings, two cold cuts, one onion in two portions):
/// collapsing them would give one of them the other's label. Where a number stands for
/// different items on a day, each is its own food, named by its number, its name and (when the
/// names agree) its portion, and the day says so. Items alike in name and portion whose labels
/// differ are told apart by a number after their id (`~2`), in the order first served.
struct FoodIdentities {
    var ids: [String] = []
    var problems: [String] = []

    init(_ entries: [DineOnCampusMenu.Entry]) {
        var variants: [String: [Variant]] = [:]
        var order: [String] = []
        for entry in entries {
            let variant = Variant(entry)
            if variants[entry.mrn] == nil { order.append(entry.mrn) }
            if !(variants[entry.mrn] ?? []).contains(variant) { variants[entry.mrn, default: []].append(variant) }
        }
        var holders: [String: [Variant]] = [:]
        for entry in entries {
            let kinds = variants[entry.mrn] ?? []
            guard kinds.count > 1 else {
                ids.append(entry.mrn)
                continue
            }
            let variant = Variant(entry)
            let namesAgree = Set(kinds.map(\.name)).count == 1
            var id = "\(entry.mrn)~\(Self.slug(variant.name))"
            if namesAgree || kinds.filter({ $0.name == variant.name }).count > 1 {
                id += "~\(Self.slug(variant.portion ?? "no portion"))"
            }
            // Name and portion alike, the label not: the id would be one food's for both.
            var sharing = holders[id, default: []]
            if !sharing.contains(variant) { sharing.append(variant) }
            holders[id] = sharing
            let position = sharing.firstIndex(of: variant) ?? 0
            ids.append(position == 0 ? id : "\(id)~\(position + 1)")
        }
        for mrn in order where (variants[mrn]?.count ?? 0) > 1 {
            let listed = (variants[mrn] ?? []).map { "\"\($0.printedName)\" (\($0.portion ?? "no portion"))" }
            problems.append("recipe number \(mrn) is printed for \(listed.count) different items, each kept as its own "
                            + "food: " + listed.joined(separator: ", "))
        }
    }

    /// What makes two items with one number the same food: name, portion and label.
    struct Variant: Equatable {
        var name: String
        var printedName: String
        var portion: String?
        var nutrients: [NutrientValue]

        init(_ entry: DineOnCampusMenu.Entry) {
            printedName = entry.item.name
            name = foldedKey(entry.item.name)
            portion = entry.item.portion
            nutrients = entry.food.nutrients
        }

        static func == (lhs: Variant, rhs: Variant) -> Bool {
            lhs.name == rhs.name && lhs.portion == rhs.portion && lhs.nutrients == rhs.nutrients
        }
    }

    /// Lower-case words joined by hyphens (`Red Wine Vinegar` is `red-wine-vinegar`).
    static func slug(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
    }
}
