extension String {
    /// Collapses every run of whitespace (including the no-break spaces that menu sites put
    /// between amount and unit, "1&nbsp;each") into one space and trims both ends, so that the
    /// indentation of the markup never leaks into values.
    public var whitespaceNormalized: String {
        split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
