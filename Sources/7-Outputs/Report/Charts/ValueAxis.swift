import Foundation

/// A numeric axis from zero: ticks at steps of 1, 2, 2.5 or 5 × 10ⁿ, about five of them, ending at
/// the first tick at or past the largest value, so every bar ends inside the axis.
struct ValueAxis {
    let ticks: [Double]
    let unit: String

    /// `whole`: the values are counts, so no step is smaller than one.
    init(maximum: Double, unit: String, count: Int = 5, whole: Bool = false) {
        self.unit = unit
        // A value that is no number (infinite in a damaged snapshot) gives no scale.
        let top = max(maximum.isFinite ? maximum : 0, whole ? 1 : 1e-9)
        let rough = top / Double(count)
        let magnitude = pow(10, log10(rough).rounded(.down))
        // 2.5 gives quarters of a hundred; a count never steps by a fraction.
        let multiples = whole && magnitude < 10 ? [1.0, 2, 5, 10] : [1.0, 2, 2.5, 5, 10]
        let nice = multiples.map { $0 * magnitude }.first { $0 >= rough * 0.999_999 } ?? 10 * magnitude
        let step = whole ? max(nice.rounded(.up), 1) : nice
        let steps = Int((top / step - 1e-9).rounded(.up))
        ticks = (0...max(steps, 1)).map { Double($0) * step }
    }

    var top: Double { ticks.last ?? 1 }

    /// The share of the axis `value` lies at (0 at zero, 1 at the last tick).
    func fraction(_ value: Double) -> Double { min(max(value / top, 0), 1) }

    /// A tick's number without trailing zeros ("0.25", "2.5", "40").
    func label(_ value: Double) -> String {
        var text = HTML.number(value)
        while text.contains("."), text.hasSuffix("0") || text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Ticks, their labels and the axis title under a horizontal axis from `left` to `right` at `y`.
    func horizontal(left: Double, right: Double, y: Double) -> String {
        let size = SVGChart.labelSize
        var body = SVGChart.line(x1: left, y1: y, x2: right, y2: y)
        for tick in ticks {
            let x = left + (right - left) * fraction(tick)
            body += SVGChart.line(x1: x, y1: y, x2: x, y2: y + 4)
            body += SVGChart.text(label(tick), x: x, y: y + 4 + size, anchor: .middle, style: "tick")
        }
        body += SVGChart.text(unit, x: (left + right) / 2, y: y + 6 + 2 * SVGChart.lineHeight(size), anchor: .middle,
                              room: right - left, style: "axis-title")
        return body
    }

    /// The room a horizontal axis takes under its line.
    static var horizontalHeight: Double { 12 + 2 * SVGChart.lineHeight() }

    /// The room the last tick's label needs past the axis's right end (it is centred on the tick).
    var overhang: Double { TextWidth.of(label(top), size: SVGChart.labelSize) / 2 + 2 }

    /// Ticks with grid lines across the plot, labels left of a vertical axis at `left` from
    /// `bottom` up to `top`, and the unit above the axis, within `width` (the chart's).
    func vertical(left: Double, right: Double, top: Double, bottom: Double, width: Double) -> String {
        let size = SVGChart.labelSize
        var body = ""
        for tick in ticks {
            let y = bottom - (bottom - top) * fraction(tick)
            body += SVGChart.line(x1: left, y1: y, x2: right, y2: y, style: tick == 0 ? "axis" : "grid")
            body += SVGChart.text(label(tick), x: left - 6, y: y + size * 0.35, anchor: .end, style: "tick")
        }
        body += SVGChart.line(x1: left, y1: top, x2: left, y2: bottom)
        body += SVGChart.text(unit, x: 2, y: top - 12, anchor: .start, room: width - 4, style: "axis-title")
        return body
    }

    /// The room the tick labels need left of a vertical axis.
    var labelWidth: Double { (ticks.map { TextWidth.of(label($0), size: SVGChart.labelSize) }.max() ?? 0) + 10 }

    /// The room above a vertical axis for its unit.
    static var verticalTitleHeight: Double { 12 + SVGChart.lineHeight() + 8 }
}
