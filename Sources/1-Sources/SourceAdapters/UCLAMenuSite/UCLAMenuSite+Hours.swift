import Basics
import FoodModel
import Foundation
import HTML
import SourceReading

extension UCLAMenuSite {
    /// Reads the hours-by-day page: a day heading ("Thursday, February 13"), a heading row
    /// (LOCATION, BREAKFAST, LUNCH, DINNER, LATE NIGHT), then one row per restaurant.
    ///
    /// Day headings print no year. It is the year, nearest `referenceDate`, in which that month
    /// and day fall on that weekday; without a reference, the nearest to the first full date
    /// printed on the page, else to its copyright year.
    public static func parseHours(_ data: Data, url: String, charset: String?,
                                  referenceDate: ServiceDate?) throws -> [HoursEntry] {
        try withPage(data, url: url, charset: charset) { page in
            var reader = HoursReader(url: url, referenceDate: referenceDate,
                                     pageText: try page.first("/*")?.text ?? "")
            for table in try page.select("//table") {
                try reader.read(table)
            }
            guard reader.sawHeadings else {
                throw Failure.badInput("no hours table (a row headed BREAKFAST, LUNCH, DINNER...) found: not an hours page, or its layout changed",
                                       at: url)
            }
            return reader.entries
        }
    }
}

/// Walks the rows of the page's tables, remembering the current day and column headings.
private struct HoursReader {
    let url: String
    let referenceDate: ServiceDate?
    let pageText: String
    var entries: [HoursEntry] = []
    var sawHeadings = false
    var currentDate: ServiceDate?

    init(url: String, referenceDate: ServiceDate?, pageText: String) {
        self.url = url
        self.referenceDate = referenceDate
        self.pageText = pageText
    }

    /// Rows of this table only (`tr` directly or under `tbody`/`thead`), so a layout table
    /// does not read the rows of the tables nested in it. Headings apply within their table;
    /// the current day carries over, in case a page puts the day heading in a table of its own.
    mutating func read(_ table: HTMLNode) throws {
        var columns: HoursColumns?
        for row in try table.select("./tr | ./*/tr") {
            let cells = try row.texts("./td | ./th")
            if cells.count == 1, let heading = DayHeading(cells[0]) {
                currentDate = try date(of: heading, printed: cells[0])
            } else if let headings = HoursColumns(headings: cells) {
                columns = headings
                sawHeadings = true
            } else if let columns, cells.count > 1 {
                try readRestaurant(cells, columns: columns)
            }
        }
    }

    private mutating func readRestaurant(_ cells: [String], columns: HoursColumns) throws {
        guard cells.count == columns.width else {
            throw Failure.badInput("hours row \"\(cells.first ?? "")\" has \(cells.count) cells under \(columns.width) headings",
                                   at: url)
        }
        let restaurant = cells[columns.locationColumn]
        guard !restaurant.isEmpty else { return }
        for (column, meal) in columns.meals where !cells[column].isEmpty {
            guard let cell = HoursCell(cells[column]) else {
                throw Failure.badInput("hours \"\(cells[column])\" for \(restaurant), \(meal) are neither a time range nor CLOSED",
                                       at: url)
            }
            entries.append(HoursEntry(restaurant: restaurant, date: currentDate, meal: meal,
                                      opens: cell.opens, closes: cell.closes,
                                      isClosed: cell.isClosed, note: cell.note))
        }
    }

    private func date(of heading: DayHeading, printed: String) throws -> ServiceDate {
        if let year = heading.year {
            guard let date = ServiceDate(year: year, month: heading.month, day: heading.day),
                  date.isoWeekday == heading.weekday
            else {
                throw Failure.badInput("day heading \"\(printed)\" is not a real date", at: url)
            }
            return date
        }
        guard let anchor = referenceDate ?? pageAnchor() else {
            throw Failure.badInput("day heading \"\(printed)\" has no year, no reference date was given and the page prints no date or copyright year to infer it from",
                                   at: url)
        }
        guard let date = heading.resolved(near: anchor) else {
            throw Failure.badInput("day heading \"\(printed)\" matches no date near \(anchor)", at: url)
        }
        return date
    }

    /// A full date printed on the page (links to other days, "Updated ...") is close to the
    /// page's own days; the copyright year is a weaker hint (the 2014 page says © 2008), so it
    /// is used only when no full date is printed.
    private func pageAnchor() -> ServiceDate? {
        if let printed = PrintedDates.firstAbsoluteDate(in: pageText) { return printed }
        guard let match = pageText.firstMatch(of: /(?i)(?:©|copyright)\s*(?<year>\d{4})/),
              let year = Int(match.output.year)
        else { return nil }
        return ServiceDate(year: year, month: 7, day: 1)
    }
}
