import Basics

/// A JSON object written member by member, in the order given, its strings escaped as
/// `JSONEncoder` escapes them (`jsonStringLiteral`).
struct JSONLine {
    private var members: [String] = []

    /// Adds `"name":value`, `value` already JSON; a nil value adds nothing, as an absent optional.
    mutating func member(_ name: String, _ value: String?) {
        guard let value else { return }
        members.append(jsonStringLiteral(name) + ":" + value)
    }

    var object: String { "{" + members.joined(separator: ",") + "}" }
}
