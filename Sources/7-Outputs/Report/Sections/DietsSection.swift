import Snapshot

/// The share of each restaurant's items that are vegan or vegetarian (in the one vocabulary),
/// over the days it served; a sentence instead of charts when no item means either.
enum DietsSection {
    static func html(_ context: ReportContext) throws -> String {
        guard let rows = context.served.diets else {
            return HTML.section("diets", "Diets", HTML.none("This snapshot predates the vocabulary."))
        }
        guard !rows.isEmpty else { return HTML.section("diets", "Diets", HTML.none("No menus in this snapshot.")) }
        guard rows.contains(where: { $0.vegetarian > 0 }) else {
            return HTML.section("diets", "Diets", HTML.none(
                "No item in this snapshot means vegan or vegetarian: its sources print no diet code the vocabulary knows."))
        }
        func share(_ count: Int, of row: RestaurantDiets) -> Double { 100 * Double(count) / Double(row.items) }
        let vegan = BarChart.draw(title: "Vegan items, share per restaurant",
                                  description: "Percent of each restaurant's items whose food means vegan", category: "restaurant",
                                  items: rows.map { ($0.restaurant, share($0.vegan, of: $0)) },
                                  unit: "% of the restaurant's items")
        let vegetarian = BarChart.draw(title: "Vegetarian or vegan items, share per restaurant",
                                       description: "Percent of each restaurant's items whose food means vegetarian or vegan",
                                       category: "restaurant",
                                       items: rows.map { ($0.restaurant, share($0.vegetarian, of: $0)) },
                                       unit: "% of the restaurant's items")
        let numbers = rows.map { row -> [String] in
            [row.restaurant, "\(row.days)", "\(row.items)", "\(row.vegan)", HTML.number(share(row.vegan, of: row)),
             "\(row.vegetarian)", HTML.number(share(row.vegetarian, of: row))]
        }
        return HTML.section("diets", "Diets", vegan + vegetarian + HTML.table(
            ["restaurant", "days", "items", "vegan", "vegan %", "vegetarian or vegan", "%"], numbers,
            numeric: [1, 2, 3, 4, 5, 6]))
    }
}
