import FoodModel
import Foundation

/// Writes the menu-site corpus: `Menus/YYYY-MM-DD.html` for `days` consecutive dates from
/// `firstDate`, cycling through the dataset's days, and `Recipes/{id}/1.html` once per food.
///
/// Pages are rendered and written one at a time, so memory stays at the size of the source
/// dataset whatever the number of days. A recipe page depends only on its food, so the ten-year
/// corpus has ten times the overview pages of one year and the same recipe pages: the site's
/// ids are stable, and a dish served again is the same page.
public enum MenuCorpus {
    public struct Summary: Sendable, Codable {
        public var overviewPages: Int
        public var recipePages: Int
        public var bytes: Int
        public var menuItems: Int
    }

    @discardableResult
    public static func write(_ source: SourceMenus, into folder: URL, firstDate: ServiceDate,
                             days: Int) throws -> Summary {
        let menus = folder.appendingPathComponent("Menus")
        try FileManager.default.createDirectory(at: menus, withIntermediateDirectories: true)
        var summary = Summary(overviewPages: 0, recipePages: 0, bytes: 0, menuItems: 0)
        for index in 0..<days {
            var day = source.day(cycling: index)
            day.date = firstDate.adding(days: index)
            let page = Data(try OverviewPage.render(day, siteId: source.siteId(of:)).utf8)
            try page.write(to: menus.appendingPathComponent("\(day.date).html"))
            summary.overviewPages += 1
            summary.bytes += page.count
            summary.menuItems += day.menuItems.filter { !$0.name.isEmpty }.count
        }
        // The unnamed food is on no page (see `OverviewPage`), so it gets no recipe page either.
        for food in source.foods where !food.name.isEmpty {
            let folder = folder.appendingPathComponent("Recipes/\(try source.siteId(of: food.id.recipeId))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let page = Data(RecipePage.render(food).utf8)
            try page.write(to: folder.appendingPathComponent("1.html"))
            summary.recipePages += 1
            summary.bytes += page.count
        }
        return summary
    }
}
