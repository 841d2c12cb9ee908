import GRDB

/// One source's menu items on one day, and how many of them carry a label (`labelledFoods`):
/// counted by `ServedItems`.
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
    /// per meal (`served`, the items counted once). Each label's values are read once: the
    /// figures of `v_menu_macros`, without its other columns for every item. A snapshot from
    /// before schema 16 states no basis: its labels are per serving.
    public func servedLabels(_ served: ServedItems) throws -> [ServedLabel] {
        let knowsBasis = try db.columns(in: "food").contains { $0.name == "label_basis" }
        let perServing = { (label: String) in
            knowsBasis ? SnapshotSchema.perServing("\(label).label_basis", "\(label).serving_grams") : "1.0"
        }
        let sodium = { (table: String, food: String, version: String) in """
            (SELECT CASE n.unit WHEN 'mg' THEN n.amount WHEN 'g' THEN n.amount * 1000 WHEN 'mcg' THEN n.amount / 1000.0 END
             FROM \(table) n WHERE n.food_id = \(food)\(version) AND n.nutrient_key = 'sodium')
            """ }
        struct Label { var calories: Double?, sodium: Double?, flagged: Bool }
        var labels: [FoodVersion: Label] = [:]
        // Read by position, from a cursor: by name, every value looked its column up again.
        let rows = try Row.fetchCursor(db, sql: """
            WITH labels AS (SELECT l.id AS food_id, 1 AS version, l.calories * \(perServing("l")) AS calories,
                                   \(sodium("food_nutrient", "l.id", "")) * \(perServing("l")) AS sodium_mg
                            FROM food l WHERE l.id NOT IN (SELECT food_id FROM food_label)
                            UNION ALL
                            SELECT l.food_id, l.version, l.calories * \(perServing("l")),
                                   \(sodium("food_label_nutrient", "l.food_id", " AND n.version = l.version"))
                                       * \(perServing("l")) AS sodium_mg
                            FROM food_label l)
            SELECT food_id, version, calories, sodium_mg,
                   EXISTS (SELECT 1 FROM food_flag fl WHERE fl.food_id = labels.food_id) AS flagged
            FROM labels
            """)
        while let row = try rows.next() {
            labels[FoodVersion(foodID: try row.decode(String.self, atIndex: 0), version: try row.decode(Int.self, atIndex: 1))]
                = Label(calories: try row.decode(Double?.self, atIndex: 2), sodium: try row.decode(Double?.self, atIndex: 3),
                        flagged: try row.decode(Bool.self, atIndex: 4))
        }
        return served.perMealLabel.compactMap { served, items in
            labels[FoodVersion(foodID: served.foodID, version: served.version)].map { label in
                ServedLabel(meal: served.meal, items: items, calories: label.calories, sodiumMilligrams: label.sodium,
                            flagged: label.flagged)
            }
        }
    }

    private struct FoodVersion: Hashable {
        var foodID: String
        var version: Int
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
