import GRDB

/// One source's menu items on one day, and how many of them carry a label (`labelledFoods`).
public struct SourceDayLabels: Hashable, Sendable {
    public var source: String
    public var date: String
    public var items: Int
    public var labelled: Int
}

/// How many of a source's foods have labels per one basis ("serving", "100 g").
public struct LabelBasisCount: Hashable, Sendable {
    public var source: String
    public var basis: String
    public var foods: Int
}

/// One label's calories and sodium per serving (nil where it states none), with the number of
/// items of one meal served with it.
public struct ServedLabel: Hashable, Sendable {
    public var meal: String
    public var items: Int
    public var calories: Double?
    public var sodiumMilligrams: Double?
    /// Whether a check flagged the food's label: its figures may be ones that cannot be right.
    public var flagged: Bool
}

/// A check's flag on a food's label.
public struct LabelFlag: Hashable, Sendable {
    public var foodID: String
    public var name: String
    public var check: String
    public var message: String
}

extension ReportQueries {
    /// Items and labelled items per source and day, by source, then date.
    public func labelsPerSourceDay() throws -> [SourceDayLabels] {
        try Row.fetchAll(db, sql: """
            WITH labelled AS (\(try labelledFoods()))
            SELECT f.source, d.date, count(*) AS items, count(CASE WHEN mi.food_id IN (SELECT food_id FROM labelled) THEN 1 END) AS labelled
            FROM menu_item mi JOIN food f ON f.id = mi.food_id JOIN meal m ON m.id = mi.meal_id
            JOIN service_day d ON d.id = m.service_day_id
            GROUP BY f.source, d.date ORDER BY f.source, d.date
            """).map {
                try SourceDayLabels(source: $0.decode(forColumn: "source"), date: $0.decode(forColumn: "date"),
                                    items: $0.decode(forColumn: "items"), labelled: $0.decode(forColumn: "labelled"))
            }
    }

    /// The foods' label bases per source, by source, the most common basis first; none for a
    /// snapshot from before `label_basis` (its labels are per serving).
    public func labelBases() throws -> [LabelBasisCount] {
        guard try db.columns(in: "food").contains(where: { $0.name == "label_basis" }) else { return [] }
        return try Row.fetchAll(db, sql: """
            SELECT source, label_basis, count(*) AS foods FROM food WHERE label_basis IS NOT NULL
            GROUP BY 1, 2 ORDER BY 1, 3 DESC
            """).map {
                try LabelBasisCount(source: $0.decode(forColumn: "source"), basis: $0.decode(forColumn: "label_basis"),
                                    foods: $0.decode(forColumn: "foods"))
            }
    }

    /// Each label's calories and sodium per serving, with the number of items served with it,
    /// per meal. Items are counted per meal, food and label version first, then each label's
    /// values read once: the figures of `v_menu_macros`, without its other columns for every
    /// item. A snapshot from before schema 16 states no basis: its labels are per serving.
    public func servedLabels() throws -> [ServedLabel] {
        let knowsBasis = try db.columns(in: "food").contains { $0.name == "label_basis" }
        let perServing = { (label: String) in
            knowsBasis ? SnapshotSchema.perServing("\(label).label_basis", "\(label).serving_grams") : "1.0"
        }
        let sodium = { (table: String, food: String, version: String) in """
            (SELECT CASE n.unit WHEN 'mg' THEN n.amount WHEN 'g' THEN n.amount * 1000 WHEN 'mcg' THEN n.amount / 1000.0 END
             FROM \(table) n WHERE n.food_id = \(food)\(version) AND n.nutrient_key = 'sodium')
            """ }
        return try Row.fetchAll(db, sql: """
            WITH served AS (SELECT m.name AS meal, mi.food_id, coalesce(mi.label_version, 1) AS version, count(*) AS items
                            FROM menu_item mi JOIN meal m ON m.id = mi.meal_id GROUP BY 1, 2, 3),
                 labels AS (SELECT l.id AS food_id, 1 AS version, l.calories * \(perServing("l")) AS calories,
                                   \(sodium("food_nutrient", "l.id", "")) * \(perServing("l")) AS sodium_mg
                            FROM food l WHERE l.id NOT IN (SELECT food_id FROM food_label)
                            UNION ALL
                            SELECT l.food_id, l.version, l.calories * \(perServing("l")),
                                   \(sodium("food_label_nutrient", "l.food_id", " AND n.version = l.version"))
                                       * \(perServing("l")) AS sodium_mg
                            FROM food_label l)
            SELECT served.meal, served.items, labels.calories, labels.sodium_mg,
                   EXISTS (SELECT 1 FROM food_flag fl WHERE fl.food_id = served.food_id) AS flagged
            FROM served JOIN labels ON labels.food_id = served.food_id AND labels.version = served.version
            """).map {
                try ServedLabel(meal: $0.decode(forColumn: "meal"), items: $0.decode(forColumn: "items"),
                                calories: $0.decode(forColumn: "calories"), sodiumMilligrams: $0.decode(forColumn: "sodium_mg"),
                                flagged: $0.decode(forColumn: "flagged"))
            }
    }

    /// Foods with at least one flagged label.
    public func flaggedFoodCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(DISTINCT food_id) FROM food_flag") ?? 0
    }

    /// The first 25 flags, by check, then food.
    public func firstLabelFlags() throws -> [LabelFlag] {
        try Row.fetchAll(db, sql: """
            SELECT fl.food_id, f.name, fl.check_name, fl.message FROM food_flag fl JOIN food f ON f.id = fl.food_id
            ORDER BY fl.check_name, fl.food_id LIMIT 25
            """).map {
                try LabelFlag(foodID: $0.decode(forColumn: "food_id"), name: $0.decode(forColumn: "name"),
                              check: $0.decode(forColumn: "check_name"), message: $0.decode(forColumn: "message"))
            }
    }
}
