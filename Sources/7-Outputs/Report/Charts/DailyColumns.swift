import FoodModel

/// One column per calendar day (or week, past a year: `CalendarColumns`) on a value axis (a share
/// in percent, a count), columns without a value left empty and marked under the axis, so a gap
/// reads as a gap and not as zero. `values` are by column start.
enum DailyColumns {
    static func draw(title: String, description: String, columns: CalendarColumns, values: [ServiceDate: Double],
                     axis: ValueAxis, width: Double = 960) -> String {
        let days = columns.starts
        let size = SVGChart.labelSize, line = SVGChart.lineHeight()
        let top = ValueAxis.verticalTitleHeight, plotHeight = 160.0
        let left = max(axis.labelWidth, 40) + 4
        let cell = min(36, (width - left - 8) / Double(max(days.count, 1)))
        // A short range draws narrow: the figure is as wide as its columns, with room for its unit.
        let width = min(width, max(left + cell * Double(days.count) + 16, 440))
        let dayAxis = DayAxis(days: days, left: left, cell: cell, grain: columns.grain)
        let bottom = top + plotHeight
        var body = axis.vertical(left: left, right: left + cell * Double(days.count), top: top, bottom: bottom, width: width)
        for (index, day) in days.enumerated() {
            let x = left + Double(index) * cell, gap = cell >= 4 ? 1.0 : 0
            guard let value = values[day] else {
                body += SVGChart.rect(x: x, y: bottom + 2, width: cell - gap, height: 4, style: "absent",
                                      tooltip: "\(columns.name(day)): no items")
                continue
            }
            let height = plotHeight * axis.fraction(value)
            body += SVGChart.rect(x: x, y: bottom - height, width: cell - gap, height: height, style: "bar",
                                  tooltip: "\(columns.name(day)): \(HTML.number(value)) \(axis.unit)")
        }
        body += dayAxis.labels(top: bottom + 8)
        let axisBottom = bottom + 8 + Double(dayAxis.rows) * line
        body += SVGChart.text("service \(columns.unit)", x: left, y: axisBottom + size + 4, style: "axis-title")
        var height = axisBottom + line + 10
        if days.contains(where: { values[$0] == nil }) {
            let key = Legend.draw([Legend.Entry(swatch: { x, y in
                SVGChart.rect(x: x, y: y + 4, width: 12, height: 4, style: "absent") }, meaning: "no items that \(columns.unit)")],
                left: left, top: height - 4, width: width - left)
            body += key.svg
            height += key.height
        }
        return SVGChart.figure(title: title, description: description, width: width, height: height, body: body)
    }
}
