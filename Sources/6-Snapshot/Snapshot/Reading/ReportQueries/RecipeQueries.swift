import GRDB

/// A recipe column the catalogue is counted by.
public enum RecipeGrouping: String, Sendable {
    case category, area
}

/// The recipes of one category or area ("(none)" for those without).
public struct RecipeGroupCount: Hashable, Sendable {
    public var name: String
    public var recipes: Int
}

extension ReportQueries {
    public func recipeCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM recipe") ?? 0
    }

    /// The twenty largest groups, the largest first, then by name.
    public func largestRecipeGroups(by grouping: RecipeGrouping) throws -> [RecipeGroupCount] {
        try Row.fetchAll(db, sql: """
            SELECT coalesce(\(grouping.rawValue), '(none)') AS name, count(*) AS n FROM recipe GROUP BY 1 ORDER BY n DESC, name LIMIT 20
            """).map { try RecipeGroupCount(name: $0.decode(forColumn: "name"), recipes: $0.decode(forColumn: "n")) }
    }

    /// Ingredient lines whose measure could not be classified.
    public func unparsedMeasureCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM recipe_ingredient WHERE measure_kind = 'unparsed'") ?? 0
    }

    public func ingredientLineCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM recipe_ingredient") ?? 0
    }

    /// The first twenty distinct measures that could not be classified, in text order.
    public func unparsedMeasureExamples() throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT DISTINCT measure_raw FROM recipe_ingredient WHERE measure_kind = 'unparsed' ORDER BY measure_raw LIMIT 20
            """)
    }
}
