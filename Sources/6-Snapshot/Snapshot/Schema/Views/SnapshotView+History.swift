extension SnapshotView {
    /// Each food's history over the days the snapshot holds, and when it comes back: the next day
    /// a published menu has it, or, where none has, the median gap between its days added to its
    /// last day, an estimate in columns that say so. "Today" is the snapshot's own day
    /// (`_meta.as_of`, else the day it was built), never the clock, so the view gives the same
    /// rows whenever it is read.
    static let foodHistory = SnapshotView("v_food_history") { dialect in
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
            FROM served GROUP BY food_id)
        SELECT f.id AS food_id, f.name AS food, h.first_date, h.last_date, h.days_served, h.times_served,
               \(listed("restaurant", dialect)) AS restaurants,
               \(listed("meal", dialect)) AS meals,
               \(listed(dialect.text(ofInteger: "weekday"), dialect)) AS weekdays,
               h.next_date, (SELECT today FROM as_of) AS as_of,
               t.gap_days AS typical_gap_days,
               CASE WHEN h.next_date IS NULL THEN \(dialect.adding(days: "round(t.gap_days)", to: "h.last_date")) END
                   AS estimated_next_date
        FROM summary h
        JOIN food f ON f.id = h.food_id
        LEFT JOIN typical t ON t.food_id = h.food_id
        """
    }

    /// The distinct values of `column` among the food's (`h`) servings, in order, comma-separated.
    private static func listed(_ column: String, _ dialect: SQLDialect) -> String {
        "(SELECT \(dialect.joined("value", separator: ", ")) FROM (SELECT DISTINCT \(column) AS value FROM served s "
            + "WHERE s.food_id = h.food_id ORDER BY 1)\(dialect.alias(ofSubquery: "listed")))"
    }
}
