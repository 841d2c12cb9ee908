/// Trimming by Unicode scalar in Swift, in place of Foundation's `trimmingCharacters(in:)`,
/// which bridges every field of every meal through `NSString` (about a third of a 100,000
/// recipe run). The two sets below are exactly Foundation's, scalar for scalar, including
/// its one departure from today's Unicode: U+200B ZERO WIDTH SPACE, once a space separator,
/// still counts as a space.
extension Unicode.Scalar {
    /// `CharacterSet.whitespacesAndNewlines`: the Unicode White_Space property, and U+200B.
    var isWhitespaceOrNewline: Bool {
        value < 0x80 ? value == 0x20 || (0x09...0x0D).contains(value) : properties.isWhitespace || value == 0x200B
    }

    /// `CharacterSet.whitespaces`: tab, the space separators (Zs) and U+200B, not line breaks.
    var isSpaceOrTab: Bool {
        value < 0x80 ? value == 0x20 || value == 0x09 : properties.generalCategory == .spaceSeparator || value == 0x200B
    }
}

extension Substring.UnicodeScalarView {
    /// The scalars left when those `isTrimmed` accepts are dropped from both ends.
    func trimmed(where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }),
              let last = lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(self[first...last])
    }
}

extension String {
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, without a copy when there is nothing
    /// to trim (most fields).
    var trimmingWhitespaceAndNewlines: String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last,
              first.isWhitespaceOrNewline || last.isWhitespaceOrNewline
        else { return self }
        return self[...].unicodeScalars.trimmed(where: \.isWhitespaceOrNewline)
    }
}
