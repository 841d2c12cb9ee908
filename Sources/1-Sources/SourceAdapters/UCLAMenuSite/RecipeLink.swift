/// The recipe id and portion in a link to `.../Recipes/{id}/{portion}`.
struct RecipeLink: Hashable {
    var recipeId: String
    var portion: String?

    /// Reads any absolute or relative href; nil when it does not point at a recipe page (the
    /// nav's "Menu Filter" link shares the `recipelink` class). Everything after the id is the
    /// portion, so `1/2` survives as written. A link with a dot segment (`/Recipes/../../etc/x`,
    /// also percent-encoded) is not a recipe page: the id names a food and the path is fetched,
    /// so neither may climb out of `/Recipes/`.
    ///
    /// Every menu item's links pass through here, so it reads UTF-8 bytes rather than going
    /// through Foundation's case-insensitive search.
    ///
    /// Tabs and line breaks inside an href are dropped, as browsers' URL parsing drops them, so
    /// a link wrapped over two lines names the same recipe and no id spans lines; any other
    /// control character means the link is not a recipe page.
    init?(href: String) {
        let bytes = href.utf8.filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return nil }
        guard let start = Self.end(of: Self.marker, in: bytes) else { return nil }
        let path = bytes[start...].prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        let segments = path.split(separator: UInt8(ascii: "/"))
        guard let id = segments.first, !segments.contains(where: Self.isDotSegment) else { return nil }
        recipeId = String(decoding: id, as: UTF8.self)
        portion = segments.count > 1
            ? segments.dropFirst().map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/") : nil
    }

    private static let marker = Array("/recipes/".utf8)

    /// The index just after the first occurrence of `marker` (lower-case ASCII) in `bytes`,
    /// compared without regard to ASCII case.
    private static func end(of marker: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= marker.count else { return nil }
        for start in 0...(bytes.count - marker.count)
        where zip(bytes[start...], marker).allSatisfy({ lowercased($0) == $1 }) {
            return start + marker.count
        }
        return nil
    }

    /// `.` or `..`, each dot possibly written `%2e` or `%2E`.
    private static func isDotSegment(_ segment: ArraySlice<UInt8>) -> Bool {
        var dots = 0
        var index = segment.startIndex
        while index < segment.endIndex {
            if segment[index] == UInt8(ascii: ".") {
                index += 1
            } else if segment.endIndex - index >= 3, segment[index] == UInt8(ascii: "%"),
                      segment[index + 1] == UInt8(ascii: "2"), lowercased(segment[index + 2]) == UInt8(ascii: "e") {
                index += 3
            } else {
                return false
            }
            dots += 1
        }
        return dots == 1 || dots == 2
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
