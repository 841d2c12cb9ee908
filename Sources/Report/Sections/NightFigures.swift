import FoodModel
import GRDB
import Snapshot

/// The figures the headline shows, each from one small query of the snapshot.
struct NightFigures {
    var firstDay: String?
    var lastDay: String?
    var calendarDays = 0
    var daysWithMenus = 0
    var items = 0
    var labelledItems = 0
    var restaurants = 0
    var staleDays: [String] = []
    var failedErrors: [String] = []
    var failedWarnings = 0
    var warnings = 0

    static func read(_ context: ReportContext) throws -> NightFigures {
        let db = context.db
        var figures = NightFigures()
        let range = try Row.fetchOne(db, sql: """
            SELECT min(d.date) AS first, max(d.date) AS last, count(DISTINCT d.id) AS days
            FROM service_day d WHERE EXISTS (SELECT 1 FROM meal m JOIN menu_item mi ON mi.meal_id = m.id
                                             WHERE m.service_day_id = d.id)
            """)
        figures.firstDay = try range?.decode(String?.self, forColumn: "first")
        figures.lastDay = try range?.decode(String?.self, forColumn: "last")
        figures.daysWithMenus = try range?.decode(Int.self, forColumn: "days") ?? 0
        if let first = figures.firstDay.flatMap(ServiceDate.init), let last = figures.lastDay.flatMap(ServiceDate.init) {
            figures.calendarDays = last.daysSinceEpoch - first.daysSinceEpoch + 1
        }
        figures.items = try Int.fetchOne(db, sql: "SELECT count(*) FROM menu_item") ?? 0
        figures.labelledItems = try Int.fetchOne(db, sql: """
            SELECT count(*) FROM menu_item WHERE food_id IN (\(try LabelledFoods.sql(db)))
            """) ?? 0
        figures.restaurants = try Int.fetchOne(db, sql: "SELECT count(DISTINCT restaurant_id) FROM section") ?? 0
        figures.staleDays = try SnapshotReader.stalePartitions(in: db).map(\.partition)
        if try db.tableExists("_checks") {
            for row in try Row.fetchAll(db, sql: "SELECT name, severity, passed FROM _checks") {
                let severity: String = try row.decode(forColumn: "severity")
                let passed: Bool = try row.decode(forColumn: "passed")
                if severity == "warning" { figures.warnings += 1 }
                if !passed && severity == "warning" { figures.failedWarnings += 1 }
                if !passed && severity == "error" { try figures.failedErrors.append(row.decode(forColumn: "name")) }
            }
        }
        return figures
    }

    /// Calendar days between the first and the last served day on which nothing was served.
    var missingDays: Int { max(calendarDays - daysWithMenus, 0) }
}

/// Which foods carry a label, as the run's `labelled_share` check counts them: any nutrient that
/// states something (an amount, a bound or a printed %DV).
enum LabelledFoods {
    static func sql(_ db: Database) throws -> String {
        let columns = Set(try db.columns(in: "food_nutrient").map(\.name))
        let stated = ["amount", "printed_dv_percent", "amount_below", "amount_at_least"].filter(columns.contains)
        let condition = stated.isEmpty ? "0" : stated.map { "\($0) IS NOT NULL" }.joined(separator: " OR ")
        return "SELECT food_id FROM food_nutrient WHERE " + condition
    }
}
