import CLibXML2

/// Character references in text that is not parsed as a page: a JSON answer's names written with
/// HTML's entities ("caf&eacute;", "Jalape&ntilde;o", "&#8211;"). Named ones are read from
/// libxml2's table of HTML 4's entities, numeric ones in decimal or hexadecimal.
public enum HTMLEntities {
    /// `text` with every character reference decoded; one that names no character (`&nosuch;`,
    /// `&#0;`, a code point past Unicode's) is left as written, and so is an `&` alone.
    public static func decoded(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            // The longest HTML 4 entity name is 8 characters; a numeric reference is shorter than 12.
            let window = rest[afterAmpersand...].prefix(12)
            guard let semicolon = window.firstIndex(of: ";"),
                  let scalar = character(named: rest[afterAmpersand..<semicolon]) else {
                result.append("&")
                rest = rest[afterAmpersand...]
                continue
            }
            result.unicodeScalars.append(scalar)
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    /// The character `&name;` stands for, nil when it stands for none.
    private static func character(named name: Substring) -> Unicode.Scalar? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap { $0 == 0 ? nil : Unicode.Scalar($0) }
        }
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
              let entry = String(name).withCString({ htmlEntityLookup(UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self)) })
        else { return nil }
        return Unicode.Scalar(entry.pointee.value)
    }
}
