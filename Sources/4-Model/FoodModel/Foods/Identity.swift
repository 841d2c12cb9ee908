/// The stable identity of a food: the source that publishes it and that source's recipe id.
///
/// The same dish served in five halls on ten days is one food with fifty menu items, so the
/// identity must not involve the hall, the day or the display name (which sites edit freely).
/// Recipe ids are kept as text: UCLA's have significant leading zeros (`061005`).
public struct FoodID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let source: String
    public let recipeId: String

    public init(source: String, recipeId: String) {
        self.source = source
        self.recipeId = recipeId
    }

    /// `source:recipeId`, the key used in snapshots and logs.
    public var description: String { "\(source):\(recipeId)" }

    /// The identity a snapshot's key names: the source is up to the first colon (source names
    /// have none; recipe ids may). Nil for a key without one.
    public init?(parsing key: String) {
        guard let colon = key.firstIndex(of: ":"), colon != key.startIndex else { return nil }
        self.init(source: String(key[..<colon]), recipeId: String(key[key.index(after: colon)...]))
    }

    public static func < (lhs: FoodID, rhs: FoodID) -> Bool {
        (lhs.source, lhs.recipeId) < (rhs.source, rhs.recipeId)
    }
}

/// The stable identity of a catalogue recipe (TheMealDB's `idMeal`, with its source).
public struct RecipeID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let source: String
    public let id: String

    public init(source: String, id: String) {
        self.source = source
        self.id = id
    }

    public var description: String { "\(source):\(id)" }

    public static func < (lhs: RecipeID, rhs: RecipeID) -> Bool {
        (lhs.source, lhs.id) < (rhs.source, rhs.id)
    }
}

/// Folds a display name into a comparison key: case-insensitive, with runs of whitespace
/// collapsed, so that "Olive Oil", "olive oil" and " olive  oil " are one ingredient while the
/// original spelling is kept beside the key.
public func foldedKey(_ name: String) -> String {
    if let ascii = foldedASCIIKey(name) { return ascii }
    return name.lowercased()
        .split(whereSeparator: { $0.isWhitespace })
        .joined(separator: " ")
}

/// `foldedKey` of an all-ASCII name (nearly every name), byte by byte: the same result, without
/// breaking the name into `Character`s. In ASCII, the whitespace characters are tab, line feed,
/// vertical tab, form feed, carriage return and space. Nil when the name is not all ASCII.
private func foldedASCIIKey(_ name: String) -> String? {
    var folded: [UInt8] = []
    folded.reserveCapacity(name.utf8.count)
    var pendingSpace = false
    for byte in name.utf8 {
        guard byte < 0x80 else { return nil }
        if byte == 0x20 || (0x09...0x0D).contains(byte) {
            pendingSpace = !folded.isEmpty
        } else {
            if pendingSpace { folded.append(0x20) }
            pendingSpace = false
            folded.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
        }
    }
    return String(decoding: folded, as: UTF8.self)
}
