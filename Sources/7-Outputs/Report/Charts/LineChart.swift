/// Lines over a shared x axis of numbered steps (a term's meal periods), stretches shaded (the
/// closures), a key of the lines at the right.
enum LineChart {
    static func draw(title: String, description: String, series: [(name: String, values: [Double])],
                     shaded: Set<Int>, xUnit: String, yUnit: String, width: Double = 960) -> String {
        let size = SVGChart.labelSize
        let yAxis = ValueAxis(maximum: series.flatMap(\.values).max() ?? 0, unit: yUnit)
        let count = max(series.map(\.values.count).max() ?? 1, 2)
        let xAxis = ValueAxis(maximum: Double(count), unit: xUnit, count: 8)
        let keyNames = series.map(\.name) + (shaded.isEmpty ? [] : ["closed"])
        let keyWidth = min((keyNames.map { TextWidth.of($0, size: size) }.max() ?? 0) + 30, 220)
        let left = max(yAxis.labelWidth, 40) + 4, right = width - keyWidth - xAxis.overhang
        let top = ValueAxis.verticalTitleHeight, bottom = top + 220
        let x = { (step: Double) in left + (right - left) * xAxis.fraction(step) }
        let y = { (value: Double) in bottom - (bottom - top) * yAxis.fraction(value) }
        var body = ""
        for index in shaded.sorted() {
            body += SVGChart.rect(x: x(Double(index + 1)) - 1, y: top, width: max((right - left) / xAxis.top, 2),
                                  height: bottom - top, style: "closed")
        }
        body += yAxis.vertical(left: left, right: right, top: top, bottom: bottom, width: right)
        body += xAxis.horizontal(left: left, right: right, y: bottom)
        for (number, line) in series.enumerated() {
            let points = line.values.enumerated().map { "\(HTML.number(x(Double($0.offset + 1)))),\(HTML.number(y($0.element)))" }
            body += "<polyline class=\"series s\(number % 6)\" points=\"\(points.joined(separator: " "))\"/>"
            let keyY = top + Double(number) * SVGChart.lineHeight()
            body += SVGChart.line(x1: width - keyWidth + 4, y1: keyY + 6, x2: width - keyWidth + 20, y2: keyY + 6,
                                  style: "series s\(number % 6)")
            body += SVGChart.text(line.name, x: width - keyWidth + 24, y: keyY + 6 + size * 0.35,
                                  room: keyWidth - 26, style: "legend")
        }
        if !shaded.isEmpty {
            let keyY = top + Double(series.count) * SVGChart.lineHeight()
            body += SVGChart.rect(x: width - keyWidth + 4, y: keyY, width: 16, height: 12, style: "closed")
            body += SVGChart.text("closed", x: width - keyWidth + 24, y: keyY + 6 + size * 0.35, room: keyWidth - 26,
                                  style: "legend")
        }
        return SVGChart.figure(title: title, description: description, width: width,
                               height: max(bottom + ValueAxis.horizontalHeight,
                                           top + Double(keyNames.count) * SVGChart.lineHeight() + 4), body: body)
    }
}
