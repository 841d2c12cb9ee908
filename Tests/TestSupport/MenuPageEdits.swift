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

    /// A NetNutrition label of UIUC's layout with every nutrient row cut out (from the first
    /// bordered row to the disclaimer), as a label whose layout changed would read; nil when the
    /// page has no such rows.
    public static func withoutNutrientRows(_ page: String) -> String? {
        guard let firstRow = page.range(of: "<td class=\"cbo_nn_LabelBorderedSubHeader\""),
              let start = page.range(of: "<tr>", options: .backwards, range: page.startIndex..<firstRow.lowerBound),
              let disclaimer = page.range(of: "<td class=\"cbo_nn_LabelDisclaimer\""),
              let end = page.range(of: "<tr>", options: .backwards, range: page.startIndex..<disclaimer.lowerBound)
        else { return nil }
        return String(page[..<start.lowerBound] + page[end.lowerBound...])
    }

    /// Duke's NetNutrition label (`netnutrition-2025/duke-label-egg-bite.html`) with its Sodium
    /// row ("390mg") made a Vitamin D row printing `amount` ("2.5mg"), as a kitchen that set the
    /// nutrient's unit up wrongly would print it; nil when the page has no such row.
    public static func dukeSodiumAsVitaminD(_ page: String, printing amount: String) -> String? {
        guard let sodium = page.range(of: #"Sodium</span>\s*<span>&nbsp;390mg"#, options: .regularExpression) else { return nil }
        return page.replacingCharacters(in: sodium, with: "Vitamin D</span> <span>&nbsp;\(amount)")
    }

    public struct EditFailed: Error, CustomStringConvertible {
        public var page: URL
        public var description: String { "no menu item left on \(page.path)" }
    }
}
