/// The frame the horizontal charts share: one row per category, its name left of the plot (cut
/// with an ellipsis when longer than the room), a title over the names, and a value axis with
/// ticks and its unit under the rows.
struct CategoryFrame {
    let labels: [String]
    let axis: ValueAxis
    let title: String
    let width: Double
    let left: Double
    let right: Double
    let rowHeight: Double
    let top: Double

    /// `trailing` is the room to keep right of the plot (a value printed past a bar's end).
    init(labels: [String], axis: ValueAxis, title: String, width: Double = 960, rowHeight: Double = 22,
         trailing: Double = 0) {
        let size = SVGChart.labelSize
        let longest = labels.map { TextWidth.of($0, size: size) }.max() ?? 0
        self.labels = labels
        self.axis = axis
        self.title = title
        self.width = width
        self.rowHeight = rowHeight
        left = min(max(longest, TextWidth.of(title, size: size)) + 14, 280)
        right = width - max(trailing, axis.overhang) - 4
        top = SVGChart.lineHeight() + 8
    }

    func rowTop(_ index: Int) -> Double { top + Double(index) * rowHeight }

    /// The baseline of a label centred in row `index`.
    func baseline(_ index: Int) -> Double { rowTop(index) + rowHeight / 2 + SVGChart.labelSize * 0.35 }

    func x(_ value: Double) -> Double { left + (right - left) * axis.fraction(value) }

    private var axisY: Double { rowTop(labels.count) + 4 }

    var height: Double { axisY + ValueAxis.horizontalHeight }

    /// The category title, the names and the axis.
    func frame() -> String {
        var body = SVGChart.text(title, x: left - 8, y: top - 8, anchor: .end, room: left - 10, style: "axis-title")
        for (index, label) in labels.enumerated() {
            body += SVGChart.text(label, x: left - 8, y: baseline(index), anchor: .end, room: left - 12)
        }
        return body + axis.horizontal(left: left, right: right, y: axisY)
    }
}
