import GRDB
import Snapshot

/// Calories and sodium per served item, by meal (each item's label of its day), per serving,
/// and the flagged labels.
enum NutritionSection {
    typealias Counted = [String: [(value: Double, count: Int)]]

    static func html(_ context: ReportContext) throws -> String {
        let (calories, sodium) = try servedValues(context.db)
        guard !calories.isEmpty || !sodium.isEmpty else {
            return HTML.section("nutrition", "Nutrition", HTML.none("No menu item has a label in this snapshot."))
        }
        let flagged = try Int.fetchOne(context.db, sql: "SELECT count(DISTINCT food_id) FROM food_flag") ?? 0
        let flags = try Row.fetchAll(context.db, sql: """
            SELECT fl.food_id, f.name, fl.check_name, fl.message FROM food_flag fl JOIN food f ON f.id = fl.food_id
            ORDER BY fl.check_name, fl.food_id LIMIT 25
            """).map {
                try [$0.decode(forColumn: "food_id"), $0.decode(forColumn: "name"), $0.decode(forColumn: "check_name"),
                     $0.decode(forColumn: "message")] as [String]
            }
        return HTML.section("nutrition", "Nutrition", chart(calories, "Calories", "kcal per serving")
            + chart(sodium, "Sodium", "mg per serving")
            + "<p>\(flagged) food(s) have flagged labels.</p>"
            + (flags.isEmpty ? "" : HTML.folded(flagged > flags.count ? "the first \(flags.count) flags" : "the flags",
                                                HTML.table(["food", "name", "check", "message"], flags))))
    }

    /// Box plots per meal and their numbers, or a sentence when no label states the value.
    private static func chart(_ values: Counted, _ what: String, _ unit: String) -> String {
        let items = values.keys.sorted().compactMap { meal in Spread(counted: values[meal] ?? []).map { (meal, $0) } }
        guard !items.isEmpty else { return HTML.none("No served item's label states its \(what.lowercased()).") }
        return RangeChart.draw(title: "\(what) per item, by meal", description: "Minimum, quartiles, median and maximum "
            + "of \(what.lowercased()) per served item, per meal", category: "meal", items: items, unit: unit)
            + HTML.table(["meal", "items", "min", "25%", "median", "75%", "max"], items.map { meal, spread in
                [meal, "\(spread.count)", HTML.number(spread.minimum), HTML.number(spread.lowerQuartile),
                 HTML.number(spread.median), HTML.number(spread.upperQuartile), HTML.number(spread.maximum)]
            }, numeric: [1, 2, 3, 4, 5, 6])
    }

    /// Each label's calories and sodium per serving, with the number of items served with it,
    /// per meal. Items are counted per meal, food and label version first, then each label's
    /// values read once: the figures of `v_menu_macros`, without its other columns for every
    /// item. A snapshot from before schema 16 states no basis: its labels are per serving.
    private static func servedValues(_ db: Database) throws -> (calories: Counted, sodium: Counted) {
        let knowsBasis = try db.columns(in: "food").contains { $0.name == "label_basis" }
        let perServing = { (label: String) in
            knowsBasis ? SnapshotSchema.perServing("\(label).label_basis", "\(label).serving_grams") : "1.0"
        }
        let sodium = { (table: String, food: String, version: String) in """
            (SELECT CASE n.unit WHEN 'mg' THEN n.amount WHEN 'g' THEN n.amount * 1000 WHEN 'mcg' THEN n.amount / 1000.0 END
             FROM \(table) n WHERE n.food_id = \(food)\(version) AND n.nutrient_key = 'sodium')
            """ }
        let rows = try Row.fetchAll(db, sql: """
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
            SELECT served.meal, served.items, labels.calories, labels.sodium_mg
            FROM served JOIN labels ON labels.food_id = served.food_id AND labels.version = served.version
            """)
        var calories: Counted = [:], sodiumPerMeal: Counted = [:]
        for row in rows {
            let meal: String = try row.decode(forColumn: "meal"), items: Int = try row.decode(forColumn: "items")
            if let value: Double = try row.decode(forColumn: "calories") {
                calories[meal, default: []].append((value, items))
            }
            if let value: Double = try row.decode(forColumn: "sodium_mg") {
                sodiumPerMeal[meal, default: []].append((value, items))
            }
        }
        return (calories, sodiumPerMeal)
    }
}
