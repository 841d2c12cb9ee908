import Foundation
import GRDB

/// What changed between two snapshots, in the terms analysts ask about: foods and menu items
/// added and removed, label values changed, recipes added, changed and removed.
///
/// Only data is compared, never housekeeping (`_meta`, `_runs`, `_checks`, `_sources`) nor
/// integer ids: ids are positions (the tenth menu item of a run), so the same menu published
/// by two runs must compare equal, and a day added before it must not make every item "new".
/// Menu items therefore compare by what they say (day, meal, restaurant, section, food, printed
/// name, portion, description), as a multiset: the same dish twice in one section is two items.
public struct SnapshotDiff: Hashable, Sendable, Codable {
    public struct Entity: Hashable, Sendable, Codable {
        public var id: String
        public var name: String

        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    public struct FieldChange: Hashable, Sendable, Codable {
        public var field: String
        public var old: DiffValue?
        public var new: DiffValue?

        public init(field: String, old: DiffValue?, new: DiffValue?) {
            self.field = field
            self.old = old
            self.new = new
        }

        /// NULL stays in the JSON as `null` rather than a missing key.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(field, forKey: .field)
            try container.encode(old, forKey: .old)
            try container.encode(new, forKey: .new)
        }
    }

    public struct Changed: Hashable, Sendable, Codable {
        public var id: String
        public var name: String
        public var changes: [FieldChange]

        public init(id: String, name: String, changes: [FieldChange]) {
            self.id = id
            self.name = name
            self.changes = changes
        }
    }

    public struct MenuItem: Hashable, Sendable, Codable, Comparable {
        public var date: String
        public var meal: String
        public var restaurant: String
        public var section: String
        public var foodId: String
        public var item: String
        public var portion: String?
        public var description: String?

        public init(date: String, meal: String, restaurant: String, section: String, foodId: String,
                    item: String, portion: String?, description: String?) {
            self.date = date
            self.meal = meal
            self.restaurant = restaurant
            self.section = section
            self.foodId = foodId
            self.item = item
            self.portion = portion
            self.description = description
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(date, forKey: .date)
            try container.encode(meal, forKey: .meal)
            try container.encode(restaurant, forKey: .restaurant)
            try container.encode(section, forKey: .section)
            try container.encode(foodId, forKey: .foodId)
            try container.encode(item, forKey: .item)
            try container.encode(portion, forKey: .portion)
            try container.encode(description, forKey: .description)
        }

        private var sortKey: [String] {
            [date, meal, restaurant, section, item, foodId, portion ?? "", description ?? ""]
        }

        public static func < (a: MenuItem, b: MenuItem) -> Bool {
            a.sortKey.lexicographicallyPrecedes(b.sortKey)
        }
    }

