import FoodModel
import Testing

/// `foldedKey` folds all-ASCII names byte by byte; the `Character` definition it shortcuts is
/// kept here as the specification and compared on every short string over an alphabet that
/// holds each kind of ASCII byte and a few non-ASCII neighbours.
@Suite struct FoldedKeyTests {
    static func specification(_ name: String) -> String {
        name.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Letters of both cases, the six ASCII whitespace bytes, the four information separators
    /// (U+001C–U+001F: not Unicode whitespace), NUL, DEL, `@` and `[` (beside the capitals),
    /// and a no-break space, a capital with an accent and a combining accent.
    static let alphabet: [String] = [
        "A", "z", "@", "[", " ", "\t", "\n", "\u{0B}", "\u{0C}", "\r", "\u{1C}", "\u{1F}", "\u{00}", "\u{7F}",
        "\u{A0}", "É", "\u{301}",
    ]

    @Test func everyStringOfUpToFourCharactersFoldsAsSpecified() {
        var strings = [""]
        var checked = 0
        for _ in 1...4 {
            strings = strings.flatMap { prefix in Self.alphabet.map { prefix + $0 } }
            for name in strings {
                #expect(foldedKey(name) == Self.specification(name), "\(name.debugDescription)")
                checked += 1
            }
        }
        #expect(checked == 17 + 17 * 17 + 17 * 17 * 17 + 17 * 17 * 17 * 17)
    }

    @Test func foldsCaseAndWhitespaceRuns() {
        #expect(foldedKey("  Olive \t Oil\r\n") == "olive oil")
        #expect(foldedKey("Crème  Fraîche") == "crème fraîche")
        #expect(foldedKey("") == "")
    }
}
