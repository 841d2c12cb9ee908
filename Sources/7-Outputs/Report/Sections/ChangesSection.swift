import Snapshot

/// Menu items added and removed per day, counted as `diff` counts them (the same item twice is
/// two), and the foods whose label values changed; compared in SQL with the previous snapshot
/// attached, so a history of hundreds of thousands of items is never held in memory.
enum ChangesSection {
    static let title = "Changes since the previous snapshot"

    static func html(_ context: ReportContext) throws -> String {
        guard let previous = context.previous else {
            return HTML.section("changes", title, HTML.none("No previous snapshot to compare with."))
        }
        let changes = try ReportQueries.changes(of: context.snapshot, since: previous)
        let perDay = changes.perDay, foodsAdded = changes.foodsAdded, foodsRemoved = changes.foodsRemoved
        let labels = changes.labels.map { [$0.foodID, $0.name, "\($0.values) value(s)"] }
        guard !perDay.isEmpty || !labels.isEmpty || foodsAdded > 0 || foodsRemoved > 0 else {
            return HTML.section("changes", title, HTML.none("Nothing changed since \(previous.lastPathComponent)."))
        }
        let added = perDay.reduce(0) { $0 + $1.added }, removed = perDay.reduce(0) { $0 + $1.removed }
        let chart = perDay.isEmpty ? HTML.none("No menu item was added or removed.") : BarChart.draw(
            title: "Menu items added and removed per day",
            description: "\(added) items added and \(removed) removed over \(perDay.count) days", category: "day",
            items: perDay.flatMap { [("\($0.date) added", Double($0.added)), ("\($0.date) removed", Double($0.removed))] },
            unit: "menu items", whole: true)
        return HTML.section("changes", title, chart
            + HTML.table(["day", "added", "removed"], perDay.map { [$0.date, "\($0.added)", "\($0.removed)"] }, numeric: [1, 2])
            + "<p>\(foodsAdded) food(s) added, \(foodsRemoved) removed; \(labels.count) food(s) whose label values changed"
            + (labels.isEmpty ? ".</p>" : ":</p>" + HTML.table(["food", "name", "what changed"], labels)))
    }
}
