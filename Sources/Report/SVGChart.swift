import Foundation

/// The page's charts as inline SVG: a handful of shapes, each with a title and a text
/// alternative (`<title>`, `<desc>`), axis labels, and a `viewBox` so they scale to a narrow
/// window. Values are drawn as given; the numbers behind each chart are printed under it.
enum SVGChart {
    /// A grid of rows × columns whose cells darken with their value; a missing value is a gap
    /// (pale), a marked column is outlined (a stale day).
    static func heatmap(title: String, description: String, rows: [String], columns: [String],
                        values: [String: [String: Double]], marked: Set<String>, columnLabel: (String) -> String?) -> String {
        let cell = 7.0, left = 170.0, top = 30.0
        let width = left + cell * Double(columns.count) + 10, height = top + cell * 1.6 * Double(rows.count) + 40
        let maximum = values.values.flatMap(\.values).max() ?? 1
        var body = ""
        for (rowIndex, row) in rows.enumerated() {
            let y = top + Double(rowIndex) * cell * 1.6
            body += text(x: left - 6, y: y + cell, row, anchor: "end")
            for (columnIndex, column) in columns.enumerated() {
                let x = left + Double(columnIndex) * cell
                if let value = values[row]?[column], value > 0 {
                    let shade = 0.25 + 0.75 * value / maximum
                    body += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(cell - 1)\" height=\"\(cell * 1.4)\" fill=\"#1f6f8b\" "
                        + "fill-opacity=\"\(format(shade))\"><title>\(escape(row)), \(escape(column)): \(format(value))</title></rect>"
                } else {
                    body += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(cell - 1)\" height=\"\(cell * 1.4)\" fill=\"#eee\"/>"
                }
            }
        }
        for (columnIndex, column) in columns.enumerated() {
            let x = left + Double(columnIndex) * cell
            if marked.contains(column) {
                body += "<rect x=\"\(x - 0.5)\" y=\"\(top - 2)\" width=\"\(cell)\" height=\"\(height - top - 36)\" fill=\"none\" "
                    + "stroke=\"#c0392b\" stroke-width=\"1\"><title>\(escape(column)): stale</title></rect>"
            }
            if let label = columnLabel(column) {
                body += text(x: x, y: height - 22, label, anchor: "start", size: 9)
            }
        }
        body += text(x: left, y: height - 6, "service day →", anchor: "start", size: 10)
        body += text(x: left - 6, y: top - 10, "restaurant", anchor: "end", size: 10)
        return svg(title: title, description: description, width: width, height: height, body: body)
    }

    /// Horizontal bars, one per label.
    static func bars(title: String, description: String, items: [(label: String, value: Double)], axis: String) -> String {
        let left = 200.0, barHeight = 14.0, plot = 420.0
        let maximum = max(items.map(\.value).max() ?? 1, 1e-9)
        let height = 30 + Double(items.count) * (barHeight + 6) + 30
        var body = ""
        for (index, item) in items.enumerated() {
            let y = 24 + Double(index) * (barHeight + 6)
            let length = plot * item.value / maximum
            body += text(x: left - 6, y: y + barHeight - 3, item.label, anchor: "end")
            body += "<rect x=\"\(left)\" y=\"\(y)\" width=\"\(format(length))\" height=\"\(barHeight)\" fill=\"#1f6f8b\"/>"
            body += text(x: left + length + 4, y: y + barHeight - 3, format(item.value), anchor: "start", size: 10)
        }
        body += text(x: left, y: height - 8, axis, anchor: "start", size: 10)
        return svg(title: title, description: description, width: left + plot + 80, height: height, body: body)
    }

    /// One box per label: minimum, quartiles, median and maximum on a shared axis.
    static func ranges(title: String, description: String, items: [(label: String, spread: Spread)], axis: String) -> String {
        let left = 140.0, plot = 460.0, rowHeight = 26.0
        let maximum = max(items.map(\.spread.maximum).max() ?? 1, 1e-9)
        let height = 30 + Double(items.count) * rowHeight + 30
        let scale = { (value: Double) in left + plot * value / maximum }
        var body = ""
        for (index, item) in items.enumerated() {
            let y = 24 + Double(index) * rowHeight, s = item.spread
            body += text(x: left - 6, y: y + 12, item.label, anchor: "end")
            body += "<line x1=\"\(format(scale(s.minimum)))\" x2=\"\(format(scale(s.maximum)))\" y1=\"\(y + 8)\" "
                + "y2=\"\(y + 8)\" stroke=\"#555\"/>"
            body += "<rect x=\"\(format(scale(s.lowerQuartile)))\" y=\"\(y)\" width=\"\(format(scale(s.upperQuartile) - scale(s.lowerQuartile)))\" "
                + "height=\"16\" fill=\"#9cc7d6\" stroke=\"#1f6f8b\"/>"
            body += "<line x1=\"\(format(scale(s.median)))\" x2=\"\(format(scale(s.median)))\" y1=\"\(y)\" y2=\"\(y + 16)\" "
                + "stroke=\"#123\" stroke-width=\"2\"/>"
        }
        body += text(x: left, y: height - 8, "\(axis) (0 to \(format(maximum)))", anchor: "start", size: 10)
        return svg(title: title, description: description, width: left + plot + 40, height: height, body: body)
    }

