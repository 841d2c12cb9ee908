import GRDB

/// The share of each restaurant's items that are vegan or vegetarian (in the one vocabulary),
/// over the days it served; a sentence instead of charts when no item means either.
enum DietsSection {
    static func html(_ context: ReportContext) throws -> String {
        let db = context.db
        guard try db.tableExists("code_term") else {
            return HTML.section("diets", "Diets", HTML.none("This snapshot predates the vocabulary."))
        }
        // Each food's meaning once, then the items counted against it: not a lookup per item.
        let rows = try Row.fetchAll(db, sql: """
            WITH meaning AS (
                SELECT fc.food_id, max(ct.term = 'vegan') AS vegan, max(ct.term IN ('vegan', 'vegetarian')) AS vegetarian
                FROM food_code fc JOIN code_term ct ON ct.code = fc.code GROUP BY fc.food_id)
            SELECT \(try context.restaurantName()) AS restaurant, count(*) AS items, count(DISTINCT m.service_day_id) AS days,
                   coalesce(sum(t.vegan), 0) AS vegan, coalesce(sum(t.vegetarian), 0) AS vegetarian
            FROM menu_item mi JOIN meal m ON m.id = mi.meal_id
            JOIN section s ON s.id = mi.section_id JOIN restaurant r ON r.id = s.restaurant_id
            LEFT JOIN meaning t ON t.food_id = mi.food_id
            GROUP BY 1 ORDER BY 1
            """).map(Restaurant.init)
        guard !rows.isEmpty else { return HTML.section("diets", "Diets", HTML.none("No menus in this snapshot.")) }
        guard rows.contains(where: { $0.vegetarian > 0 }) else {
            return HTML.section("diets", "Diets", HTML.none(
                "No item in this snapshot means vegan or vegetarian: its sources print no diet code the vocabulary knows."))
        }
        func share(_ count: Int, of row: Restaurant) -> Double { 100 * Double(count) / Double(row.items) }
        let vegan = BarChart.draw(title: "Vegan items, share per restaurant",
                                  description: "Percent of each restaurant's items whose food means vegan", category: "restaurant",
                                  items: rows.map { ($0.name, share($0.vegan, of: $0)) }, unit: "% of the restaurant's items")
        let vegetarian = BarChart.draw(title: "Vegetarian or vegan items, share per restaurant",
                                       description: "Percent of each restaurant's items whose food means vegetarian or vegan",
                                       category: "restaurant", items: rows.map { ($0.name, share($0.vegetarian, of: $0)) },
                                       unit: "% of the restaurant's items")
        let numbers = rows.map { row -> [String] in
            [row.name, "\(row.days)", "\(row.items)", "\(row.vegan)", HTML.number(share(row.vegan, of: row)),
             "\(row.vegetarian)", HTML.number(share(row.vegetarian, of: row))]
        }
        return HTML.section("diets", "Diets", vegan + vegetarian + HTML.table(
            ["restaurant", "days", "items", "vegan", "vegan %", "vegetarian or vegan", "%"], numbers,
            numeric: [1, 2, 3, 4, 5, 6]))
    }

    /// A restaurant's counts, decoded once: a value of another type (a snapshot changed after it
    /// was published) fails the page with the column, where reading it stopped the process.
    private struct Restaurant {
        var name: String
        var days: Int
        var items: Int
        var vegan: Int
        var vegetarian: Int

        init(_ row: Row) throws {
            name = try row.decode(forColumn: "restaurant")
            days = try row.decode(forColumn: "days")
            items = try row.decode(forColumn: "items")
            vegan = try row.decode(forColumn: "vegan")
            vegetarian = try row.decode(forColumn: "vegetarian")
        }
    }
}
