import Basics
import FoodModel
import Foundation
import SourceReading
import YAMLConfig

/// A FoodPro site: UCLA's menu grid until 2016, Berkeley's entrées and label pages; the
/// layout says which.
public struct FoodProAdapter: SourceAdapter {
    public struct Settings: SourceSettings, Hashable {
        /// The site's layout and page templates.
        public var pages: FoodProPages
        /// Fetch the item page of every food on the menus (only where the layout's item pages
        /// can be read).
        public var recipePages: Bool

        public init(pages: FoodProPages, recipePages: Bool? = nil) {
            self.pages = pages
            self.recipePages = recipePages ?? pages.hasReadableItemPages
        }
    }

    public init() {}

    public let name = "foodpro"
    public let summary = "a FoodPro site (layout ucla-grid or berkeley): menu pages and label pages"
    public let folder = "FoodPro"
    public let keys: Set<String> = ["dates", "layout", "menu_page", "item_page", "recipe_pages"]
    public var needsDates: Bool { true }
    /// FoodPro prints what a mark means rather than a code; marks are read as the UCLA web codes
    /// they mean (`FoodPro.webCode(forLegend:)`), so that is the legend.
    public var legend: [DietaryCode] { UCLAWebCodes.all }

    public func problem(reading location: Location) -> String? {
        if case .file = location { return "a FoodPro site needs a folder or an http(s) URL, not a file" }
        return nil
    }

    /// `layout` (required) and the optional `menu_page` / `item_page` templates; `recipe_pages:
    /// true` is refused where the layout's item pages cannot be read.
    public func settings(from entry: YAMLMapping, location: Location, folder: URL) throws -> any SourceSettings {
        let layoutNode = try entry.required("layout")
        let layoutName = try layoutNode.string()
        guard let layout = FoodProPages.Layout(rawValue: layoutName) else {
            let known = FoodProPages.Layout.allCases.map(\.rawValue).joined(separator: ", ")
            throw layoutNode.error("unknown FoodPro layout \"\(layoutName)\"; known layouts: \(known)")
        }
        let pages = FoodProPages(layout: layout, menuPage: try entry.optional("menu_page")?.string(),
                                 itemPage: try entry.optional("item_page")?.string())
        let wanted = try entry.optional("recipe_pages")
        if !pages.hasReadableItemPages, let wanted, try wanted.bool() {
            throw wanted.error("the \(layoutName) layout's item pages (recipedetail.asp) have no known format yet: set recipe_pages: false")
        }
        return Settings(pages: pages, recipePages: try wanted?.bool())
    }

    public func harvester(for source: SourceSpec, run: HarvestSetup) throws -> any Harvester {
        let settings = try settings(of: source, as: Settings.self)
        return FoodProHarvester(source: source, pages: settings.pages,
                                readsFoodPages: settings.recipePages && settings.pages.hasReadableItemPages,
                                base: run.base(of: source), days: run.days(of: source) ?? [])
    }

    public var pageFormats: [PageFormat] {
        [
            PageFormat(name: "menu", aliases: ["foodpro"]) { page, _ in
                PageReading(.day(try FoodPro.parseMenuGrid(page.body, url: page.url, charset: page.charset)))
            },
            PageFormat(name: "ucla-grid", aliases: ["foodpro-ucla"]) { page, _ in
                guard let day = try FoodPro.parseUCLAMenuGrid(page.body, url: page.url, charset: page.charset) else {
                    throw Failure.badInput("no menu grid (table.menugridtable) on the page: FoodPro serves no such meal that day",
                                           at: page.url)
                }
                return PageReading(.day(day))
            },
            PageFormat(name: "label", aliases: ["foodpro-label"], hasLabels: true) { page, hints in
                let id = try hints.recipeId(of: page.url, find: Self.recipeNumber(in:))
                return PageReading(.food(try FoodPro.parseLabel(page.body, url: page.url, charset: page.charset, recipeId: id)))
            },
        ]
    }

    /// The number in `RecNumAndPort={id}*{portion}`, or six digits in a file name.
    static func recipeNumber(in url: String) -> String? {
        if let range = url.range(of: #"RecNumAndPort=[0-9A-Za-z]+"#, options: .regularExpression) {
            return String(url[range].dropFirst("RecNumAndPort=".count))
        }
        return sixDigitId(inFileNameOf: url)
    }
}
