/// Text from a document made safe for a line that a terminal, a log collector or a cron mail
/// reads. A name holding CR or LF would split a warning so that a forged line begins where the
/// document chose (`error: …`), and an escape sequence (`ESC[2J`) would act on the terminal
/// that shows it. Every control character therefore appears as a visible escape instead: C0
/// and DEL as `\n`, `\r`, `\t` or `\x1b`, C1 and the Unicode line and paragraph separators as
/// `\u{85}`, and the bidirectional overrides and isolates, which reorder what follows them on
/// screen, likewise. Printable text, non-ASCII letters included, is left as it is.
public enum TerminalText {
    /// `text` as one line with every control character escaped.
    public static func oneLine(_ text: some StringProtocol) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return String(text) }
        var line = ""
        line.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                line.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": line += "\\n"
            case "\r": line += "\\r"
            case "\t": line += "\\t"
            default:
                let hex = String(scalar.value, radix: 16)
                line += scalar.value < 0x80 ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{\(hex)}"
            }
        }
        return line
    }

    /// Lines meant as several (a summary), each made safe on its own: the line breaks between
    /// them stay, any inside one of them does not.
    public static func lines(_ lines: [String]) -> String {
        lines.map { oneLine($0) }.joined(separator: "\n")
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
