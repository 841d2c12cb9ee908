import Foundation

/// Changes a saved menu page the way a site's menu changes overnight, for tests that run a
/// pipeline again over the edited copy.
public enum MenuPageEdits {
    /// Removes the page's last menu item (`<li class="menu-item">…</li>`).
    public static func removeLastItem(of page: URL) throws {
        let text = try String(contentsOf: page, encoding: .utf8)
        guard let start = text.range(of: "<li class=\"menu-item\">", options: .backwards),
              let end = text.range(of: "</li>", range: start.upperBound..<text.endIndex)
        else { throw EditFailed(page: page) }
        try Data(text.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "").utf8).write(to: page)
    }

    public struct EditFailed: Error, CustomStringConvertible {
        public var page: URL
        public var description: String { "no menu item left on \(page.path)" }
    }
}
