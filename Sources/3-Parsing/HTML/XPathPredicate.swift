/// XPath 1.0 snippets for selecting by structure and class.
public enum XPathPredicate {
    /// True for an element whose `class` attribute lists `name` among its classes: exact
    /// token match, so `menu-item` does not match `menu-item-wrapper` and extra classes
    /// (`menu-block third-col`) do not get in the way.
    public static func hasClass(_ name: String) -> String {
        "contains(concat(' ', normalize-space(@class), ' '), ' \(name) ')"
    }
}
