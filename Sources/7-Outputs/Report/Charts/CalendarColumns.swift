import FoodModel

/// The columns a chart over calendar days draws: one per day up to `longestDaily` days, one per
/// week (Monday to Sunday, named by its Monday) beyond, so that a history of years stays a page of
/// a few hundred columns rather than thousands of hairlines, and the page's size grows with weeks.
struct CalendarColumns {
    enum Grain: Equatable {
        case day, week
    }

    let grain: Grain
    /// Each column's first day: the day itself, or the Monday of its week (which may be before
    /// the range's first day).
    let starts: [ServiceDate]

    /// A year and a day are drawn day by day, as they always were.
    static let longestDaily = 366

    /// The columns for every calendar day from `first` to `last`.
    init(from first: ServiceDate, to last: ServiceDate) {
        let count = last.daysSinceEpoch - first.daysSinceEpoch + 1
        if count <= Self.longestDaily {
            grain = .day
            starts = (0..<max(count, 0)).map { first.adding(days: $0) }
        } else {
            grain = .week
            let monday = Self.monday(of: first)
            starts = stride(from: 0, through: last.daysSinceEpoch - monday.daysSinceEpoch, by: 7).map { monday.adding(days: $0) }
        }
    }

    /// The first day of the column `day` falls in.
    func start(of day: ServiceDate) -> ServiceDate {
        grain == .day ? day : Self.monday(of: day)
    }

    /// How a column is named in a tooltip or a table: "2026-10-05", or "week of 2026-10-05".
    func name(_ start: ServiceDate) -> String {
        grain == .day ? start.description : "week of \(start)"
    }

    /// "day" or "week", for titles and keys.
    var unit: String { grain == .day ? "day" : "week" }

    private static func monday(of day: ServiceDate) -> ServiceDate {
        day.adding(days: 1 - day.isoWeekday)
    }
}
