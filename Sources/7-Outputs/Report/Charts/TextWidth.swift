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
        pixels(thousandths(of: text.unicodeScalars), size: size)
    }

    /// `text` as it fits in `width` pixels at `size`: whole, or cut at a character, without the
    /// spaces the cut leaves at its end, and ended with an ellipsis (nil when not even the
    /// ellipsis fits).
    ///
    /// One pass over the characters: a kept beginning only widens as it grows, so the longest
    /// one that fits is the last before the first that does not. Measuring each shorter
    /// candidate whole, from the end back, took minutes for a name of 60,000 characters.
    static func fitting(_ text: String, size: Double, width: Double) -> String? {
        if of(text, size: size) <= width { return text }
        // Counted in thousandths with the ellipsis, so a candidate fits exactly when its text would.
        var total = thousandths(of: ellipsis.unicodeScalars)
        guard pixels(total, size: size) <= width else { return nil }
        // The end of the longest beginning that fits, spaces at its end left out.
        var kept = text.startIndex
        for index in text.indices {
            let character = text[index]
            total += thousandths(of: character.unicodeScalars)
            if character == " " { continue }
            guard pixels(total, size: size) <= width else { break }
            kept = text.index(after: index)
        }
        return String(text[..<kept]) + ellipsis
    }

    private static func thousandths(of scalars: some Sequence<Unicode.Scalar>) -> Int {
        var thousandths = 0
        for scalar in scalars {
            let code = Int(scalar.value)
            thousandths += (32..<127).contains(code) ? ascii[code - 32] : 1000
        }
        return thousandths
    }

    private static func pixels(_ thousandths: Int, size: Double) -> Double {
        Double(thousandths) / 1000 * size * margin
    }
}
