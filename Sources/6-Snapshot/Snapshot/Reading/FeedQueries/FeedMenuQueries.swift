import GRDB

/// One menu item of a restaurant, where and when it was served.
public struct FeedItem: Hashable, Sendable {
    public var date: String
    public var meal: String
    public var section: String
    /// The name printed on this menu.
    public var name: String
    public var foodID: String
    public var description: String?
}

/// A food served on the menus, with its label's serving, calories per serving, terms and nutrients.
public struct FeedFood: Hashable, Sendable {
    public var id: String
    public var servingSize: String?
    /// What the nutrients' amounts are per: `serving` or `100 g`; nil without a label.
    public var basis: String?
    public var servingGrams: Double?
    /// Per serving: as labelled for a per-serving label, scaled by the serving's grams for a
    /// per-100 g one; nil when neither gives it.
    public var caloriesPerServing: Double?
    public var terms: [FeedTerm] = []
    public var nutrients: [FeedNutrient] = []
}

/// A term of the one vocabulary a food's codes mean (`v_food_term`), with its words.
public struct FeedTerm: Hashable, Sendable {
    /// `vegan`, `tree_nuts`.
    public var name: String
    /// `allergen`, `diet` or `sustainability`.
    public var kind: String
    /// For people: "Tree nuts".
    public var label: String
    /// `contains` or `may_contain` (`code_term.presence`): a food whose codes say both holds it.
    public var presence: String
}

/// One nutrient of a food's label, as printed, per the food's basis.
public struct FeedNutrient: Hashable, Sendable {
    public var key: String
    public var name: String
    public var amount: Double?
    public var unit: String?
    /// The amount as printed when it is not a plain number (`< 1`).
    public var printedAmount: String?
    public var printedDailyValuePercent: Double?
}

extension FeedQueries {
    /// The menu items of one restaurant, in the order of its menus: day, meal, place on the page.
    public func items(of restaurant: FeedRestaurant) throws -> [FeedItem] {
        try Row.fetchAll(db, sql: """
            SELECT d.date, m.name AS meal, s.name AS section, mi.name, mi.food_id, mi.description
            FROM menu_item mi JOIN meal m ON m.id = mi.meal_id JOIN service_day d ON d.id = m.service_day_id
            JOIN section s ON s.id = mi.section_id
            WHERE s.restaurant_id = ?
            ORDER BY d.date, m.position, mi.position, mi.id
            """, arguments: [restaurant.id]).map { row in
                try FeedItem(date: row.decode(forColumn: "date"), meal: row.decode(forColumn: "meal"),
                             section: row.decode(forColumn: "section"), name: row.decode(forColumn: "name"),
                             foodID: row.decode(forColumn: "food_id"), description: row.decode(forColumn: "description"))
            }
    }

    /// Every food on a menu, by id, with its terms and its label's nutrients.
    public func servedFoods() throws -> [String: FeedFood] {
        var foods: [String: FeedFood] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT f.id, f.serving_size, f.label_basis, f.serving_grams,
                   f.calories * \(SnapshotSchema.perServing("f.label_basis", "f.serving_grams")) AS calories
            FROM food f WHERE f.id IN (SELECT food_id FROM menu_item)
            """) {
            let food = try FeedFood(id: row.decode(forColumn: "id"), servingSize: row.decode(forColumn: "serving_size"),
                                    basis: row.decode(forColumn: "label_basis"), servingGrams: row.decode(forColumn: "serving_grams"),
                                    caloriesPerServing: Self.finite(row.decode(forColumn: "calories")))
            foods[food.id] = food
        }
        for row in try Row.fetchAll(db, sql: """
            SELECT ft.food_id, ft.term, ft.kind, t.label, min(ft.presence) AS presence
            FROM v_food_term ft JOIN term t ON t.name = ft.term
            WHERE ft.food_id IN (SELECT food_id FROM menu_item)
            GROUP BY ft.food_id, ft.term ORDER BY ft.food_id, ft.kind, ft.term
            """) {
            // min: 'contains' sorts before 'may_contain', so a code that says contains wins.
            try foods[row.decode(String.self, forColumn: "food_id")]?.terms.append(
                FeedTerm(name: row.decode(forColumn: "term"), kind: row.decode(forColumn: "kind"), label: row.decode(forColumn: "label"),
                         presence: row.decode(forColumn: "presence")))
        }
        for row in try Row.fetchAll(db, sql: """
            SELECT fn.food_id, fn.nutrient_key, n.name, fn.amount, fn.unit, fn.printed_amount, fn.printed_dv_percent
            FROM food_nutrient fn JOIN nutrient n ON n.key = fn.nutrient_key
            WHERE fn.food_id IN (SELECT food_id FROM menu_item) ORDER BY fn.food_id, fn.nutrient_key
            """) {
            try foods[row.decode(String.self, forColumn: "food_id")]?.nutrients.append(
                FeedNutrient(key: row.decode(forColumn: "nutrient_key"), name: row.decode(forColumn: "name"),
                             amount: Self.finite(row.decode(forColumn: "amount")), unit: row.decode(forColumn: "unit"),
                             printedAmount: row.decode(forColumn: "printed_amount"),
                             printedDailyValuePercent: Self.finite(row.decode(forColumn: "printed_dv_percent"))))
        }
        return foods
    }

    /// A number a feed can carry: an infinite or NaN amount (only a damaged snapshot holds one)
    /// is no amount, and JSON has no way to write it.
    private static func finite(_ value: Double?) -> Double? {
        value.flatMap { $0.isFinite ? $0 : nil }
    }
}
