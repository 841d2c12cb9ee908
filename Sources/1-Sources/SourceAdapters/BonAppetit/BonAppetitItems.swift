import FoodModel
import Foundation
import HTML
import Nutrition
import SourceReading

/// The items of one answer, read as stations list them: each item id becomes its food once (the
/// platform's id is the item's identity from day to day), and a menu item each time a station
/// lists it. An id no item describes, or an item without a name, is left out and reported.
struct ItemReader {
    let items: [String: Any]
    /// The answer's icon table (`cor_icons`): an item's icon printed by number alone is read
    /// by this table's label.
    let icons: [String: Any]
    /// The table's entries by the code of their label, each label's first by id (so that a table
    /// naming one label twice gives the same answer every run): where an icon printed by label
    /// finds what its legend says.
    private let iconsByCode: [String: [String: Any]]
    let location: String
    private(set) var foods: [Food] = []
    private(set) var problems: [String] = []
    private var read: [String: Food?] = [:]
    private let units: LabelUnits

    init(items: [String: Any], icons: [String: Any], location: String) {
        self.items = items
        self.icons = icons
        var byCode: [String: [String: Any]] = [:]
        for id in icons.keys.sorted(by: Self.byNumber) {
            guard let entry = icons[id] as? [String: Any], let label = JSONFields.text(entry["label"]) else { continue }
            let code = BonAppetitCodes.code(of: BonAppetitText.plain(label))
            if byCode[code] == nil { byCode[code] = entry }
        }
        iconsByCode = byCode
        self.location = location
        units = BonAppetitNutrition.units(of: items)
    }

    /// The sections of a daypart: one per station, in the daypart's order, and one per
    /// sub-station where an item names one ("salad bar / ready-to-plate salad dressing").
    mutating func sections(of daypart: [String: Any], place: String) -> [Section] {
        var sections: [Section] = []
        for (index, value) in BonAppetitMenu.list(daypart["stations"]).enumerated() {
            guard let station = value as? [String: Any] else { continue }
            let name = JSONFields.text(station["label"]).map(BonAppetitText.plain) ?? "Station \(index + 1)"
            for id in BonAppetitMenu.list(station["items"]).compactMap(JSONFields.identifier) {
                guard let food = food(id, place: "\(place) station \(String(reflecting: name))") else { continue }
                let item = MenuItem(source: BonAppetitMenu.sourceName, recipeId: food.id.recipeId, name: food.name,
                                    codes: food.codes, description: food.description)
                let sub = JSONFields.text((items[id] as? [String: Any])?["sub_station"]).map(BonAppetitText.plain)
                let section = [name, sub].compactMap { $0 }.joined(separator: " / ")
                if let at = sections.firstIndex(where: { $0.name == section }) {
                    sections[at].foods.append(item)
                } else {
                    sections.append(Section(name: section, foods: [item]))
                }
            }
        }
        return sections
    }

    /// The food of item `id`, read the first time a station lists it.
    private mutating func food(_ id: String, place: String) -> Food? {
        if let known = read[id] { return known }
        var food: Food?
        if let fields = items[id] as? [String: Any] {
            if let name = JSONFields.text(fields["label"]).map(BonAppetitText.plain) {
                food = readFood(fields, id: JSONFields.identifier(fields["id"]) ?? id, name: name, place: "\(location): item \(id)")
            } else {
                problems.append("\(location): item \(id) has no label (name): left out")
            }
        } else {
            problems.append("\(place) lists item \(id), which the answer's items do not describe: left out")
        }
        read[id] = .some(food)
        if let food { foods.append(food) }
        return food
    }

