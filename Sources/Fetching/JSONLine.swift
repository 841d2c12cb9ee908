/// A JSON object written member by member, in the order given, its strings escaped as
/// `JSONEncoder` escapes them with `.withoutEscapingSlashes` (RFC 8259 §7: the quote, the
/// backslash and the control characters; everything else as its UTF-8).
struct JSONLine {
    private var members: [String] = []

    /// Adds `"name":value`, `value` already JSON; a nil value adds nothing, as an absent optional.
    mutating func member(_ name: String, _ value: String?) {
        guard let value else { return }
        members.append(Self.string(name) + ":" + value)
    }

    var object: String { "{" + members.joined(separator: ",") + "}" }

    /// `text` as a JSON string.
    static func string(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            return "\"" + text + "\""
        }
        var escaped = [UInt8]()
        escaped.reserveCapacity(text.utf8.count + 8)
        escaped.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): escaped.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): escaped.append(contentsOf: #"\\"#.utf8)
            case 0x08: escaped.append(contentsOf: #"\b"#.utf8)
            case 0x0C: escaped.append(contentsOf: #"\f"#.utf8)
            case 0x0A: escaped.append(contentsOf: #"\n"#.utf8)
            case 0x0D: escaped.append(contentsOf: #"\r"#.utf8)
            case 0x09: escaped.append(contentsOf: #"\t"#.utf8)
            case ..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                escaped.append(contentsOf: #"\u00"#.utf8)
                escaped.append(digits[Int(byte >> 4)])
                escaped.append(digits[Int(byte & 0x0F)])
            default: escaped.append(byte)
            }
        }
        escaped.append(UInt8(ascii: "\""))
        return String(decoding: escaped, as: UTF8.self)
    }
}
