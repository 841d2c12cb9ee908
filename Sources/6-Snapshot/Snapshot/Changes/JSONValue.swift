import Basics
import Foundation

/// JSON read with SQLite's types kept exactly: a number written with a fraction or an exponent is
/// a real, parsed by Swift's own `Double(_:)`, which is correctly rounded; any other number is an
/// integer. Foundation's JSONSerialization reads some 17-digit reals one unit in the last place
/// off (122.46993990000001 came back as 122.46993989999999), and a client that composes change
/// sets must end with the very rows of the new snapshot, so change files are read here.
enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case string(String)
    case array([JSONValue])
    /// Members in the order written.
    case object([String: JSONValue], order: [String])

    /// Refuses what is not one JSON value, or nests deeper than `JSONNesting.limit` (the reader
    /// recurses once per level, and a file nested 20,000 deep ran it out of stack), naming
    /// `place` and the byte offset.
    static func parse(_ data: Data, place: String) throws -> JSONValue {
        var reader = JSONReader(bytes: [UInt8](data), place: place)
        let value = try reader.value()
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw reader.refuse("text after the JSON value") }
        return value
    }
}

private struct JSONReader {
    let bytes: [UInt8]
    let place: String
    var index = 0
    /// Arrays and objects open around the value being read.
    var depth = 0

    func refuse(_ what: String) -> Failure {
        Failure(.damagedBytes, "not JSON: \(what) at byte \(index)", at: place)
    }

    mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value() throws -> JSONValue {
        skipSpace()
        guard index < bytes.count else { throw refuse("the end of the text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try word("true", .bool(true))
        case UInt8(ascii: "f"): return try word("false", .bool(false))
        case UInt8(ascii: "n"): return try word("null", .null)
        default: return try number()
        }
    }

    private mutating func word(_ text: String, _ value: JSONValue) throws -> JSONValue {
        let expected = Array(text.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<(index + expected.count)]) == expected else {
            throw refuse("an unexpected character")
        }
        index += expected.count
        return value
    }

    /// Steps into an array or object, refusing one deeper than `JSONNesting.limit`.
    private mutating func enter() throws {
        guard depth < JSONNesting.limit else {
            throw refuse("arrays and objects nested deeper than \(JSONNesting.limit)")
        }
        depth += 1
        index += 1
    }

    private mutating func object() throws -> JSONValue {
        try enter()
        defer { depth -= 1 }
        var members: [String: JSONValue] = [:]
        var order: [String] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members, order: order)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw refuse("a member without a name") }
            let name = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw refuse("a member without ':'") }
            index += 1
            if members.updateValue(try value(), forKey: name) == nil { order.append(name) }
            if try endOf(UInt8(ascii: "}")) { return .object(members, order: order) }
        }
    }

    private mutating func array() throws -> JSONValue {
        try enter()
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try value())
            if try endOf(UInt8(ascii: "]")) { return .array(elements) }
        }
    }

    /// After a member or an element: true at the closing bracket, false after a comma.
    private mutating func endOf(_ closing: UInt8) throws -> Bool {
        skipSpace()
        guard index < bytes.count else { throw refuse("the end of the text") }
        let byte = bytes[index]
        index += 1
        if byte == closing { return true }
        guard byte == UInt8(ascii: ",") else { throw refuse("a missing ','") }
        return false
    }

    private mutating func number() throws -> JSONValue {
        let start = index
        var isReal = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                isReal = true
            } else if !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), byte != UInt8(ascii: "-"), byte != UInt8(ascii: "+") {
                break
            }
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if !isReal, let integer = Int64(text) { return .integer(integer) }
        guard !text.isEmpty, let real = Double(text), real.isFinite else { throw refuse("a bad number '\(text)'") }
        return .real(real)
    }

    private mutating func string() throws -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run = index
        func flush(_ end: Int) { scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars) }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flush(index)
                index += 1
                return String(scalars)
            }
            guard byte == UInt8(ascii: "\\") else {
                guard byte >= 0x20 else { throw refuse("a control character in a string") }
                index += 1
                continue
            }
            flush(index)
            index += 1
            scalars.append(try escaped())
            run = index
        }
        throw refuse("a string without its closing quote")
    }

    private mutating func escaped() throws -> Unicode.Scalar {
        guard index < bytes.count else { throw refuse("the end of the text") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hex()
            guard (0xD800...0xDBFF).contains(unit) else {
                guard let scalar = Unicode.Scalar(unit) else { throw refuse("a lone surrogate") }
                return scalar
            }
            guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw refuse("a lone surrogate")
            }
            index += 2
            let low = try hex()
            guard (0xDC00...0xDFFF).contains(low),
                  let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) else {
                throw refuse("a lone surrogate")
            }
            return scalar
        default: throw refuse("a bad escape")
        }
    }

    private mutating func hex() throws -> UInt32 {
        guard bytes.count - index >= 4, let unit = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16) else {
            throw refuse("a bad \\u escape")
        }
        index += 4
        return unit
    }
}
