/// A view of the snapshot as it stands, defined once and made in SQLite by the migrations and in
/// PostgreSQL by PostgresTarget: its statement in each dialect differs only where `SQLDialect`
/// spells a piece its own way.
///
/// A migration that makes a view as it stands makes it from here. One that changes a view drops
/// it and makes it from here, and an earlier migration that read the view or one of its pieces
/// (`menuItemPlaces`, `servedMacroSelect`) from here then takes the old text back as a literal: a
/// migration, once published, never changes what it makes.
public struct SnapshotView: Sendable {
    public let name: String
    private let query: @Sendable (SQLDialect) -> String

    init(_ name: String, query: @escaping @Sendable (SQLDialect) -> String) {
        self.name = name
        self.query = query
    }

    /// `CREATE VIEW`, without a closing semicolon; in SQLite, the text `sqlite_master` keeps.
    public func statement(in dialect: SQLDialect) -> String {
        "CREATE VIEW \(name) AS\n\(query(dialect))"
    }

    /// The statement a migration runs.
    var sqlite: String { statement(in: .sqlite) }
}

extension SnapshotSchema {
    /// Every view of a new snapshot, in creation order: a view comes after the views it reads.
    public static let views: [SnapshotView] = [
        .menu, .menuCode(presence: true), .foodTerm(presence: true), .swipeTable, .recipeSearch, .foodMacros, .labelMacros,
        .menuMacros(campus: true, portion: true), .nutritionSummary(reading: "v_menu_macros"),
        .lowestSodiumEntree(reading: "v_menu_macros"), .labelDisagreements, .foodNutrition, .labelNutrient,
        .menuNutrition(portion: true), .foodEstimate, .foodHistory,
    ]
}

extension SnapshotView {
    /// Each plan's expected balance after every meal period, with what it is worth.
    static let swipeTable = SnapshotView("v_swipe_table") { dialect in
        """
        SELECT b.term, b.date, b.weekday, b.week, b.week_label, b.position, b.period, b.period_source,
               b.plan, p.kind, b.swipes, b.balance, p.price_per_swipe,
               \(dialect.round("b.balance * p.price_per_swipe", 2)) AS balance_value
        FROM swipe_balance b
        JOIN meal_plan p ON p.code = b.plan
        """
    }

    /// A recipe's searchable text. PostgreSQL has no rowid, and searches the `recipe_search`
    /// table instead, so only SQLite's view gives `recipe_rowid`.
    static let recipeSearch = SnapshotView("v_recipe_search") { dialect in
        let rowid = dialect == .sqlite ? "r.rowid AS recipe_rowid, " : ""
        return """
        SELECT \(rowid)r.id AS recipe_id, r.name, r.ingredients, r.tags, r.instructions
        FROM recipe r
        """
    }

    /// One row per estimated dish and nutrient.
    static let foodEstimate = SnapshotView("v_food_estimate") { _ in
        """
        SELECT e.subject_id AS food_id, e.subject_kind AS kind, coalesce(f.name, r.name) AS name,
               n.nutrient_key, n.amount_per_100g, n.unit,
               n.amount_per_100g * e.serving_grams / 100 AS amount_per_serving,
               e.serving_grams, e.matched_share, e.reference
        FROM food_estimate e
        JOIN food_estimate_nutrient n ON n.subject_id = e.subject_id
        LEFT JOIN food f ON f.id = e.subject_id
        LEFT JOIN recipe r ON r.id = e.subject_id
        """
    }
}
