/// RFC 5545's text rules: TEXT values escaped (3.3.11), content lines folded at 75 octets
/// (3.1), CRLF line endings.
enum ICalendarText {
    /// Backslash, semicolon and comma escaped, line breaks as `\n`; control characters dropped
    /// (a TEXT value may not hold them).
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case ";": escaped += "\\;"
            case ",": escaped += "\\,"
            case "\n": escaped += "\\n"
            case "\r", "\t": escaped += " "
            default:
                if scalar.value >= 0x20, scalar.value != 0x7F { escaped.unicodeScalars.append(scalar) }
            }
        }
        return escaped
    }

    /// One content line folded: at most 75 octets a line, continuation lines starting with a
    /// space (which counts), never splitting a UTF-8 character; each line ends with CRLF.
    static func fold(_ line: String) -> String {
        var folded = ""
        var octets = 0
        for character in line {
            let size = character.utf8.count
            if octets + size > 75 {
                folded += "\r\n "
                octets = 1
            }
            folded.append(character)
            octets += size
        }
        return folded + "\r\n"
    }
}
