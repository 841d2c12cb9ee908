import FoodModel
import Foundation
import SourceReading
import YAMLConfig

/// UCLA's menu site as it was from 2017 to 2023 (`menu.dining.ucla.edu`): a day's overview
/// page, a recipe page per item, and the hours page.
public struct UCLAMenuSiteAdapter: SourceAdapter {
    public struct Settings: SourceSettings, Hashable {
        /// Fetch the recipe page of every item on the menus.
        public var recipePages: Bool
        /// Fetch the hours page.
        public var hours: Bool

        public init(recipePages: Bool = true, hours: Bool = true) {
            self.recipePages = recipePages
            self.hours = hours
        }
    }

    public init() {}

    public let name = "ucla-menu-site"
    public let summary = "UCLA's menu site (2017–2023): day overviews, recipe pages, hours"
    public let folder = "UCLAMenuSite"
    public let keys: Set<String> = ["recipe_pages", "hours"]
    public var needsDates: Bool { true }
    public var legend: [DietaryCode] { UCLAWebCodes.all }

    public func problem(reading location: Location) -> String? {
        if case .file = location { return "the menu site needs a folder or an http(s) URL, not a file" }
        return nil
    }

    public func settings(from entry: YAMLMapping, location: Location, folder: URL) throws -> any SourceSettings {
        Settings(recipePages: try entry.optional("recipe_pages")?.bool() ?? true,
                 hours: try entry.optional("hours")?.bool() ?? true)
    }

    public func harvester(for source: SourceSpec, run: HarvestSetup) throws -> any Harvester {
        MenuSiteHarvester(source: source, settings: try settings(of: source, as: Settings.self),
                          base: run.base(of: source), days: run.days(of: source) ?? [])
    }

    public var pageFormats: [PageFormat] {
        [
            PageFormat(name: "overview", aliases: ["ucla-menu"]) { page, _ in
                PageReading(.day(try UCLAMenuSite.parseOverview(page.body, url: page.url, charset: page.charset)))
            },
            PageFormat(name: "detailed", aliases: ["ucla-detailed"]) { page, _ in
                PageReading(.sections(try UCLAMenuSite.parseDetailedMenu(page.body, url: page.url, charset: page.charset)))
            },
            PageFormat(name: "recipe", aliases: ["ucla-recipe"], hasLabels: true) { page, hints in
                let id = try hints.recipeId(of: page.url, find: Self.recipeId(in:))
                return PageReading(.food(try UCLAMenuSite.parseRecipe(page.body, url: page.url, charset: page.charset,
                                                                      recipeId: id)))
            },
            PageFormat(name: "hours", aliases: ["ucla-hours"]) { page, hints in
                PageReading(.hours(try UCLAMenuSite.parseHours(page.body, url: page.url, charset: page.charset,
                                                               referenceDate: hints.date ?? hints.today)))
            },
        ]
    }

    /// The id in `/Recipes/{id}/{portion}`, or six digits in a file name (`recipe-400317.html`).
    static func recipeId(in url: String) -> String? {
        if let range = url.range(of: #"/Recipes/[0-9A-Za-z]+"#, options: .regularExpression) {
            return String(url[range].dropFirst("/Recipes/".count))
        }
        return sixDigitId(inFileNameOf: url)
    }
}

/// Six digits in the last path component: how saved recipe and label pages are named.
func sixDigitId(inFileNameOf url: String) -> String? {
    let name = URL(fileURLWithPath: url).lastPathComponent
    return name.range(of: #"\d{6}"#, options: .regularExpression).map { String(name[$0]) }
}
