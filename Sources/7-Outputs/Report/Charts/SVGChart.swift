import Foundation

/// The pieces every chart is drawn with: the figure around an inline SVG (title, text
/// alternative, natural size), and labels sized by the generator itself, since the page has no
/// script to measure them. Colours come from the page's style sheet (classes), so one drawing
/// serves the light and the dark scheme and print.
enum SVGChart {
    /// The default label size: the body's text is 15 px, labels a little smaller.
    static let labelSize = 13.0

    /// A chart as a figure: drawn at its natural size (so labels read at the size they were
    /// measured for) and scaled down only in a narrower window or on paper.
    static func figure(title: String, description: String, width: Double, height: Double, body: String) -> String {
        // Ids from the title's words, so the same snapshot always gives the same page.
        let id = HTML.escape("c-" + title.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-"))
        return "<figure class=\"chart\"><figcaption>\(HTML.escape(title))</figcaption>"
            + "<svg class=\"chart\" width=\"\(HTML.number(width))\" height=\"\(HTML.number(height))\" "
            + "viewBox=\"0 0 \(HTML.number(width)) \(HTML.number(height))\" role=\"img\" aria-labelledby=\"\(id)t \(id)d\" "
            + "xmlns=\"http://www.w3.org/2000/svg\"><title id=\"\(id)t\">\(HTML.escape(title))</title>"
            + "<desc id=\"\(id)d\">\(HTML.escape(description))</desc>\(body)</svg></figure>"
    }

    enum Anchor: String { case start, middle, end }

    /// A label at (x, y) (y is the baseline). With `room`, a text wider than `room` pixels is cut
    /// with an ellipsis and keeps its whole wording as a tooltip; nothing when not even the
    /// ellipsis fits.
    static func text(_ content: String, x: Double, y: Double, anchor: Anchor = .start, size: Double = labelSize,
                     room: Double? = nil, style: String = "label") -> String {
        var shown = content
        if let room {
            guard let fitted = TextWidth.fitting(content, size: size, width: room) else { return "" }
            shown = fitted
        }
        let tooltip = shown == content ? "" : "<title>\(HTML.escape(content))</title>"
        return "<text class=\"\(HTML.escape(style))\" x=\"\(HTML.number(x))\" y=\"\(HTML.number(y))\" text-anchor=\"\(anchor.rawValue)\" "
            + "font-size=\"\(HTML.number(size))\">\(tooltip)\(HTML.escape(shown))</text>"
    }

    static func rect(x: Double, y: Double, width: Double, height: Double, style: String,
                     opacity: Double? = nil, tooltip: String? = nil) -> String {
        let fill = opacity.map { " fill-opacity=\"\(HTML.number($0))\"" } ?? ""
        let open = "<rect class=\"\(HTML.escape(style))\" x=\"\(HTML.number(x))\" y=\"\(HTML.number(y))\" "
            + "width=\"\(HTML.number(max(width, 0)))\" height=\"\(HTML.number(max(height, 0)))\"\(fill)"
        guard let tooltip else { return open + "/>" }
        return open + "><title>\(HTML.escape(tooltip))</title></rect>"
    }

    static func line(x1: Double, y1: Double, x2: Double, y2: Double, style: String = "axis") -> String {
        "<line class=\"\(HTML.escape(style))\" x1=\"\(HTML.number(x1))\" y1=\"\(HTML.number(y1))\" "
            + "x2=\"\(HTML.number(x2))\" y2=\"\(HTML.number(y2))\"/>"
    }

    /// The height a line of labels takes, with its leading.
    static func lineHeight(_ size: Double = labelSize) -> Double { (size * 1.35).rounded(.up) }
}
