import FoodModel
import Foundation
import SourceReading

/// Which FoodPro site a `foodpro` source reads and where its pages are, relative to the
/// source's location.
///
/// FoodPro is installed per campus, and installs differ in page names and layout: UCLA's
/// served one grid page per meal (`default.asp?date=6%2F20%2F2016&meal=1`), Berkeley's one
/// page of the day's entrées (`todaysentrees.asp`) with a label page per item. The layout picks
/// the parser; the page templates default to the layout's and may be overridden, so that a
/// saved copy of a site (`todaysentrees.html`, `label-153002.html`) reads like the site.
public struct FoodProPages: Hashable, Sendable {
    public enum Layout: String, Hashable, Sendable, CaseIterable {
        /// UCLA's `table.menugridtable`, one page per meal (`FoodPro.parseUCLAMenuGrid`).
        case uclaGrid = "ucla-grid"
        /// Berkeley's entrées page, every meal on one page (`FoodPro.parseMenuGrid`), with
        /// `label.asp` nutrition labels (`FoodPro.parseLabel`).
        case berkeley
    }

    public var layout: Layout
    /// The menu page: `{date}` is FoodPro's `M%2FD%2FYYYY`, `{meal}` the meal number. Without
    /// `{meal}` the page holds the whole day; without `{date}` it is the site's page of today.
    public var menuPage: String
    /// The item page: `{recipe}` and `{portion}` as the menu's item link gives them, `{date}`.
    public var itemPage: String

    /// FoodPro's meal numbers on UCLA's site: 1 Breakfast, 2 Lunch or Brunch, 3 Dinner.
    public static let mealNumbers = [1, 2, 3]

    public init(layout: Layout, menuPage: String? = nil, itemPage: String? = nil) {
        self.layout = layout
        switch layout {
        case .uclaGrid:
            self.menuPage = menuPage ?? "default.asp?date={date}&meal={meal}"
            self.itemPage = itemPage ?? "recipedetail.asp?RecipeNumber={recipe}&PortionSize={portion}"
        case .berkeley:
            self.menuPage = menuPage ?? "todaysentrees.asp"
            self.itemPage = itemPage ?? "label.asp?RecNumAndPort={recipe}*{portion}"
        }
    }

    /// Whether this layout has an item page Commissary can read. UCLA's `recipedetail.asp` was
    /// never saved anywhere this project could read one, so its layout is unknown and guessing
    /// it would put wrong nutrients in snapshots.
    public var hasReadableItemPages: Bool { layout == .berkeley }

    /// The menu pages of one day, with their meal numbers (nil: the page holds every meal).
    func menuPaths(for date: ServiceDate) -> [(meal: Int?, path: String)] {
        let dated = menuPage.replacingOccurrences(of: "{date}", with: Self.foodProDate(date))
        guard dated.contains("{meal}") else { return [(nil, dated)] }
        return Self.mealNumbers.map { ($0, dated.replacingOccurrences(of: "{meal}", with: String($0))) }
    }

    func itemPath(for item: MenuItem, on date: ServiceDate) -> String {
        itemPage
            .replacingOccurrences(of: "{recipe}", with: LinkedId.pathSegment(item.recipeId))
            .replacingOccurrences(of: "{portion}", with: LinkedId.pathSegment(item.portion ?? "1"))
            .replacingOccurrences(of: "{date}", with: Self.foodProDate(date))
    }

    /// `6%2F20%2F2016`: month and day without leading zeros, slashes escaped, as FoodPro's own
    /// links write them.
    static func foodProDate(_ date: ServiceDate) -> String {
        "\(date.month)%2F\(date.day)%2F\(date.year)"
    }
}
