import Basics
import FoodModel

/// Adapters for menu.dining.ucla.edu (the 2017–2023 layout): the day overview, a hall's
/// detailed menu, an item's recipe page, and the hours page.
///
/// Every adapter selects by element and class, never by position, because the pipeline runs
/// them on pages nobody has seen yet; a page whose structure no longer matches gives an
/// `Failure` naming its URL instead of an empty or wrong day.
public enum UCLAMenuSite {
    public static let sourceName = "ucla-menu"

    /// `/Menus/2026-10-12`: the overview of every residential restaurant for one day.
    public static func overviewPath(for date: ServiceDate) -> String {
        "/Menus/\(date)"
    }

    /// `/Recipes/061005/1`. The id keeps its leading zeros; the portion may itself hold a slash
    /// (`1/2` on older pages), which is kept as two path segments as the site prints it.
    public static func recipePath(recipeId: String, portion: String?) -> String {
        guard let portion, !portion.isEmpty else { return "/Recipes/\(recipeId)" }
        return "/Recipes/\(recipeId)/\(portion)"
    }

    public static let hoursPath = "/Hours"
}
