import FoodModel

/// Items served per restaurant and calendar day (or week, past a year: `CalendarColumns`) as a
/// grid that reads at a glance: a row per restaurant, a column per day or week, darker for more
/// items. Long ranges are cut into bands of whole months, one under the other, so a year's cells
/// stay wide enough to see. Columns no restaurant served are hatched, stale ones outlined, and
/// the key says what each mark means. `items`, `stale` and `missing` are by column start.
struct CoverageCalendar {
    let restaurants: [String]
    let columns: CalendarColumns
    let items: [String: [ServiceDate: Int]]
    let stale: Set<ServiceDate>
    let missing: Set<ServiceDate>
    var width = 960.0
    /// Where the grid starts: room for the longest restaurant name. Every cell is placed from it
    /// and shaded on `scale`, so both are worked out once, not for each of a year's cells.
    private let left: Double
    private let scale: ValueAxis

    init(restaurants: [String], columns: CalendarColumns, items: [String: [ServiceDate: Int]],
         stale: Set<ServiceDate>, missing: Set<ServiceDate>) {
        self.restaurants = restaurants
        self.columns = columns
        self.items = items
        self.stale = stale
        self.missing = missing
        let longest = restaurants.map { TextWidth.of($0, size: SVGChart.labelSize) }.max() ?? 0
        left = min(max(longest, TextWidth.of("service \(columns.unit)", size: SVGChart.labelSize)) + 14, 240)
        scale = ValueAxis(maximum: Double(items.values.flatMap(\.values).max() ?? 1), unit: "items", count: 4, whole: true)
    }

    private var days: [ServiceDate] { columns.starts }

    private let size = SVGChart.labelSize
    private var rowHeight: Double { 18 }
    private var plotWidth: Double { width - left - 8 }

    /// Whole months per band, the bands about equally long, as few as keep cells at least 6
    /// pixels wide.
    private var bands: [[ServiceDate]] {
        let capacity = max(Int(plotWidth / 6), 31)
        let count = (days.count + capacity - 1) / capacity
        let target = (days.count + count - 1) / max(count, 1)
        var bands: [[ServiceDate]] = [], current: [ServiceDate] = []
        for month in Dictionary(grouping: days, by: { $0.year * 12 + $0.month }).sorted(by: { $0.key < $1.key }) {
            let together = current.count + month.value.count
            // A month goes to the next band when this one is full, or nearer its share without it.
            if !current.isEmpty && (together > capacity || together - target > target - current.count) {
                bands.append(current)
                current = []
            }
            current += month.value.sorted()
        }
        return current.isEmpty ? bands : bands + [current]
    }

    func draw(title: String, description: String) -> String {
        let bands = self.bands
        let cell = min(56, plotWidth / Double(bands.map(\.count).max() ?? 1))
        var body = "<defs><pattern id=\"hatch\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\" "
            + "patternTransform=\"rotate(45)\"><rect class=\"missing-bg\" width=\"5\" height=\"5\"/>"
            + "<line class=\"missing-line\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"5\"/></pattern></defs>"
        var y = 4.0
        for band in bands {
            let drawn = self.band(band, top: y, cell: cell)
            body += drawn.svg
            y += drawn.height + 14
        }
        let legend = Legend.draw(legendEntries(), left: 4, top: y, width: width - 8)
        body += legend.svg
        return SVGChart.figure(title: title, description: description, width: width, height: y + legend.height + 4,
                               body: body)
    }

    private func band(_ band: [ServiceDate], top: Double, cell: Double) -> (svg: String, height: Double) {
        let axis = DayAxis(days: band, left: left, cell: cell, grain: columns.grain), line = SVGChart.lineHeight()
        var body = SVGChart.text("service \(columns.unit)", x: left - 8, y: top + size, anchor: .end, room: left - 10, style: "axis-title")
        body += axis.labels(top: top)
        let gridTop = top + Double(axis.rows) * line + 4
        body += SVGChart.text("restaurant", x: left - 8, y: gridTop - 6, anchor: .end, room: left - 10, style: "axis-title")
        for (row, restaurant) in restaurants.enumerated() {
            let rowTop = gridTop + Double(row) * rowHeight
            body += SVGChart.text(restaurant, x: left - 8, y: rowTop + rowHeight / 2 + size * 0.35, anchor: .end,
                                  room: left - 12)
            for (column, day) in band.enumerated() {
                body += cellMark(restaurant, day, x: left + Double(column) * cell, y: rowTop, cell: cell)
            }
        }
        let gridBottom = gridTop + Double(restaurants.count) * rowHeight
        for (column, day) in band.enumerated() where stale.contains(day) {
            body += SVGChart.rect(x: left + Double(column) * cell - 1, y: gridTop - 2, width: cell + 1,
                                  height: gridBottom - gridTop + 3, style: "stale", tooltip: "\(columns.name(day)): stale")
        }
        return (body, gridBottom - top)
    }

    private func cellMark(_ restaurant: String, _ day: ServiceDate, x: Double, y: Double, cell: Double) -> String {
        let gap = cell >= 5 ? 1.0 : 0, height = rowHeight - 2
        if missing.contains(day) {
            return SVGChart.rect(x: x, y: y, width: cell - gap, height: height, style: "missing",
                                 tooltip: "\(columns.name(day)): no menu at all")
        }
        guard let count = items[restaurant]?[day], count > 0 else {
            return SVGChart.rect(x: x, y: y, width: cell - gap, height: height, style: "empty")
        }
        let shade = self.shade(count)
        var mark = SVGChart.rect(x: x, y: y, width: cell - gap, height: height, style: "cell", opacity: shade,
                                 tooltip: "\(restaurant), \(columns.name(day)): \(count) items")
        // Wide cells carry their count, light on the dark shades.
        let size = 11.0
        if TextWidth.of(String(count), size: size) + 6 <= cell - gap {
            mark += SVGChart.text(String(count), x: x + (cell - gap) / 2, y: y + height / 2 + size * 0.35, anchor: .middle,
                                  size: size, style: shade > 0.6 ? "count on-dark" : "count")
        }
        return mark
    }

    /// The class of `count`, as the key shows it: one shade per step of the scale.
    private func shade(_ count: Int) -> Double {
        let steps = scale.ticks.count - 1
        let step = max(1, min(steps, Int((Double(count) / scale.top * Double(steps)).rounded(.up))))
        return 0.2 + 0.8 * Double(step) / Double(steps)
    }

    private func legendEntries() -> [Legend.Entry] {
        let ticks = scale.ticks
        var entries = (1..<ticks.count).map { step in
            Legend.Entry(swatch: { x, y in
                SVGChart.rect(x: x, y: y, width: 12, height: 12, style: "cell",
                              opacity: 0.2 + 0.8 * Double(step) / Double(ticks.count - 1))
            }, meaning: "\(HTML.number(ticks[step - 1] + 1))–\(HTML.number(ticks[step])) items")
        }
        entries.append(Legend.Entry(swatch: { x, y in SVGChart.rect(x: x, y: y, width: 12, height: 12, style: "empty") },
                                    meaning: "restaurant served nothing"))
        if !missing.isEmpty {
            entries.append(Legend.Entry(swatch: { x, y in
                SVGChart.rect(x: x, y: y, width: 12, height: 12, style: "missing") }, meaning: "no menu at all that \(columns.unit)"))
        }
        if !stale.isEmpty {
            entries.append(Legend.Entry(swatch: { x, y in
                SVGChart.rect(x: x, y: y, width: 12, height: 12, style: "stale") },
                meaning: "stale: an earlier fetch published, the newest was refused"))
        }
        return entries
    }
}
