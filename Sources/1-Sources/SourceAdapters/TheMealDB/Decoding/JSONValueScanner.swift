/// Finds where one JSON value ends when its bytes arrive in pieces: the scanner keeps what it
/// knows between calls (nesting depth, inside a string, after a backslash), so a meal spread
/// over many chunks is scanned once, each call going on where the last one stopped rather than
/// from the meal's start. Like `JSONArrayElements`, it only follows strings and nesting;
/// whether the value is valid JSON is for the decoder that reads it afterwards.
struct JSONValueScanner {
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var inLiteral = false

    /// Scans `bytes` from `start`: the value's first byte on the first call (which the caller
    /// has checked with `JSONBytes.startsValue`), the next chunk's first byte on later calls.
    /// Returns the index just past the value's last byte, or nil when the value goes on past
    /// `bytes`. A literal (number, `true`, `null`) ends before the first byte that cannot be
    /// part of it, which is left to the caller.
    mutating func scan(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inString {
                if escaped {
                    escaped = false
                } else if byte == JSONBytes.backslash {
                    escaped = true
                } else if byte == JSONBytes.quote {
                    inString = false
                    if depth == 0 { return index }
                } else {
                    // Most of a meal is string content: skip to the next quote or backslash.
                    while index < bytes.count, bytes[index] != JSONBytes.quote, bytes[index] != JSONBytes.backslash {
                        index += 1
                    }
                }
            } else if inLiteral {
                if JSONBytes.endsLiteral(byte) { return index - 1 }
            } else {
                switch byte {
                case JSONBytes.quote:
                    inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index }
                default:
                    if depth == 0 { inLiteral = true }
                }
            }
        }
        return nil
    }
}

/// The bytes that shape a JSON document.
enum JSONBytes {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Whether a value can start with this byte, as far as the scanner is concerned: anything
    /// but whitespace and punctuation, so that a misspelt literal is left to the decoder, which
    /// says what is wrong with it.
    static func startsValue(_ byte: UInt8) -> Bool {
        !endsLiteral(byte)
    }

    /// Where a literal stops.
    static func endsLiteral(_ byte: UInt8) -> Bool {
        isWhitespace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ":")
            || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
    }
}