    private mutating func readFood(_ fields: [String: Any], id: String, name: String, place: String) -> Food {
        var food = Food(id: FoodID(source: BonAppetitMenu.sourceName, recipeId: id), name: name,
                        description: JSONFields.text(fields["description"]).map(BonAppetitText.plain),
                        codes: codes(fields["cor_icon"]))
        let label = BonAppetitNutrition.read(fields, units: units, place: place)
        problems += label.problems
        food.servingSize = label.servingSize
        food.serving = label.servingSize.flatMap(ServingSize.init(printed:))
        if !label.nutrients.isEmpty {
            food.nutrients = label.nutrients
            food.labelBasis = .serving
            food.calories = label.nutrients.first { $0.key == .calories }?.amount
        }
        food.components = BonAppetitOptions.components(fields["options"])
        return food
    }

    /// An item's icons: `{id: label}` (or a list of labels, or of ids), each as the code of its
    /// label; an id printed without a label is read in the answer's icon table, and the table
    /// says what an allergen icon states (`BonAppetitCodes.code(of:entry:)`).
    private func codes(_ value: Any?) -> [String] {
        var printed: [(id: String?, label: String)] = []
        if let byId = value as? [String: Any] {
            for id in byId.keys.sorted(by: Self.byNumber) {
                printed.append((id, JSONFields.text(byId[id]) ?? iconLabel(id) ?? id))
            }
        } else {
            for entry in JSONFields.array(value) {
                if let label = JSONFields.text(entry), Int(label) == nil { printed.append((nil, label)) }
                else if let id = JSONFields.identifier(entry) { printed.append((id, iconLabel(id) ?? id)) }
            }
        }
        var codes: [String] = []
        for icon in printed {
            let label = BonAppetitText.plain(icon.label)
            let code = BonAppetitCodes.code(of: label, entry: entry(icon.id, labelled: label))
            if !codes.contains(code) { codes.append(code) }
        }
        return codes
    }

    /// The icon table's entry for an icon: the one under its id when that entry has the label
    /// printed (an id is a café's own number), otherwise the first one with that label.
    private func entry(_ id: String?, labelled label: String) -> [String: Any]? {
        let code = BonAppetitCodes.code(of: label)
        if let id, let entry = icons[id] as? [String: Any],
           JSONFields.text(entry["label"]).map({ BonAppetitCodes.code(of: BonAppetitText.plain($0)) }) == code {
            return entry
        }
        return iconsByCode[code]
    }

    private func iconLabel(_ id: String) -> String? {
        JSONFields.text((icons[id] as? [String: Any])?["label"])
    }

    /// Ids in number order, the platform's ids being numbers; any other text after them.
    private static func byNumber(_ first: String, _ second: String) -> Bool {
        (Int(first) ?? .max, first) < (Int(second) ?? .max, second)
    }
}

/// The platform's text: it writes characters as HTML entities, any of them ("Aquarium&#039;s",
/// "mac &amp; cheese", "caf&eacute;", "&#8211;") and wraps some labels in markup
/// (`<strong>@grill</strong>`). A no-break space is a space.
enum BonAppetitText {
    static func plain(_ text: String) -> String {
        let untagged = text.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
        return HTMLEntities.decoded(untagged).replacingOccurrences(of: "\u{A0}", with: " ")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// An item's `options`: the choices it is served with, each group a heading followed by its
/// choices, kept as the food's components.
enum BonAppetitOptions {
    static func components(_ value: Any?) -> [FoodComponent] {
        var components: [FoodComponent] = []
        let groups: [Any] = (value as? [String: Any]).map { [$0] } ?? JSONFields.array(value)
        for case let group as [String: Any] in groups {
            if let heading = JSONFields.text(group["label"]) ?? JSONFields.text(group["type"]) {
                components.append(FoodComponent(name: BonAppetitText.plain(heading), isHeading: true))
            }
            for case let choice as [String: Any] in JSONFields.array(group["values"]) {
                if let name = JSONFields.text(choice["description"]) ?? JSONFields.text(choice["label"]) {
                    components.append(FoodComponent(name: BonAppetitText.plain(name)))
                }
            }
        }
        return components
    }
}
