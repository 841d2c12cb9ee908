extension SnapshotView {
    /// Each food's history over the days the snapshot holds, and when it comes back: the next day
    /// a published menu has it, or, where none has, the median gap between its days added to its
    /// last day, an estimate in columns that say so. "Today" is the snapshot's own day
    /// (`_meta.as_of`, else the day it was built), never the clock, so the view gives the same
    /// rows whenever it is read.
    ///
    /// Each food's restaurants, meals and weekdays are listed by a subquery per food in SQLite,
    /// which makes itself an index on the servings for such subqueries and is slower in one
    /// pass, and in one grouped pass over the servings in PostgreSQL, which indexes no `WITH`
    /// table: there a subquery per food reads every serving once for each food (docs/postgres.md,
    /// "Views"). The rows are the same.
    static let foodHistory = SnapshotView("v_food_history") { dialect in
        query(dialect, listedInOnePass: dialect == .postgresql)
    }

    private static func query(_ dialect: SQLDialect, listedInOnePass: Bool) -> String {
        """
        WITH served AS (
            SELECT DISTINCT mi.food_id, d.date, d.weekday, m.name AS meal,
                   r.name || coalesce(' (' || r.campus || ')', '') AS restaurant
            \(menuItemPlaces(indent: "    "))),
        as_of AS (
            SELECT \(dialect.date(ofText: """
                coalesce(max(CASE WHEN key = 'as_of' THEN value END),
                                  substr(max(CASE WHEN key = 'built_at' THEN value END), 1, 10))
                """)) AS today
            FROM _meta),
        gaps AS (
            SELECT food_id, \(dialect.daysBetween("lag(date) OVER (PARTITION BY food_id ORDER BY date)", "date")) AS gap
            FROM (SELECT DISTINCT food_id, date FROM served)\(dialect.alias(ofSubquery: "days"))),
        ranked AS (
            SELECT food_id, gap, row_number() OVER (PARTITION BY food_id ORDER BY gap) AS n,
                   count(*) OVER (PARTITION BY food_id) AS total
            FROM gaps WHERE gap IS NOT NULL),
        typical AS (
            SELECT food_id, avg(\(dialect.real("gap"))) AS gap_days
            FROM ranked WHERE n IN ((total + 1) / 2, (total + 2) / 2)
            GROUP BY food_id),
        summary AS (
            SELECT food_id, min(date) AS first_date, max(date) AS last_date, count(DISTINCT date) AS days_served,
                   count(*) AS times_served,
                   min(CASE WHEN date >= (SELECT today FROM as_of) THEN date END) AS next_date
            FROM served GROUP BY food_id)\(listedInOnePass ? lists(dialect) : "")
        SELECT f.id AS food_id, f.name AS food, h.first_date, h.last_date, h.days_served, h.times_served,
               \(listed("restaurant", dialect, inOnePass: listedInOnePass)) AS restaurants,
               \(listed("meal", dialect, inOnePass: listedInOnePass)) AS meals,
               \(listed("weekday", dialect, inOnePass: listedInOnePass)) AS weekdays,
               h.next_date, (SELECT today FROM as_of) AS as_of,
               t.gap_days AS typical_gap_days,
               CASE WHEN h.next_date IS NULL THEN \(dialect.adding(days: "round(t.gap_days)", to: "h.last_date")) END
                   AS estimated_next_date
        FROM summary h
        JOIN food f ON f.id = h.food_id
        LEFT JOIN typical t ON t.food_id = h.food_id\(listedInOnePass ? listJoins : "")
        """
    }

    /// The columns of `served` listed for each food.
    private static let listedColumns = ["restaurant", "meal", "weekday"]

    /// What a list joins for `column`: the weekday's number as text, the others as they are.
    private static func value(_ column: String, _ dialect: SQLDialect) -> String {
        column == "weekday" ? dialect.text(ofInteger: column) : column
    }

    /// One table per listed column: each food's distinct values, in order, comma-separated,
    /// gathered by one grouped pass over the servings.
    private static func lists(_ dialect: SQLDialect) -> String {
        listedColumns.map { column in
            """
            ,
            \(column)_list AS (
                SELECT food_id, \(dialect.joined("value", separator: ", ")) AS listed
                FROM (SELECT DISTINCT food_id, \(value(column, dialect)) AS value FROM served ORDER BY 1, 2)\(dialect.alias(ofSubquery: "listed"))
                GROUP BY food_id)
            """
        }.joined()
    }

    private static let listJoins = listedColumns.map { column in
        "\nLEFT JOIN \(column)_list ON \(column)_list.food_id = h.food_id"
    }.joined()

    /// The distinct values of `column` among the food's (`h`) servings, in order, comma-separated:
    /// its list's (`lists`), or a subquery's.
    private static func listed(_ column: String, _ dialect: SQLDialect, inOnePass: Bool) -> String {
        if inOnePass { return "\(column)_list.listed" }
        return "(SELECT \(dialect.joined("value", separator: ", ")) FROM (SELECT DISTINCT \(value(column, dialect)) AS value "
            + "FROM served s WHERE s.food_id = h.food_id ORDER BY 1)\(dialect.alias(ofSubquery: "listed")))"
    }
}
