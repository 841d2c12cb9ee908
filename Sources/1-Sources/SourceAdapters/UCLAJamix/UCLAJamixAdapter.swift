import Basics
import FoodModel
import Foundation
import YAMLConfig

/// UCLA's live menus (2023–): the JSON feed of its kitchen system that dining.ucla.edu publishes
/// under `wp-content/uploads/jamix/` (Sources/1-Sources/SourceAdapters/UCLAJamix/README.md).
public struct UCLAJamixAdapter: SourceAdapter {
    public struct Settings: SourceSettings, Hashable {
        /// Fetch the document of every recipe and ingredient on the menus.
        public var foodDocuments: Bool

        public init(foodDocuments: Bool = true) {
            self.foodDocuments = foodDocuments
        }
    }

    public init() {}

    public let name = "ucla-jamix"
    public let summary = "UCLA's live menu feed (dining.ucla.edu, 2023–): menus per day, recipe and ingredient documents"
    public let folder = "UCLAJamix"
    public let keys: Set<String> = ["food_documents"]
    public var needsDates: Bool { true }
    /// Allergens and diets are mapped onto UCLA's web codes (`JamixCodes`).
    public var legend: [DietaryCode] { JamixCodes.legend }

    public func problem(reading location: Location) -> String? {
        if case .file = location {
            return "the feed needs its root (https://dining.ucla.edu/wp-content/uploads/jamix) or a folder that "
                + "mirrors it (menus/, recipes/, ingredients/), not a file"
        }
        return nil
    }

    public func settings(from entry: YAMLMapping, location: Location, folder: URL) throws -> any SourceSettings {
        Settings(foodDocuments: try entry.optional("food_documents")?.bool() ?? true)
    }

    public func harvester(for source: SourceSpec, run: HarvestSetup) throws -> any Harvester {
        JamixHarvester(source: source, base: run.base(of: source), days: run.days(of: source) ?? [],
                       foodDocuments: try settings(of: source, as: Settings.self).foodDocuments)
    }

    public var pageFormats: [PageFormat] {
        [
            PageFormat(name: "menus") { page, hints in
                guard let date = hints.date else {
                    throw Failure.badInput("cannot tell the service day from the address; give --date", at: page.url)
                }
                let parsed = try JamixMenuDay.parse(page.body, date: date, location: page.url)
                return PageReading(.day(parsed.day), problems: parsed.problems)
            },
            PageFormat(name: "ingredient", hasLabels: true) { page, hints in
                let id = try hints.recipeId(of: page.url) { Self.documentId(in: $0) }
                let reading = try JamixFoodDocument.parse(page.body, foodId: JamixMenuDay.foodId(.ingredient, id),
                                                          location: page.url)
                return PageReading(.food(reading.food), problems: reading.problems)
            },
            PageFormat(name: "recipe", hasLabels: true) { page, hints in
                let id = try hints.recipeId(of: page.url) { Self.documentId(in: $0) }
                let reading = try JamixFoodDocument.parse(page.body, foodId: JamixMenuDay.foodId(.recipe, id),
                                                          location: page.url)
                return PageReading(.food(reading.food), problems: reading.problems)
            },
        ]
    }

    /// The number in `.../recipes/1883.json` or `.../ingredients/7808.json`.
    static func documentId(in url: String) -> String? {
        let name = URL(fileURLWithPath: url).deletingPathExtension().lastPathComponent
        return name.allSatisfy(\.isNumber) && !name.isEmpty ? name : nil
    }
}