    public struct NutrientChange: Hashable, Sendable, Codable {
        public var foodId: String
        public var food: String
        public var nutrientKey: String
        public var field: String
        public var old: DiffValue?
        public var new: DiffValue?

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(foodId, forKey: .foodId)
            try container.encode(food, forKey: .food)
            try container.encode(nutrientKey, forKey: .nutrientKey)
            try container.encode(field, forKey: .field)
            try container.encode(old, forKey: .old)
            try container.encode(new, forKey: .new)
        }
    }

    public var foodsAdded: [Entity] = []
    public var foodsRemoved: [Entity] = []
    public var foodsChanged: [Changed] = []
    public var menuItemsAdded: [MenuItem] = []
    public var menuItemsRemoved: [MenuItem] = []
    /// Label values of foods present in both snapshots (a new food's label is part of its
    /// addition, not a list of changes).
    public var nutrientsChanged: [NutrientChange] = []
    public var recipesAdded: [Entity] = []
    public var recipesRemoved: [Entity] = []
    public var recipesChanged: [Changed] = []

    public var isEmpty: Bool {
        foodsAdded.isEmpty && foodsRemoved.isEmpty && foodsChanged.isEmpty && menuItemsAdded.isEmpty
            && menuItemsRemoved.isEmpty && nutrientsChanged.isEmpty && recipesAdded.isEmpty
            && recipesRemoved.isEmpty && recipesChanged.isEmpty
    }

    /// Compares two published snapshots, both opened read-only and immutable.
    public static func between(_ old: URL, _ new: URL) throws -> SnapshotDiff {
        let before = try SnapshotReader.read(old, Contents.init)
        let after = try SnapshotReader.read(new, Contents.init)
        var diff = SnapshotDiff()
        (diff.foodsAdded, diff.foodsRemoved, diff.foodsChanged) = compare(before.foods, after.foods)
        (diff.recipesAdded, diff.recipesRemoved, diff.recipesChanged) = compare(before.recipes, after.recipes)
        (diff.menuItemsAdded, diff.menuItemsRemoved) = compare(before.menuItems, after.menuItems)
        for key in Set(before.nutrients.keys).union(after.nutrients.keys).sorted() {
            let oldRow = before.nutrients[key]
            let newRow = after.nutrients[key]
            guard let row = newRow ?? oldRow, let food = before.foods[row.foodId],
                  after.foods[row.foodId] != nil else { continue }
            for field in Contents.nutrientFields {
                let oldValue = oldRow?.values[field] ?? nil
                let newValue = newRow?.values[field] ?? nil
                guard oldValue != newValue else { continue }
                diff.nutrientsChanged.append(NutrientChange(
                    foodId: row.foodId, food: food.name, nutrientKey: row.nutrientKey,
                    field: field, old: oldValue, new: newValue))
            }
        }
        return diff
    }

    private static func compare(_ old: [String: Contents.Record], _ new: [String: Contents.Record])
        -> ([Entity], [Entity], [Changed]) {
        let added = new.keys.filter { old[$0] == nil }.sorted().compactMap { id in
            new[id].map { Entity(id: id, name: $0.name) }
        }
        let removed = old.keys.filter { new[$0] == nil }.sorted().compactMap { id in
            old[id].map { Entity(id: id, name: $0.name) }
        }
        var changed: [Changed] = []
        for id in new.keys.sorted() {
            guard let before = old[id], let after = new[id] else { continue }
            // By name: an older snapshot may lack a field a newer schema added.
            let previousFields = Dictionary(before.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            let changes = after.fields.compactMap { name, value -> FieldChange? in
                let previous = previousFields[name] ?? nil
                return previous == value ? nil : FieldChange(field: name, old: previous, new: value)
            }
            if !changes.isEmpty { changed.append(Changed(id: id, name: after.name, changes: changes)) }
        }
        return (added, removed, changed)
    }

    private static func compare(_ old: [MenuItem: Int], _ new: [MenuItem: Int]) -> ([MenuItem], [MenuItem]) {
        func surplus(_ a: [MenuItem: Int], over b: [MenuItem: Int]) -> [MenuItem] {
            a.flatMap { item, count in Array(repeating: item, count: max(0, count - (b[item] ?? 0))) }.sorted()
        }
        return (surplus(new, over: old), surplus(old, over: new))
    }
}

/// The comparable data of one snapshot, read into memory: snapshots hold thousands of rows,
/// not millions, and two dictionaries compare faster than an attached-database query is written.
private struct Contents {
    struct Record {
        var name: String
        /// Every compared field, in a fixed order (NULL as nil).
        var fields: [(name: String, value: DiffValue?)]
    }

    struct NutrientRow {
        var foodId: String
        var nutrientKey: String
        var values: [String: DiffValue?]
    }

    static let nutrientFields = ["amount", "unit", "printed_dv_percent", "computed_dv_percent", "dv_standard"]

    var foods: [String: Record] = [:]
    var recipes: [String: Record] = [:]
    var menuItems: [SnapshotDiff.MenuItem: Int] = [:]
    var nutrients: [String: NutrientRow] = [:]

    init(_ db: Database) throws {
        foods = try Self.foods(db)
        recipes = try Self.recipes(db)
        menuItems = try Self.menuItems(db)
        nutrients = try Self.nutrients(db)
    }

    /// Foods with their codes and, in snapshots of schema 11 and later, their label versions.
    private static func foods(_ db: Database) throws -> [String: Record] {
        // A food's label versions as one field, so a label that changed within a snapshot's days
        // shows as a change of the food.
        let versions = try db.tableExists("food_label") ? """
            ,
                   (SELECT group_concat(line, '; ') FROM (SELECT 'v' || version || ': '
                      || CASE WHEN calories IS NULL THEN '?' ELSE printf('%g', calories) END
                      || ' kcal, ' || first_date || '..' || last_date || ' (' || days || ' days)' AS line
                      FROM food_label l WHERE l.food_id = f.id ORDER BY version)) AS label_versions
            """ : ""
        return try records(db, sql: """
            SELECT id, name, description, serving_size, calories, ingredients, allergens, has_page,
                   (SELECT group_concat(code, ' ') FROM (SELECT code FROM food_code fc
                      WHERE fc.food_id = f.id ORDER BY code)) AS codes\(versions)
            FROM food f
            """)
    }

