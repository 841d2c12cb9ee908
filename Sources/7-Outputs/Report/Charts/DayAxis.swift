import FoodModel

/// The labels of a row of day columns, from `left`, `cell` pixels each: the month (with its
/// year) where a month starts and at the first column, then the day numbers, every day when they
/// fit, else every second day or week, and the weekday when there is room for it. Week columns
/// (`CalendarColumns`, named by their Mondays) carry the months alone. A label that would touch
/// the one before it is left out, so none overlap.
struct DayAxis {
    let days: [ServiceDate]
    let left: Double
    let cell: Double
    var grain = CalendarColumns.Grain.day

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]

    func centre(_ index: Int) -> Double { left + (Double(index) + 0.5) * cell }

    /// Whether the weekday row is drawn: days one by one, and wide enough columns.
    var showsWeekdays: Bool {
        dayStep == 1 && cell >= TextWidth.of("Mo", size: SVGChart.labelSize) + 4
    }

    /// How many rows of labels the axis takes.
    var rows: Int { showsWeekdays ? 3 : (dayStep == nil ? 1 : 2) }

    /// Every day, every second, weekly (1, 8, 15, 22, 29) or fortnightly, whichever fits first.
    private var dayStep: Int? {
        guard grain == .day else { return nil }
        let widest = TextWidth.of("30", size: SVGChart.labelSize) + 4
        return [1, 2, 7, 14].first { Double($0) * cell >= widest }
    }

    /// The labels, the months' baseline at `top` + one line, the next rows a line apart each.
    func labels(top: Double) -> String {
        let size = SVGChart.labelSize, line = SVGChart.lineHeight()
        var body = monthLabels(baseline: top + size)
        guard let step = dayStep else { return body }
        var lastEnd = -Double.infinity
        for (index, day) in days.enumerated() where (day.day - 1) % step == 0 {
            let text = String(day.day), half = TextWidth.of(text, size: size) / 2
            guard centre(index) - half > lastEnd + 2 else { continue }
            body += SVGChart.text(text, x: centre(index), y: top + line + size, anchor: .middle, style: "tick")
            lastEnd = centre(index) + half
        }
        if showsWeekdays {
            for (index, day) in days.enumerated() {
                body += SVGChart.text(Self.weekdays[day.isoWeekday - 1], x: centre(index), y: top + 2 * line + size,
                                      anchor: .middle, style: "tick")
            }
        }
        return body
    }

    /// "Apr 2025" at each month's first column (and the first column), shortened to "Apr" or
    /// left out when the month's columns are too narrow for it.
    private func monthLabels(baseline: Double) -> String {
        let starts = days.indices.filter { $0 == 0 || days[$0].month != days[$0 - 1].month }
        var body = ""
        for (number, start) in starts.enumerated() {
            let end = number + 1 < starts.count ? starts[number + 1] : days.count
            let room = Double(end - start) * cell - 4
            let month = Self.months[days[start].month - 1]
            let candidates = ["\(month) \(days[start].year)", month]
            guard let text = candidates.first(where: { TextWidth.of($0, size: SVGChart.labelSize) <= room }) else { continue }
            body += SVGChart.text(text, x: left + Double(start) * cell + 1, y: baseline, style: "tick")
        }
        return body
    }
}
