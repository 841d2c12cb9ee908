import Foundation

/// The HTML pieces the sections are written with: escaped text, numbers as the page prints
/// them, tables, and folded lists.
enum HTML {
    /// `text` as it reads between tags or inside an attribute, which the page always quotes with
    /// `"`: every value the page prints goes through here, those the code chose too, so no
    /// snapshot's text (they are files anyone can write) becomes markup.
    /// One pass over the bytes, and none when nothing needs escaping (most of a page's values):
    /// a year's page escapes some fifty thousand tooltips and labels.
    static func escape(_ text: String) -> String {
        let markup: (UInt8) -> Bool = { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
            || $0 == UInt8(ascii: "\"") }
        guard text.utf8.contains(where: markup) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Whole numbers without a decimal point, others to two decimals.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e12 ? String(Int(value)) : fixed(value, decimals: 2)
    }

    /// A share as a percentage with one decimal ("97.4%").
    static func percent(_ part: Int, of whole: Int) -> String {
        whole == 0 ? "–" : fixed(100 * Double(part) / Double(whole), decimals: 1) + "%"
    }

    /// `value` with `decimals` digits after the point, as `printf`'s `%.Nf` writes it. A year's
    /// page prints some hundred thousand coordinates, and `String(format:)` was a tenth of the
    /// page's time: a value is scaled and rounded in integers instead, except where that could
    /// round otherwise than `printf`, which reads the binary value exactly: a value too large
    /// for the scaled product to be exact to a millionth, or one within a millionth of a half.
    static func fixed(_ value: Double, decimals: Int) -> String {
        let scale = decimals == 1 ? 10.0 : 100.0
        let scaled = value * scale, units = scaled.rounded()
        guard (1...2).contains(decimals), abs(scaled) < 1e9, abs(abs(scaled - units) - 0.5) > 1e-6 else {
            return String(format: "%.\(decimals)f", value)
        }
        let magnitude = Int(abs(units)), divisor = decimals == 1 ? 10 : 100
        let fraction = String(magnitude % divisor)
        // `printf` keeps the sign of a negative value that rounds to zero ("-0.00").
        return (value.sign == .minus ? "-" : "") + String(magnitude / divisor) + "."
            + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    static func section(_ id: String, _ title: String, _ content: String) -> String {
        "<section id=\"\(escape(id))\"><h2>\(escape(title))</h2>\n\(content)\n</section>"
    }

    /// The one line a section shows instead of a chart when the snapshot has no such data.
    static func none(_ line: String) -> String { "<p class=\"none\">\(escape(line))</p>" }

    static func table(_ header: [String], _ rows: [[String]], numeric: Set<Int> = []) -> String {
        let head = header.enumerated().map { index, title in
            numeric.contains(index) ? "<th class=\"n\">\(escape(title))</th>" : "<th>\(escape(title))</th>"
        }.joined()
        let body = rows.map { row in
            "<tr>" + row.enumerated().map { index, cell in
                numeric.contains(index) ? "<td class=\"n\">\(escape(cell))</td>" : "<td>\(escape(cell))</td>"
            }.joined() + "</tr>"
        }.joined(separator: "\n")
        return "<table><thead><tr>\(head)</tr></thead><tbody>\n\(body)\n</tbody></table>"
    }

    /// Content folded under a one-line summary, closed until the reader opens it.
    static func folded(_ summary: String, _ content: String) -> String {
        "<details><summary>\(escape(summary))</summary>\n\(content)\n</details>"
    }

    /// `text` cut to about `limit` characters at a word, with an ellipsis.
    static func abridged(_ text: String, limit: Int) -> String {
        guard text.count > limit else { return text }
        let cut = text.prefix(limit)
        let atWord = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
        return atWord.trimmingCharacters(in: CharacterSet(charactersIn: " ,;:")) + "…"
    }
}