    /// Recipes with their tags and their numbered ingredient lines.
    private static func recipes(_ db: Database) throws -> [String: Record] {
        try records(db, sql: """
            SELECT id, name, alternate_name, category, area, instructions, thumbnail_url, youtube_url,
                   source_url, modified_at,
                   (SELECT group_concat(tag, ', ') FROM (SELECT tag FROM recipe_tag rt
                      WHERE rt.recipe_id = r.id ORDER BY tag)) AS tags,
                   (SELECT group_concat(line, char(10)) FROM (SELECT position || '. ' || ingredient_name
                      || coalesce(': ' || measure_raw, '') AS line FROM recipe_ingredient ri
                      WHERE ri.recipe_id = r.id ORDER BY position)) AS ingredients
            FROM recipe r
            """)
    }

    /// Menu items by where they are served, each with how many times it is.
    private static func menuItems(_ db: Database) throws -> [SnapshotDiff.MenuItem: Int] {
        let items = try Row.fetchAll(db, sql: """
            SELECT d.date, m.name AS meal, r.name AS restaurant, s.name AS section, mi.food_id,
                   mi.name AS item, mi.portion, mi.description
            FROM menu_item mi
            JOIN meal m ON m.id = mi.meal_id
            JOIN service_day d ON d.id = m.service_day_id
            JOIN section s ON s.id = mi.section_id
            JOIN restaurant r ON r.id = s.restaurant_id
            """)
        var menuItems: [SnapshotDiff.MenuItem: Int] = [:]
        for row in items {
            let item = try SnapshotDiff.MenuItem(
                date: row.decode(forColumn: "date"), meal: row.decode(forColumn: "meal"),
                restaurant: row.decode(forColumn: "restaurant"), section: row.decode(forColumn: "section"),
                foodId: row.decode(forColumn: "food_id"), item: row.decode(forColumn: "item"),
                portion: row.decode(forColumn: "portion"), description: row.decode(forColumn: "description"))
            menuItems[item, default: 0] += 1
        }
        return menuItems
    }

    /// Each food's nutrients, keyed by the food and the nutrient.
    private static func nutrients(_ db: Database) throws -> [String: NutrientRow] {
        let fields = nutrientFields
        var nutrients: [String: NutrientRow] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT food_id, nutrient_key, \(fields.joined(separator: ", ")) FROM food_nutrient") {
            let foodId: String = try row.decode(forColumn: "food_id")
            let key: String = try row.decode(forColumn: "nutrient_key")
            var values: [String: DiffValue?] = [:]
            for field in fields { values[field] = value(row[field] as DatabaseValue) }
            nutrients["\(foodId)\u{1F}\(key)"] = NutrientRow(foodId: foodId, nutrientKey: key, values: values)
        }
        return nutrients
    }

    /// Rows keyed by their first column (`id`), with `name` and every column as a field.
    private static func records(_ db: Database, sql: String) throws -> [String: Record] {
        var records: [String: Record] = [:]
        for row in try Row.fetchAll(db, sql: sql) {
            let id: String = try row.decode(atIndex: 0)
            let fields = row.columnNames.enumerated().dropFirst().map { index, column in
                (name: column, value: value(row[index] as DatabaseValue))
            }
            records[id] = try Record(name: row.decode(forColumn: "name"), fields: fields)
        }
        return records
    }

    /// A value as the snapshot holds it; integers and reals alike are numbers (`9` and `9.0`
    /// are the same), a blob is shown in hex.
    static func value(_ value: DatabaseValue) -> DiffValue? {
        switch value.storage {
        case .null: nil
        case .int64(let number): .number(Double(number))
        case .double(let number): .number(number)
        case .string(let string): .text(string)
        case .blob(let data): .text(data.map { String(format: "%02x", $0) }.joined())
        }
    }
}

/// A compared value: text or a number. Shown as text (whole numbers without `.0`: `9`, not
/// `9.0`); written to JSON as what it is, so a number stays a number, but for an infinite one,
/// which only a damaged file holds and JSON cannot write: `null`, as in the change file.
public enum DiffValue: Hashable, Sendable, Codable, CustomStringConvertible {
    case text(String)
    case number(Double)

    public var description: String {
        switch self {
        case .text(let text): text
        case .number(let number):
            number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .number(let number) where !number.isFinite: try container.encodeNil()
        case .number(let number) where number.rounded() == number && abs(number) < 1e15:
            try container.encode(Int64(number))
        case .number(let number): try container.encode(number)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .text(try container.decode(String.self))
        }
    }
}
