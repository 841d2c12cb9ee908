/// Horizontal bars, one per category, each with its value printed at its end.
enum BarChart {
    /// `whole`: the values are counts, so the axis ticks whole numbers only.
    static func draw(title: String, description: String, category: String,
                     items: [(label: String, value: Double)], unit: String, whole: Bool = false) -> String {
        let size = SVGChart.labelSize
        let axis = ValueAxis(maximum: items.map(\.value).max() ?? 0, unit: unit, whole: whole)
        let valueRoom = (items.map { TextWidth.of(HTML.number($0.value), size: size) }.max() ?? 0) + 8
        let frame = CategoryFrame(labels: items.map(\.label), axis: axis, title: category, trailing: valueRoom)
        var body = ""
        for (index, item) in items.enumerated() {
            let end = frame.x(item.value)
            body += SVGChart.rect(x: frame.left, y: frame.rowTop(index) + 3, width: end - frame.left,
                                  height: frame.rowHeight - 6, style: "bar",
                                  tooltip: "\(item.label): \(HTML.number(item.value)) \(unit)")
            body += SVGChart.text(HTML.number(item.value), x: end + 4, y: frame.baseline(index), style: "value")
        }
        return SVGChart.figure(title: title, description: description, width: frame.width, height: frame.height,
                               body: frame.frame() + body)
    }
}
