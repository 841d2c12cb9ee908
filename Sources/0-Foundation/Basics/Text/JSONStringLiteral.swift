/// `text` as a JSON string literal (RFC 8259 §7), escaped as `JSONEncoder` escapes it with
/// `.withoutEscapingSlashes`: the quote, the backslash and the control characters (the five
/// with a short form by it), everything else as its UTF-8. For JSON written by hand where the
/// encoder's cost or shape does not fit: the raw store's record lines, change files, query output.
public func jsonStringLiteral(_ text: String) -> String {
    guard text.utf8.contains(where: needsEscaping) else {
        return "\"" + text + "\""
    }
    return escapedJSONStringLiteral(text)
}

/// `jsonStringLiteral(text)` appended to `output`: for a document written member by member into
/// one string, without a string made for each value.
public func appendJSONStringLiteral(_ text: String, to output: inout String) {
    guard text.utf8.contains(where: needsEscaping) else {
        output += "\""
        output += text
        output += "\""
        return
    }
    output += escapedJSONStringLiteral(text)
}

private func needsEscaping(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
}

private func escapedJSONStringLiteral(_ text: String) -> String {
    let hexDigits = Array("0123456789abcdef".utf8)
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
            escaped.append(contentsOf: #"\u00"#.utf8)
            escaped.append(hexDigits[Int(byte >> 4)])
            escaped.append(hexDigits[Int(byte & 0x0F)])
        default: escaped.append(byte)
        }
    }
    escaped.append(UInt8(ascii: "\""))
    return String(decoding: escaped, as: UTF8.self)
}
