import FoodModel
import Foundation
import SourceReading

/// The heading row of an hours table: which column names the restaurant and which columns are
/// meal periods, read from the headings themselves so that a reordered or extra column still
/// lands in the right place.
struct HoursColumns {
    static let knownMeals: Set<String> = ["BREAKFAST", "BRUNCH", "LUNCH", "DINNER", "LATE NIGHT"]
    static let locationHeadings: Set<String> = ["LOCATION", "RESTAURANT", "DINING HALL", "HALL"]

    var width: Int
    var locationColumn: Int
    /// Column index → meal name in title case ("LATE NIGHT" → "Late Night"), the way menu
    /// pages name meals; the page capitalises headings only for display.
    var meals: [(column: Int, name: String)]

    /// nil unless at least one heading is a known meal period.
    init?(headings: [String]) {
        let folded = headings.map { $0.uppercased() }
        guard folded.contains(where: Self.knownMeals.contains) else { return nil }
        guard let location = folded.firstIndex(where: Self.locationHeadings.contains)
            ?? folded.firstIndex(where: { !Self.knownMeals.contains($0) })
        else { return nil }
        width = headings.count
        locationColumn = location
        meals = headings.indices
            .filter { $0 != location && !headings[$0].isEmpty }
            .map { ($0, headings[$0].lowercased().capitalized) }
    }
}

/// One printed hours cell: "7:00am - 11:00am", "CLOSED", "11:00am - 5:00pm (Closed 1:30-2:00PM )".
struct HoursCell: Hashable {
    var opens: String?
    var closes: String?
    var isClosed: Bool
    /// The parenthesised remarks, without their parentheses.
    var note: String?

    /// nil when the text is neither a time range nor CLOSED.
    init?(_ text: String) {
        let remarks = text.matches(of: /\((?<remark>[^)]*)\)/)
            .map { String($0.output.remark).whitespaceNormalized }
            .filter { !$0.isEmpty }
        note = remarks.isEmpty ? nil : remarks.joined(separator: "; ")
        let hours = text.replacing(/\([^)]*\)/, with: " ").whitespaceNormalized
        if hours.uppercased() == "CLOSED" {
            isClosed = true
            return
        }
        guard let range = hours.wholeMatch(of: /^(?<opens>\S.*?)\s*[-–]\s*(?<closes>\S.*)$/) else {
            return nil
        }
        isClosed = false
        opens = String(range.output.opens)
        closes = String(range.output.closes)
    }
}

/// A day heading such as "Thursday, February 13", with or without a year.
struct DayHeading: Hashable {
    var weekday: Int
    var month: Int
    var day: Int
    var year: Int?

    init?(_ text: String) {
        let pattern = /^(?<weekday>[A-Za-z]+),?\s+(?<month>[A-Za-z]+)\.?\s+(?<day>\d{1,2})(?:,?\s+(?<year>\d{4}))?$/
        guard let match = text.wholeMatch(of: pattern),
              let weekday = PrintedDates.weekday(named: match.output.weekday),
              let month = PrintedDates.month(named: match.output.month),
              let day = Int(match.output.day)
        else { return nil }
        self.weekday = weekday
        self.month = month
        self.day = day
        year = match.output.year.flatMap { Int($0) }
    }

    /// The date of the year nearest `anchor` on which this month and day fall on this weekday:
    /// the weekday pins the year down to one every few years (6, 5 or 11 apart), so the nearest
    /// to a date known to be close is the right one.
    func resolved(near anchor: ServiceDate) -> ServiceDate? {
        ((anchor.year - 40)...(anchor.year + 40))
            .compactMap { ServiceDate(year: $0, month: month, day: day) }
            .filter { $0.isoWeekday == weekday }
            .min { abs($0.daysSinceEpoch - anchor.daysSinceEpoch) < abs($1.daysSinceEpoch - anchor.daysSinceEpoch) }
    }
}
