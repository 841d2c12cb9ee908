/// A cursor over the fixed wording of a printed label ("INGREDIENTS:", "ALLERGENS*:",
/// "Serving Size:").
///
/// These labels used to be matched with regex literals, which Swift rebuilds from their source
/// on every evaluation; run once per `<p>` of every recipe page that cost more than the parse
/// itself. Words are compared in ASCII, any case, because the labels are printed in ASCII; what
/// counts as whitespace is `Character.isWhitespace`, as it was for the regexes' `\s`.
public struct LabelScanner {
    private(set) var rest: Substring

    init(_ text: String) {
        rest = text[...]
    }

    /// Consumes `word` (upper-case ASCII letters) in any case; false, consuming nothing, when
    /// the text does not start with it.
    mutating func skip(word: String) -> Bool {
        var remaining = rest
        for expected in word.utf8 {
            // Clearing bit 5 upper-cases an ASCII letter and maps no other character onto one.
            guard let ascii = remaining.first?.asciiValue, ascii & 0xDF == expected else { return false }
            remaining = remaining.dropFirst()
        }
        rest = remaining
        return true
    }

    /// Consumes `character` when it comes next.
    mutating func skip(_ character: Character) -> Bool {
        guard rest.first == character else { return false }
        rest = rest.dropFirst()
        return true
    }

    /// Consumes a run of whitespace; false when there was none.
    @discardableResult
    mutating func skipWhitespace() -> Bool {
        let trimmed = rest.drop(while: \.isWhitespace)
        defer { rest = trimmed }
        return trimmed.startIndex != rest.startIndex
    }

    /// The list after "LABEL:" (or "LABEL*:" when `asterisk`), or nil when `line` does not
    /// start with that label.
    public static func list(after label: String, asterisk: Bool = false, in line: String) -> Substring? {
        var scanner = LabelScanner(line)
        guard scanner.skip(word: label) else { return nil }
        scanner.skipWhitespace()
        if asterisk, scanner.skip("*") { scanner.skipWhitespace() }
        guard scanner.skip(":") else { return nil }
        scanner.skipWhitespace()
        return scanner.rest
    }

    /// "Serving Size: 1 each" → "1 each"; text without the label is kept whole.
    public static func withoutServingSizeLabel(_ text: String) -> Substring {
        var scanner = LabelScanner(text)
        guard scanner.skip(word: "SERVING"), scanner.skipWhitespace(), scanner.skip(word: "SIZE") else {
            return text[...]
        }
        scanner.skipWhitespace()
        _ = scanner.skip(":")
        scanner.skipWhitespace()
        return scanner.rest
    }
}
