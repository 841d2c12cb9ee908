import Foundation
import GRDB

/// What changed between two snapshots, as the report page counts it: menu items added and
/// removed per day (counted as `diff` counts them: the same item twice is two), foods added and
/// removed, and the foods whose label values changed.
public struct SnapshotChangeCounts: Hashable, Sendable {
    public var perDay: [DayChange]
    public var labels: [LabelChange]
    public var foodsAdded: Int
    public var foodsRemoved: Int

    /// A day on which at least one menu item was added or removed.
    public struct DayChange: Hashable, Sendable {
        public var date: String
        public var added: Int
        public var removed: Int
    }

    /// A food in both snapshots, and how many of its label's values differ.
    public struct LabelChange: Hashable, Sendable {
        public var foodID: String
        public var name: String
        public var values: Int
    }
}

extension ReportQueries {
    /// The changes from `previous` to `snapshot`, compared in SQL with `previous` attached, so a
    /// history of hundreds of thousands of items is never held in memory.
    public static func changes(of snapshot: URL, since previous: URL) throws -> SnapshotChangeCounts {
        try SnapshotReader.read(snapshot, attaching: previous) { db in
            let perDay = try perDayChanges(db)
            guard try !sameFoodTables(db) else {
                return SnapshotChangeCounts(perDay: perDay, labels: [], foodsAdded: 0, foodsRemoved: 0)
            }
            return try SnapshotChangeCounts(
                perDay: perDay, labels: labelChanges(db),
                foodsAdded: Int.fetchOne(db, sql: "SELECT count(*) FROM main.food WHERE id NOT IN (SELECT id FROM prev.food)")
                    ?? 0,
                foodsRemoved: Int.fetchOne(db, sql: "SELECT count(*) FROM prev.food WHERE id NOT IN (SELECT id FROM main.food)")
                    ?? 0)
        }
    }

    /// Whether both snapshots' food tables were written by one build (`_meta.day_rows_code`)
    /// from one digest of what they hold (`_meta.food_rows_sha256`, what a night keeps them
    /// by): then their rows are the same, and comparing every label value of both, a fifth of a
    /// night's page on a year of menus, would find nothing.
    private static func sameFoodTables(_ db: Database) throws -> Bool {
        guard try bothHold(["_meta"], db) else { return false }
        return try Bool.fetchOne(db, sql: """
            SELECT count(*) = 2 FROM main._meta n JOIN prev._meta o ON o.key = n.key AND o.value = n.value
            WHERE n.key IN (?, ?)
            """, arguments: [StagingSnapshot.dayRowsCodeKey, StagingSnapshot.foodRowsKey]) == true
    }

    /// Each side's rows tagged with the side, then counted per item in one grouping (a sort),
    /// not joined: a join of the two on six text columns had no index and took minutes. Only the
    /// days that can differ are read (`unchangedDays`): a night that changed one day of a year
    /// grouped every item of both snapshots, half the page's time. The rows are read from the
    /// days down (`CROSS JOIN` keeps SQLite to that order), through the meals' and items'
    /// indexes, so a day left out costs nothing; read from the items up, every item of both was
    /// joined to its day only to be left out (0.08 s of a 0.2 s page on the year).
    private static func perDayChanges(_ db: Database) throws -> [SnapshotChangeCounts.DayChange] {
        let skipped = try unchangedDays(db).map { "WHERE d.date NOT IN (\($0))" } ?? ""
        let items = { (schema: String, isNew: Int) in """
            SELECT d.date, m.name AS meal, r.name AS restaurant, s.name AS section, mi.food_id, mi.name AS item,
                   \(isNew) AS in_new
            FROM \(schema).service_day d CROSS JOIN \(schema).meal m ON m.service_day_id = d.id
            CROSS JOIN \(schema).menu_item mi ON mi.meal_id = m.id
            JOIN \(schema).section s ON s.id = mi.section_id JOIN \(schema).restaurant r ON r.id = s.restaurant_id
            \(skipped)
            """ }
        return try Row.fetchAll(db, sql: """
            WITH counted AS (
                SELECT date, sum(in_new) AS new_n, sum(1 - in_new) AS old_n
                FROM (\(items("main", 1)) UNION ALL \(items("prev", 0)))
                GROUP BY date, meal, restaurant, section, food_id, item)
            SELECT date, sum(max(new_n - old_n, 0)) AS added, sum(max(old_n - new_n, 0)) AS removed
            FROM counted GROUP BY date HAVING added > 0 OR removed > 0 ORDER BY date
            """).map {
                try SnapshotChangeCounts.DayChange(date: $0.decode(forColumn: "date"), added: $0.decode(forColumn: "added"),
                                                   removed: $0.decode(forColumn: "removed"))
            }
    }

