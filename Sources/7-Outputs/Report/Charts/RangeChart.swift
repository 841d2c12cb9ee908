/// One box plot per category on a shared axis: whiskers from minimum to maximum, the box from
/// the lower to the upper quartile, a bar at the median.
enum RangeChart {
    static func draw(title: String, description: String, category: String,
                     items: [(label: String, spread: Spread)], unit: String) -> String {
        let axis = ValueAxis(maximum: items.map(\.spread.maximum).max() ?? 0, unit: unit)
        let frame = CategoryFrame(labels: items.map(\.label), axis: axis, title: category, rowHeight: 26)
        var body = ""
        for (index, item) in items.enumerated() {
            let top = frame.rowTop(index) + 4, bottom = frame.rowTop(index) + frame.rowHeight - 4
            let middle = (top + bottom) / 2, s = item.spread
            body += SVGChart.line(x1: frame.x(s.minimum), y1: middle, x2: frame.x(s.maximum), y2: middle, style: "whisker")
            body += SVGChart.rect(x: frame.x(s.lowerQuartile), y: top, width: frame.x(s.upperQuartile) - frame.x(s.lowerQuartile),
                                  height: bottom - top, style: "box",
                                  tooltip: "\(item.label): median \(HTML.number(s.median)) \(unit), "
                                      + "quartiles \(HTML.number(s.lowerQuartile)) to \(HTML.number(s.upperQuartile))")
            body += SVGChart.line(x1: frame.x(s.median), y1: top, x2: frame.x(s.median), y2: bottom, style: "median")
        }
        return SVGChart.figure(title: title, description: description, width: frame.width, height: frame.height,
                               body: frame.frame() + body)
    }
}
