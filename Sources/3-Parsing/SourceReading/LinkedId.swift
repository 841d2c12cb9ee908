import Foundation

/// An id a document gives that becomes part of the address of another request (a food's
/// document, a location's menu). It is a server's data: made into a path unchecked, `../../x`
/// asks for a file outside the source's folder, `1?x=1#y` for another food's document
/// (`recipes/1`, whose label the food would then carry), and a line break splits the request.
/// So an id is checked against what the source's ids look like before it is used, and written
/// into the address as one path segment, percent-encoded; one that fails is reported with its
/// row and left out, never requested and never published as the id of a food.
public struct LinkedId: Sendable, Hashable {
    /// What the source's ids look like, for the report line (`a whole number`).
    public var shape: String
    private let characters: Set<Character>
    private let lengths: ClosedRange<Int>

    private init(shape: String, characters: String, lengths: ClosedRange<Int>) {
        self.shape = shape
        self.characters = Set(characters)
        self.lengths = lengths
    }

    /// Whole numbers: UCLA's feed numbers its recipes and ingredients.
    public static let wholeNumber = LinkedId(shape: "a whole number", characters: "0123456789", lengths: 1...18)
    /// Letters and digits: DineOnCampus's locations and periods are MongoDB ids
    /// (`5d23f9374198d409c3061864`).
    public static let lettersAndDigits = LinkedId(
        shape: "letters and digits",
        characters: "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", lengths: 1...64)

    public func accepts(_ id: String) -> Bool {
        lengths.contains(id.count) && id.allSatisfy(characters.contains)
    }

    /// Why `id` is left out, naming the field it came from; the id is quoted with its control
    /// characters escaped, so the line stays one line.
    public func refusal(of id: String, field: String) -> String {
        "\(field) \(Self.quoted(id)) is not one of the source's ids (\(shape)): left out, never requested"
    }

    static func quoted(_ id: String) -> String {
        let shown = id.count > 80 ? String(id.prefix(80)) + "…" : id
        return String(reflecting: shown)
    }

    /// `id` as one path segment: everything but RFC 3986's unreserved characters
    /// percent-encoded, `/`, `?`, `#` and `%` included, and the dots of `.` and `..` too, which
    /// would otherwise climb.
    public static func pathSegment(_ id: String) -> String {
        guard !id.allSatisfy({ $0 == "." }) else { return String(repeating: "%2E", count: id.count) }
        return id.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
