import Snapshot

/// The recipe catalogue: recipes per category and area (the twenty largest), and the measures
/// that could not be classified.
enum RecipesSection {
    static func html(_ context: ReportContext) throws -> String {
        let queries = context.queries
        let total = try queries.recipeCount()
        guard total > 0 else { return HTML.section("recipes", "Recipes", HTML.none("No recipe catalogue in this snapshot.")) }
        func counts(_ grouping: RecipeGrouping) throws -> [(String, Double)] {
            try queries.largestRecipeGroups(by: grouping).map { ($0.name, Double($0.recipes)) }
        }
        let categories = try counts(.category), areas = try counts(.area)
        let unparsed = try queries.unparsedMeasureCount()
        let lines = try queries.ingredientLineCount()
        let examples = try queries.unparsedMeasureExamples()
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
