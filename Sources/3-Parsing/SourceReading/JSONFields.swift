import Basics
import FoodModel
import Foundation

/// Reading a platform's JSON by meaning: every JSON adapter finds a value by its field's name,
/// accepts a number written as text and text with stray spaces, and says what it found instead
/// when a value has the wrong type. Platforms drift (fields disappear, become null, change
/// type), and these readers turn that into "absent", never into a guessed value.
public enum JSONFields {
    /// Parses a response that must be a JSON object; anything else (a web page where JSON was
    /// expected, a truncated body, a list) fails with one line naming the document.
    public static func object(_ data: Data, location: String, expecting what: String) throws -> [String: Any] {
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw JSONNesting.failure(data, location: location)
                ?? Failure.badInput("not valid JSON (\(prefixHint(data))): cannot read \(what)", at: location)
        }
        guard let object = json as? [String: Any] else {
            throw Failure.badInput("expected \(what) (a JSON object), found \(kind(of: json))", at: location)
        }
        return object
    }

    /// What a body that is not JSON looks like, for the error line: a web page, nothing, or
    /// something cut short.
    static func prefixHint(_ data: Data) -> String {
        let start = String(decoding: data.prefix(64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if start.isEmpty { return "the body is empty" }
        if start.hasPrefix("<") { return "an HTML or XML page" }
        if start.hasPrefix("{") || start.hasPrefix("[") { return "truncated or malformed" }
        // The body's own characters, a line break among them, would split the error line.
        return "starts with \"\(TerminalText.oneLine(start.prefix(20)))\""
    }

    /// Text, trimmed; nil for anything else and for empty text.
    public static func text(_ value: Any?) -> String? {
        guard let string = value as? String else { return nil }
        let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A finite number, or text that is exactly one; booleans, "nan" and "inf" are not numbers.
    public static func number(_ value: Any?) -> Double? {
        var number: Double?
        if let value = value as? NSNumber, !isBoolean(value) { number = value.doubleValue }
        if let string = value as? String { number = Double(string.trimmingCharacters(in: .whitespaces)) }
        return number.flatMap { $0.isFinite ? $0 : nil }
    }

    /// A whole number that an `Int` holds (1e19, 2.5 and -0.5 are no count): converting any other
    /// would trap.
    public static func count(_ value: Any?) -> Int? {
        number(value).flatMap { Int(exactly: $0) }
    }

    /// An id written as a whole number or as text; 0 and empty mean none.
    public static func identifier(_ value: Any?) -> String? {
        if let number = number(value), number > 0, number == number.rounded(), number < 1e15 {
            return String(Int(number))
        }
        if let string = text(value), string != "0" { return string }
        return nil
    }

    public static func array(_ value: Any?) -> [Any] { value as? [Any] ?? [] }

    public static func bool(_ value: Any?) -> Bool? {
        guard let number = value as? NSNumber, isBoolean(number) else { return nil }
        return number.boolValue
    }

    /// JSON's `true` and `false` come out of `JSONSerialization` as numbers too (and `1 is Bool`
    /// holds for any NSNumber 1); a boolean is the one whose type code is C's `char`.
    public static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    /// `6` for 6.0, `0.5` for 0.5.
    public static func plain(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    /// What a value is, for error lines.
    public static func kind(of value: Any) -> String {
        switch value {
        case is [Any]: "a list"
        case is [String: Any]: "an object"
        case is String: "text"
        case is NSNull: "null"
        case let number as NSNumber: isBoolean(number) ? "a boolean" : "a number"
        default: "something else"
        }
    }
}
