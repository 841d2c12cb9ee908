import FoodModel
import Snapshot

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
        var days: [String: [Day]] = [:]
        for row in context.served.perSourceDay {
            guard let date = ServiceDate(row.date) else { continue }
            days[row.source, default: []].append(Day(date: date, items: row.items, labelled: row.labelled))
        }
        guard !days.isEmpty else { return HTML.section("labels", title, HTML.none("No menus in this snapshot.")) }
        let bases = basisBySource(try context.queries.labelBases())
        var content = ""
        for (source, sourceDays) in days.sorted(by: { $0.key < $1.key }) {
            content += try part(source: source, days: sourceDays, basis: bases[source] ?? "no label")
        }
        return HTML.section("labels", title, content)
    }

    /// One source: its share per day (per week, past a year) as columns (or a sentence when no
    /// item has a label), its totals, and the days (or weeks) one by one, folded.
    private static func part(source: String, days: [Day], basis: String) throws -> String {
        let items = days.reduce(0) { $0 + $1.items }, labelled = days.reduce(0) { $0 + $1.labelled }
        guard let first = days.first?.date, let last = days.last?.date else { return "" }
        let columns = CalendarColumns(from: first, to: last)
        let periods = self.periods(days, columns)
        let unit = columns.unit
        let lowest = periods.min { $0.share < $1.share }
        var html = "<h3>\(HTML.escape(source))</h3>"
        if labelled == 0 {
            html += HTML.none("None of \(source)'s \(items) menu items carries a label on any of its \(days.count) days.")
        } else {
            html += DailyColumns.draw(
                title: "Items with a label, \(source), per \(unit)",
                description: "Share of \(source)'s menu items whose food carries a label, each \(unit) from \(first) to \(last)",
                columns: columns, values: Dictionary(uniqueKeysWithValues: periods.map { ($0.date, $0.share) }),
                axis: ValueAxis(maximum: 100, unit: "% of the \(unit)'s items with a label", count: 4))
        }
        html += HTML.table(["source", "days", "items", "with a label", "share", "lowest \(unit)", "label amounts per"],
                           [[source, "\(days.count)", "\(items)", "\(labelled)", HTML.percent(labelled, of: items),
                             lowest.map { "\($0.date) (\(HTML.percent($0.labelled, of: $0.items)))" } ?? "", basis]],
                           numeric: [1, 2, 3, 4])
        return html + HTML.folded("\(periods.count) \(unit)s one by one", HTML.table(
            [columns.grain == .day ? "day" : "week of", "items", "with a label", "share"],
            periods.map { ["\($0.date)", "\($0.items)", "\($0.labelled)", HTML.percent($0.labelled, of: $0.items)] },
            numeric: [1, 2, 3]))
    }

    /// The days summed per column (each day its own column in a year or less), by date; a column
    /// is dated by its first day.
    private static func periods(_ days: [Day], _ columns: CalendarColumns) -> [Day] {
        guard columns.grain != .day else { return days }
        var summed: [ServiceDate: Day] = [:]
        for day in days {
            let start = columns.start(of: day.date)
            summed[start, default: Day(date: start, items: 0, labelled: 0)].items += day.items
            summed[start, default: Day(date: start, items: 0, labelled: 0)].labelled += day.labelled
        }
        return summed.values.sorted { $0.date < $1.date }
    }

    /// What each source's labels are per ("serving", "100 g", both with their counts); a
    /// snapshot from before `label_basis` has per-serving labels only, and no bases.
    private static func basisBySource(_ bases: [LabelBasisCount]) -> [String: String] {
        Dictionary(grouping: bases, by: \.source).mapValues { rows in
            rows.count == 1 ? rows[0].basis : rows.map { "\($0.basis) (\($0.foods) foods)" }.joined(separator: ", ")
        }
    }
}
