import FoodModel
import Snapshot

/// Items per restaurant and calendar day (or week, past a year) from the first served day to the
/// last, as a calendar: a day no restaurant served is a visible gap, a stale day is marked, and
/// both are explained under the chart.
enum CoverageSection {
    static func html(_ context: ReportContext) throws -> String {
        let title = "Coverage"
        let rows = context.served.perRestaurantDay
        guard !rows.isEmpty else { return HTML.section("coverage", title, HTML.none("No menus in this snapshot.")) }
        var items: [String: [ServiceDate: Int]] = [:], unreadable = 0
        for row in rows {
            // A snapshot given on the command line may hold dates that are no dates.
            guard let date = ServiceDate(row.date) else { unreadable += 1; continue }
            items[row.restaurant, default: [:]][date] = row.items
        }
        let served = items.values.flatMap(\.keys)
        guard let first = served.min(), let last = served.max() else {
            return HTML.section("coverage", title, HTML.none("No menu has a service day that reads as a date."))
        }
        let days = (0...(last.daysSinceEpoch - first.daysSinceEpoch)).map { first.adding(days: $0) }
        let stale = try context.queries.stalePartitions()
        let servedDays = Set(served)
        let missing = days.filter { !servedDays.contains($0) }
        let restaurants = items.keys.sorted()
        let columns = CalendarColumns(from: first, to: last)
        var perColumn: [String: [ServiceDate: Int]] = [:]
        for (restaurant, days) in items {
            for (day, count) in days { perColumn[restaurant, default: [:]][columns.start(of: day), default: 0] += count }
        }
        let servedColumns = Set(served.map(columns.start))
        let weekly = columns.grain == .week
        let calendar = CoverageCalendar(restaurants: restaurants, columns: columns, items: perColumn,
                                        stale: Set(stale.compactMap { ServiceDate($0.partition).map(columns.start) }),
                                        missing: Set(columns.starts.filter { !servedColumns.contains($0) }))
        let chart = calendar.draw(
            title: "Items served per restaurant and \(columns.unit)",
            description: "\(restaurants.count) restaurants over \(days.count) calendar days from \(first) to \(last)"
                + (weekly ? ", a column per week (Monday to Sunday)" : "") + "; "
                + "\(missing.count) days with no menu at all (hatched\(weekly ? " where a whole week had none" : "")), "
                + "\(stale.count) stale partitions (outlined).")
        return HTML.section("coverage", title, chart + explanations(missing: missing, stale: stale, unreadable: unreadable)
            + HTML.table(["restaurant", "days served", "items", "first day", "last day"], restaurants.map { name in
                let served = items[name] ?? [:]
                return [name, "\(served.count)", "\(served.values.reduce(0, +))",
                        served.keys.min()?.description ?? "", served.keys.max()?.description ?? ""]
            }, numeric: [1, 2]))
    }

    /// What the marks mean for this snapshot: which days have no menu, which are stale and why.
    private static func explanations(missing: [ServiceDate], stale: [StalePartition], unreadable: Int) -> String {
        var text = ""
        if !missing.isEmpty {
            text += "<p>Days with no menu at all: \(HTML.escape(missing.map(\.description).joined(separator: ", "))).</p>"
        }
        if !stale.isEmpty {
            text += "<p>Stale partitions: the newest fetch was refused or failed, so the snapshot carries the last "
                + "good version instead.</p><ul class=\"stale-list\">"
                + stale.map { "<li>\(HTML.escape($0.line))</li>" }.joined() + "</ul>"
        }
        if unreadable > 0 {
            text += "<p>\(unreadable) restaurant-day(s) have a service day that is no date and are not drawn.</p>"
        }
        return text
    }
}