    /// The days that serve the same items in both snapshots, as a subquery, or nil when that
    /// cannot be told. Snapshots that record each day's items digest (`_day_rows.items_sha256`,
    /// the same whichever build wrote the day) leave out the days with one digest in both.
    /// Older ones record only the digest of each day's rows and the build that wrote them
    /// (`_meta.day_rows_code`): written by one build, a day with one rows digest in both has the
    /// same rows in both (the digest is what the next run keeps a day by). Else every day is
    /// compared.
    private static func unchangedDays(_ db: Database) throws -> String? {
        guard try bothHold(["_day_rows", "_meta"], db) else { return nil }
        let itemsRecorded = try ["main", "prev"].allSatisfy { schema in
            try Bool.fetchOne(db, sql: """
                SELECT count(*) = 1 FROM pragma_table_info('_day_rows', '\(schema)') WHERE name = 'items_sha256'
                """) == true
        }
        if itemsRecorded {
            return "SELECT n.date FROM main._day_rows n JOIN prev._day_rows o ON o.date = n.date AND o.items_sha256 = n.items_sha256"
        }
        let builds = try String.fetchAll(db, sql: """
            SELECT value FROM main._meta WHERE key = :key UNION ALL SELECT value FROM prev._meta WHERE key = :key
            """, arguments: ["key": StagingSnapshot.dayRowsCodeKey])
        guard builds.count == 2, builds[0] == builds[1] else { return nil }
        return "SELECT n.date FROM main._day_rows n JOIN prev._day_rows o ON o.date = n.date AND o.rows_sha256 = n.rows_sha256"
    }

    /// Whether both snapshots, `main` and `prev`, have every table of `tables`.
    private static func bothHold(_ tables: [String], _ db: Database) throws -> Bool {
        let names = String(decoding: try JSONEncoder().encode(tables), as: UTF8.self)
        return try ["main", "prev"].allSatisfy { schema in
            try Int.fetchOne(db, sql: """
                SELECT count(*) FROM \(schema).sqlite_master WHERE type = 'table' AND name IN (SELECT value FROM json_each(?))
                """, arguments: [names]) == tables.count
        }
    }

    /// Foods in both snapshots whose amounts, units or printed %DV differ, by id.
    private static func labelChanges(_ db: Database) throws -> [SnapshotChangeCounts.LabelChange] {
        try Row.fetchAll(db, sql: """
            SELECT f.id, f.name, count(*) AS changed FROM main.food_nutrient n
            JOIN prev.food_nutrient o ON o.food_id = n.food_id AND o.nutrient_key = n.nutrient_key
            JOIN main.food f ON f.id = n.food_id
            WHERE n.amount IS NOT o.amount OR n.unit IS NOT o.unit OR n.printed_dv_percent IS NOT o.printed_dv_percent
            GROUP BY f.id ORDER BY f.id
            """).map {
                try SnapshotChangeCounts.LabelChange(foodID: $0.decode(forColumn: "id"), name: $0.decode(forColumn: "name"),
                                                     values: $0.decode(forColumn: "changed"))
            }
    }
}
