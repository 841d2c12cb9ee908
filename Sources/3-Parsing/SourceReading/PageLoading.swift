import FoodModel
import Foundation
import HTML

/// Parses a fetched page and runs an adapter on it; a page that cannot be parsed or queried is
/// a bad input naming the URL.
public func withPage<Result>(_ data: Data, url: String, charset: String?,
                             _ body: (HTMLDocument) throws -> Result) throws -> Result {
    try body(try HTMLDocument(parsing: data, location: url, charset: charset))
}

/// `//tag[contains(class)]` and `.//tag[...]`, spelled once.
public func anywhere(_ tag: String, class name: String) -> String {
    "//\(tag)[\(XPathPredicate.hasClass(name))]"
}

public func within(_ tag: String, class name: String) -> String {
    ".//\(tag)[\(XPathPredicate.hasClass(name))]"
}

extension Array where Element: Hashable {
    /// Keeps the first occurrence of each element, in order: codes are printed once per item,
    /// but a page that repeats one must not count it twice.
    @inlinable public func uniquedInOrder() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}

extension String {
    /// nil for an empty string, so that absent optional text is nil rather than "".
    @inlinable public var nonEmpty: String? { isEmpty ? nil : self }
}