    /// Lines over a shared x axis (a term's periods), with the x positions of closures shaded.
    static func lines(title: String, description: String, series: [(name: String, values: [Double])],
                      shaded: Set<Int>, xAxis: String, yAxis: String) -> String {
        let left = 50.0, top = 20.0, plot = 560.0, plotHeight = 200.0
        let count = max(series.map(\.values.count).max() ?? 1, 2)
        let maximum = max(series.flatMap(\.values).max() ?? 1, 1e-9)
        let x = { (index: Int) in left + plot * Double(index) / Double(count - 1) }
        let y = { (value: Double) in top + plotHeight * (1 - value / maximum) }
        var body = ""
        for index in shaded.sorted() {
            body += "<rect x=\"\(format(x(index) - 1))\" y=\"\(top)\" width=\"\(format(max(plot / Double(count), 2)))\" "
                + "height=\"\(plotHeight)\" fill=\"#f4d03f\" fill-opacity=\"0.35\"/>"
        }
        let colours = ["#1f6f8b", "#c0392b", "#27ae60", "#8e44ad", "#d35400", "#2c3e50"]
        for (number, line) in series.enumerated() {
            let points = line.values.enumerated().map { "\(format(x($0.offset))),\(format(y($0.element)))" }.joined(separator: " ")
            body += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(colours[number % colours.count])\" stroke-width=\"1.5\"/>"
            body += text(x: left + plot + 6, y: top + 12 + Double(number) * 13, line.name, anchor: "start", size: 10,
                         fill: colours[number % colours.count])
        }
        body += "<line x1=\"\(left)\" x2=\"\(left)\" y1=\"\(top)\" y2=\"\(top + plotHeight)\" stroke=\"#555\"/>"
        body += text(x: left - 4, y: top + 8, format(maximum), anchor: "end", size: 10)
        body += text(x: left - 4, y: top + plotHeight, "0", anchor: "end", size: 10)
        body += text(x: left, y: top + plotHeight + 18, xAxis, anchor: "start", size: 10)
        body += text(x: 12, y: top + plotHeight / 2, yAxis, anchor: "middle", size: 10)
        return svg(title: title, description: description, width: left + plot + 120, height: top + plotHeight + 30, body: body)
    }

    /// Five numbers that describe a distribution.
    struct Spread {
        var minimum: Double
        var lowerQuartile: Double
        var median: Double
        var upperQuartile: Double
        var maximum: Double

        /// How many items there are (the sum of the counts).
        var count: Int

        /// Quartiles by linear interpolation between closest ranks, over values each counted as
        /// many times as it was served: a decade of menus is a million items but a few thousand
        /// labels, so the items are never listed one by one. Nil for no values.
        init?(counted values: [(value: Double, count: Int)]) {
            let sorted = values.filter { $0.count > 0 }.sorted { $0.value < $1.value }
            count = sorted.reduce(0) { $0 + $1.count }
            guard let first = sorted.first, let last = sorted.last else { return nil }
            // The value at each rank, from the running totals of the counts.
            var ends: [Int] = []
            ends.reserveCapacity(sorted.count)
            var total = 0
            for entry in sorted {
                total += entry.count
                ends.append(total)
            }
            func value(atRank rank: Int) -> Double {
                var low = 0, high = ends.count - 1
                while low < high {
                    let middle = (low + high) / 2
                    if ends[middle] > rank { high = middle } else { low = middle + 1 }
                }
                return sorted[low].value
            }
            let count = self.count
            func quantile(_ q: Double) -> Double {
                let position = q * Double(count - 1)
                let low = Int(position.rounded(.down)), high = Int(position.rounded(.up))
                let lowValue = value(atRank: low)
                return lowValue + (value(atRank: high) - lowValue) * (position - Double(low))
            }
            minimum = first.value
            lowerQuartile = quantile(0.25)
            median = quantile(0.5)
            upperQuartile = quantile(0.75)
            maximum = last.value
        }
    }

    private static func svg(title: String, description: String, width: Double, height: Double, body: String) -> String {
        // Ids from the title's words, so the same snapshot always gives the same page.
        let id = "c-" + title.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
        return "<figure><figcaption>\(escape(title))</figcaption><svg viewBox=\"0 0 \(format(width)) \(format(height))\" role=\"img\" aria-labelledby=\"\(id)t \(id)d\" "
            + "xmlns=\"http://www.w3.org/2000/svg\"><title id=\"\(id)t\">\(escape(title))</title>"
            + "<desc id=\"\(id)d\">\(escape(description))</desc>\(body)</svg></figure>"
    }

    private static func text(x: Double, y: Double, _ content: String, anchor: String, size: Int = 11,
                             fill: String = "#222") -> String {
        "<text x=\"\(format(x))\" y=\"\(format(y))\" text-anchor=\"\(anchor)\" font-size=\"\(size)\" fill=\"\(fill)\">"
            + "\(escape(content))</text>"
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e12 ? String(Int(value)) : String(format: "%.2f", value)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
