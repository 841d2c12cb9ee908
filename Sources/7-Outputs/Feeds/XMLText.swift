/// Text made safe for an XML document and for OpenMensa's limits.
enum XMLText {
    /// Escapes markup characters, and drops characters XML 1.0 cannot carry at all (control
    /// characters other than tab, line feed and carriage return; U+FFFE, U+FFFF).
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            default:
                if isAllowed(scalar) { escaped.unicodeScalars.append(scalar) }
            }
        }
        return escaped
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF
    }

    /// `text` with its whitespace runs made single spaces, and shortened to at most `limit`
    /// characters (as XML Schema counts them: code points) with an ellipsis, whole characters
    /// kept; OpenMensa refuses a name or note over 250, and a long name is still worth showing.
    static func limited(_ text: String, to limit: Int = 250) -> String {
        let allowedScalars = text.unicodeScalars.filter { isAllowed($0) || $0 == "\t" || $0 == "\n" }
        let allowed = String(String.UnicodeScalarView(allowedScalars))
        let plain = allowed.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard plain.unicodeScalars.count > limit else { return plain }
        var kept = ""
        var count = 0
        for character in plain {
            let size = character.unicodeScalars.count
            guard count + size <= limit - 1 else { break }
            kept.append(character)
            count += size
        }
        return kept + "…"
    }
}
