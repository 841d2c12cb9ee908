import Snapshot

/// Each plan's expected balance after every period of each term, closures shaded.
enum SwipesSection {
    static func html(_ context: ReportContext) throws -> String {
        guard let rows = try context.queries.swipePeriods() else {
            return HTML.section("swipes", "Swipes", HTML.none("This snapshot predates meal plans."))
        }
        guard !rows.isEmpty else { return HTML.section("swipes", "Swipes", HTML.none("No meal plans in this snapshot.")) }
        let terms = Dictionary(grouping: rows, by: \.term).sorted(by: { $0.key < $1.key })
        return HTML.section("swipes", "Swipes", terms.map { term($0.key, $0.value) }.joined())
    }

    private static func term(_ term: String, _ rows: [SwipePeriod]) -> String {
        var series: [(String, [Double])] = [], closed: Set<Int> = [], numbers: [[String]] = []
        for (plan, planRows) in Dictionary(grouping: rows, by: \.plan).sorted(by: { $0.key < $1.key }) {
            let balances = planRows.map(\.balance)
            series.append((plan, balances))
            for (index, row) in planRows.enumerated() where row.periodSource == "closed" { closed.insert(index) }
            numbers.append([plan, HTML.number(balances.first ?? 0), HTML.number(balances.last ?? 0), "\(balances.count)"])
        }
        return LineChart.draw(title: "Expected balance, \(term)", description: "\(series.count) plans over "
            + "\(series.first?.1.count ?? 0) periods; \(closed.count) closed periods shaded", series: series,
            shaded: closed, xUnit: "meal periods of the term, in order", yUnit: "swipes left")
            + HTML.table(["plan", "after the first period", "after the last", "periods"], numbers, numeric: [1, 2, 3])
    }
}
