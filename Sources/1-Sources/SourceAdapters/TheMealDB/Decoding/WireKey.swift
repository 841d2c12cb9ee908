/// A coding key made at run time: TheMealDB numbers its ingredient slots in key names
/// (`strIngredient1` ... `strIngredient20`) rather than using an array, and renamed
/// `strDrinkAlternate` to `strMealAlternate` between payload versions.
struct WireKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where Key == WireKey {
    /// A text field, or nil when it is missing, `null`, `""` or only whitespace: the API uses all
    /// four for "no value" (an empty slot is `null` in one meal and `" "` in the next).
    /// A number is read as its text, since ids are numeric strings that re-serialised dumps
    /// sometimes write as numbers; any other type is an error naming the field.
    func text(_ name: String) throws -> String? {
        let key = WireKey(name)
        // Text first, in one lookup (missing and `null` both give nil), since nearly every field
        // is text; a number is tried only after the text read failed on the type, and the last
        // `decode` is reached only by other types, and throws the error naming the field.
        let value: String
        do {
            guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
            value = text
        } catch DecodingError.typeMismatch {
            if let number = try? decode(Int.self, forKey: key) {
                value = String(number)
            } else {
                value = try decode(String.self, forKey: key)
            }
        }
        let trimmed = value.trimmingWhitespaceAndNewlines
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A text field the record cannot do without.
    func requiredText(_ name: String) throws -> String {
        guard let value = try text(name) else {
            throw DecodingError.keyNotFound(WireKey(name), DecodingError.Context(
                codingPath: codingPath, debugDescription: "\(name) is missing or blank"))
        }
        return value
    }
}
