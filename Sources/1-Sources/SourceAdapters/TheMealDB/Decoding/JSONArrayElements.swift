import Foundation

/// Finds where each element of a dump's meal list starts and ends, without decoding any of
/// them: either the whole document is an array, or it is an object whose `key` holds one. A
/// 100,000-meal dump is one document, and knowing its elements' bounds lets it be decoded in
/// pieces, side by side. Anything this scanner does not expect gives nil, and the caller
/// decodes the whole document as usual, which reports the problem precisely.
struct JSONArrayElements {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    static func ranges(in data: Data, key: String) -> [Range<Int>]? {
        data.withUnsafeBytes { buffer in
            var scanner = JSONArrayElements(bytes: buffer)
            return scanner.elementsOfList(key: Array(key.utf8))
        }
    }

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    private mutating func elementsOfList(key: [UInt8]) -> [Range<Int>]? {
        skipWhitespace()
        guard let first = peek() else { return nil }
        if first == UInt8(ascii: "[") { return elements() }
        guard first == UInt8(ascii: "{") else { return nil }
        position += 1
        while true {
            skipWhitespace()
            guard let name = string() else { return nil }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { return nil }
            position += 1
            skipWhitespace()
            if Array(bytes[name]) == key {
                return peek() == UInt8(ascii: "[") ? elements() : nil
            }
            guard value() != nil else { return nil }
            skipWhitespace()
            guard peek() == UInt8(ascii: ",") else { return nil }
            position += 1
        }
    }

    /// The elements of the array that starts here, each without the whitespace around it.
    private mutating func elements() -> [Range<Int>]? {
        position += 1
        var found: [Range<Int>] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { return found }
        while true {
            skipWhitespace()
            guard let element = value() else { return nil }
            found.append(element)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): return found
            default: return nil
            }
        }
    }

    /// Skips one value of any kind and returns its bytes' range.
    private mutating func value() -> Range<Int>? {
        let start = position
        guard let first = peek() else { return nil }
        switch first {
        case UInt8(ascii: "\""):
            return string().map { _ in start..<position }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while let byte = peek() {
                switch byte {
                case UInt8(ascii: "\""):
                    guard string() != nil else { return nil }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        position += 1
                        return start..<position
                    }
                default:
                    break
                }
                position += 1
            }
            return nil
        default:
            while let byte = peek(), !Self.ends(byte) { position += 1 }
            return position > start ? start..<position : nil
        }
    }

    /// A string starting here; returns the range of its content, between the quotes.
    private mutating func string() -> Range<Int>? {
        guard peek() == UInt8(ascii: "\"") else { return nil }
        position += 1
        let start = position
        while let byte = peek() {
            if byte == UInt8(ascii: "\\") {
                position += 2
                continue
            }
            if byte == UInt8(ascii: "\"") {
                position += 1
                return start..<(position - 1)
            }
            position += 1
        }
        return nil
    }

    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    /// Where a literal (number, `true`, `null`) stops.
    private static func ends(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
            || byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
