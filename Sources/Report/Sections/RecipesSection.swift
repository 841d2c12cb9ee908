import GRDB

/// The recipe catalogue: recipes per category and area (the twenty largest), and the measures
/// that could not be classified.
enum RecipesSection {
    static func html(_ context: ReportContext) throws -> String {
        let db = context.db
        let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM recipe") ?? 0
        guard total > 0 else { return HTML.section("recipes", "Recipes", HTML.none("No recipe catalogue in this snapshot.")) }
        func counts(_ column: String) throws -> [(String, Double)] {
            try Row.fetchAll(db, sql: """
                SELECT coalesce(\(column), '(none)') AS name, count(*) AS n FROM recipe GROUP BY 1 ORDER BY n DESC, name LIMIT 20
                """).map { try ($0.decode(forColumn: "name"), Double($0.decode(Int.self, forColumn: "n"))) }
        }
        let categories = try counts("category"), areas = try counts("area")
        let unparsed = try Int.fetchOne(db, sql: "SELECT count(*) FROM recipe_ingredient WHERE measure_kind = 'unparsed'") ?? 0
        let lines = try Int.fetchOne(db, sql: "SELECT count(*) FROM recipe_ingredient") ?? 0
        let examples = try String.fetchAll(db, sql: """
            SELECT DISTINCT measure_raw FROM recipe_ingredient WHERE measure_kind = 'unparsed' ORDER BY measure_raw LIMIT 20
            """)
        return HTML.section("recipes", "Recipes",
            BarChart.draw(title: "Recipes per category", description: "\(total) recipes; the 20 largest categories",
                          category: "category", items: categories, unit: "recipes", whole: true)
            + HTML.table(["category", "recipes"], categories.map { [$0.0, HTML.number($0.1)] }, numeric: [1])
            + BarChart.draw(title: "Recipes per area", description: "The 20 largest areas", category: "area",
                            items: areas, unit: "recipes", whole: true)
            + HTML.table(["area", "recipes"], areas.map { [$0.0, HTML.number($0.1)] }, numeric: [1])
            + "<p>\(unparsed) of \(lines) measures could not be classified"
            + (examples.isEmpty ? ".</p>" : ": \(HTML.escape(examples.joined(separator: "; "))).</p>"))
    }
}
