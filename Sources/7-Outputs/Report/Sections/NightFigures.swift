import FoodModel
import Snapshot

/// The figures the headline shows, from the items counted once and small queries of the snapshot.
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
        let queries = context.queries
        var figures = NightFigures()
        let served = context.served.servedDays
        figures.firstDay = served.first
        figures.lastDay = served.last
        figures.daysWithMenus = served.count
        if let first = figures.firstDay.flatMap(ServiceDate.init), let last = figures.lastDay.flatMap(ServiceDate.init) {
            figures.calendarDays = last.daysSinceEpoch - first.daysSinceEpoch + 1
        }
        figures.items = context.served.itemCount
        figures.labelledItems = context.served.labelledItemCount
        figures.restaurants = try queries.restaurantCount()
        figures.staleDays = try queries.stalePartitions().map(\.partition)
        for check in try queries.checkOutcomes() ?? [] {
            if check.severity == "warning" { figures.warnings += 1 }
            if !check.passed && check.severity == "warning" { figures.failedWarnings += 1 }
            if !check.passed && check.severity == "error" { figures.failedErrors.append(check.name) }
        }
        return figures
    }

    /// Calendar days between the first and the last served day on which nothing was served.
    var missingDays: Int { max(calendarDays - daysWithMenus, 0) }
}
