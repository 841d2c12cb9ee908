/// A chart's key: swatches with their meaning, laid out left to right and wrapped at the
/// chart's width, each entry measured so no two touch.
enum Legend {
    struct Entry {
        /// Draws the swatch in the 12 × 12 square whose top left corner is given.
        var swatch: (Double, Double) -> String
        var meaning: String
    }

    /// The key from (`left`, `top`) within `width`, and the height it took.
    static func draw(_ entries: [Entry], left: Double, top: Double, width: Double) -> (svg: String, height: Double) {
        let size = SVGChart.labelSize, line = SVGChart.lineHeight() + 4
        var x = left, y = top, body = ""
        for entry in entries {
            let room = width - 20
            let textWidth = min(TextWidth.of(entry.meaning, size: size), room)
            if x > left, x + 18 + textWidth > left + width {
                x = left
                y += line
            }
            body += entry.swatch(x, y + (line - 12) / 2 - 2)
            body += SVGChart.text(entry.meaning, x: x + 18, y: y + line / 2 + size * 0.35 - 2, room: room, style: "legend")
            x += 18 + textWidth + 20
        }
        return (body, y + line - top)
    }
}
