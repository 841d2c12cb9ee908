import Basics
import FoodModel
import Snapshot
import Swipes

/// What the term calendars of `swipes:` leave out, as warnings: the swipe tables simply have no
/// rows for a day no term covers (a summer night, a year whose calendar is not written yet), so
/// the run names those days once rather than failing; and a run warns a month ahead that the
/// last calendar runs out, while there is time to add the next year's file.
struct SwipeTermChecks {
    let settings: SwipeSettings
    let today: ServiceDate
    /// How far ahead of the calendars' last day a run starts to warn.
    static let noticeDays = 30

    func outcomes(menuDays: some Sequence<ServiceDate>) -> [CheckOutcome] {
        var outcomes: [CheckOutcome] = []
        let uncovered = menuDays.filter { day in
            !settings.terms.contains { $0.firstTableDay <= day && day <= $0.lastDay }
        }.sorted()
        if !uncovered.isEmpty {
            outcomes.append(CheckOutcome(
                name: "swipe_terms", severity: .warning, passed: false, value: Double(uncovered.count),
                message: "no term calendar of swipes.terms covers \(uncovered.count) day(s) on the menus, which have "
                    + "no swipe balances: " + abridged(uncovered.map(\.description))))
        }
        if let end = settings.terms.map(\.lastDay).max(), end.daysSinceEpoch - today.daysSinceEpoch < Self.noticeDays {
            let files = settings.termFiles.map(\.lastPathComponent).joined(separator: ", ")
            let days = end.daysSinceEpoch - today.daysSinceEpoch
            // An end already passed is said as what it is; no date past it is ever assumed.
            let when = days < 0 ? "ended on \(end), \(-days) day(s) before \(today)"
                : "end on \(end), within \(Self.noticeDays) days of \(today)"
            outcomes.append(CheckOutcome(
                name: "swipe_terms_end", severity: .warning, passed: false, value: Double(days),
                message: "the term calendars (\(files)) \(when): add the next year's terms file to swipes.terms"))
        }
        return outcomes
    }
}
