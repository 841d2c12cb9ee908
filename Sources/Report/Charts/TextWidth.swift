/// How wide a text draws, estimated without a browser: the page carries no script, so the
/// generator must size every SVG label and box itself.
///
/// The charts' texts ask for DejaVu Sans first (`PageStyle`), the face `system-ui` and
/// `sans-serif` resolve to on Debian, and Verdana, whose advances are within a few percent of it.
/// The widths are DejaVu Sans's advances in thousandths of an em for the printable ASCII
/// characters (measured with a canvas in Chromium); any other character counts as a full em, wider
/// than most, so the estimate errs towards too wide, and a margin covers the other faces.
enum TextWidth {
    private static let ascii: [Int] = [
        318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, // space to /
        636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, // 0 to ?
        1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, // @ to O
        603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, // P to _
        500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, // ` to o
        635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,      // p to ~
    ]

    /// Room for the faces that are a little wider than DejaVu Sans, and for bold.
    private static let margin = 1.1

    static let ellipsis = "…"

    /// The estimated width of `text` at `size` pixels.
    static func of(_ text: String, size: Double) -> Double {
        var thousandths = 0
        for scalar in text.unicodeScalars {
            let code = Int(scalar.value)
            thousandths += (32..<127).contains(code) ? ascii[code - 32] : 1000
        }
        return Double(thousandths) / 1000 * size * margin
    }

    /// `text` as it fits in `width` pixels at `size`: whole, or cut at a character and ended
    /// with an ellipsis (nil when not even the ellipsis fits).
    static func fitting(_ text: String, size: Double, width: Double) -> String? {
        if of(text, size: size) <= width { return text }
        var kept = Substring(text)
        while !kept.isEmpty {
            kept = kept.dropLast()
            let candidate = kept.trimmingTrailingSpaces() + ellipsis
            if of(candidate, size: size) <= width { return candidate }
        }
        return of(ellipsis, size: size) <= width ? ellipsis : nil
    }
}

private extension Substring {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
