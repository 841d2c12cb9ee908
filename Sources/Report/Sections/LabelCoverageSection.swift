import FoodModel
import GRDB

/// How many menu items of each source and day carry a label (as the `labelled_share` check
/// counts them), and what the labels' amounts are per: a night whose food documents failed
/// shows as a dip on its days.
enum LabelCoverageSection {
    struct Day {
        var date: ServiceDate
        var items: Int
        var labelled: Int
        var share: Double { items == 0 ? 0 : 100 * Double(labelled) / Double(items) }
    }

    static func html(_ context: ReportContext) throws -> String {
        let title = "Label coverage"
        let db = context.db
        let rows = try Row.fetchAll(db, sql: """
            WITH labelled AS (\(try LabelledFoods.sql(db)))
            SELECT f.source, d.date, count(*) AS items, count(CASE WHEN mi.food_id IN (SELECT food_id FROM labelled) THEN 1 END) AS labelled
            FROM menu_item mi JOIN food f ON f.id = mi.food_id JOIN meal m ON m.id = mi.meal_id
            JOIN service_day d ON d.id = m.service_day_id
            GROUP BY f.source, d.date ORDER BY f.source, d.date
            """)
        var days: [String: [Day]] = [:]
        for row in rows {
            guard let date = try ServiceDate(row.decode(String.self, forColumn: "date")) else { continue }
            let day = try Day(date: date, items: row.decode(forColumn: "items"), labelled: row.decode(forColumn: "labelled"))
            try days[row.decode(forColumn: "source"), default: []].append(day)
        }
        guard !days.isEmpty else { return HTML.section("labels", title, HTML.none("No menus in this snapshot.")) }
        let bases = try basisBySource(db)
        var content = ""
        for (source, sourceDays) in days.sorted(by: { $0.key < $1.key }) {
            content += try part(source: source, days: sourceDays, basis: bases[source] ?? "no label")
        }
        return HTML.section("labels", title, content)
    }

    /// One source: its share per day as columns (or a sentence when no item has a label), its
    /// totals, and the days one by one, folded.
    private static func part(source: String, days: [Day], basis: String) throws -> String {
        let items = days.reduce(0) { $0 + $1.items }, labelled = days.reduce(0) { $0 + $1.labelled }
        let lowest = days.min { $0.share < $1.share }
        var html = "<h3>\(HTML.escape(source))</h3>"
        if labelled == 0 {
            html += HTML.none("None of \(source)'s \(items) menu items carries a label on any of its \(days.count) days.")
        } else if let first = days.first?.date, let last = days.last?.date {
            let calendar = (0...(last.daysSinceEpoch - first.daysSinceEpoch)).map { first.adding(days: $0) }
            html += DailyColumns.draw(
                title: "Items with a label, \(source), per day",
                description: "Share of \(source)'s menu items whose food carries a label, each day from \(first) to \(last)",
                days: calendar, values: Dictionary(uniqueKeysWithValues: days.map { ($0.date, $0.share) }),
                axis: ValueAxis(maximum: 100, unit: "% of the day's items with a label", count: 4))
        }
        html += HTML.table(["source", "days", "items", "with a label", "share", "lowest day", "label amounts per"],
                           [[source, "\(days.count)", "\(items)", "\(labelled)", HTML.percent(labelled, of: items),
                             lowest.map { "\($0.date) (\(HTML.percent($0.labelled, of: $0.items)))" } ?? "", basis]],
                           numeric: [1, 2, 3, 4])
        return html + HTML.folded("\(days.count) days one by one", HTML.table(
            ["day", "items", "with a label", "share"],
            days.map { ["\($0.date)", "\($0.items)", "\($0.labelled)", HTML.percent($0.labelled, of: $0.items)] },
            numeric: [1, 2, 3]))
    }

    /// What each source's labels are per ("serving", "100 g", both with their counts), from the
    /// foods' `label_basis`; a snapshot from before the column has per-serving labels only.
    private static func basisBySource(_ db: Database) throws -> [String: String] {
        guard try db.columns(in: "food").contains(where: { $0.name == "label_basis" }) else { return [:] }
        let rows = try Row.fetchAll(db, sql: """
            SELECT source, label_basis, count(*) AS foods FROM food WHERE label_basis IS NOT NULL
            GROUP BY 1, 2 ORDER BY 1, 3 DESC
            """)
        return try Dictionary(grouping: rows, by: { try $0.decode(String.self, forColumn: "source") }).mapValues { rows in
            try rows.count == 1 ? rows[0].decode(String.self, forColumn: "label_basis")
                : rows.map {
                    let basis: String = try $0.decode(forColumn: "label_basis"), foods: Int = try $0.decode(forColumn: "foods")
                    return "\(basis) (\(foods) foods)"
                }.joined(separator: ", ")
        }
    }
}
