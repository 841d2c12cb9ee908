import Basics
import FoodModel
import Foundation
import YAMLConfig

/// A TheMealDB dump file (a JSON array of meals or `{"meals": [...]}`), with an optional
/// categories file.
public struct MealDBDumpAdapter: SourceAdapter {
    public struct Settings: SourceSettings, Hashable {
        /// A `categories.php` answer saved as a file, for the descriptions meals do not carry.
        public var categories: URL?

        public init(categories: URL? = nil) {
            self.categories = categories
        }
    }

    public init() {}

    public let name = "mealdb-dump"
    public let summary = "a TheMealDB dump file, with an optional categories file"
    public let folder = "TheMealDB"
    public let keys: Set<String> = ["categories"]

    public func problem(reading location: Location) -> String? {
        if case .file = location { return nil }
        return "a MealDB dump is a file (a JSON array or {\"meals\": [...]})"
    }

    public func settings(from entry: YAMLMapping, location: Location, folder: URL) throws -> any SourceSettings {
        guard let node = try entry.optional("categories") else { return Settings() }
        let categories = try SourceLocation.read(node, folder: folder)
        guard case .file(let file) = categories else {
            throw node.error("the categories are a file (TheMealDB's categories.php answer)")
        }
        return Settings(categories: file)
    }

    public func harvester(for source: SourceSpec, run: HarvestSetup) throws -> any Harvester {
        guard case .file(let dump) = source.location else {
            throw Failure.badInput(problem(reading: source.location) ?? "not a file", at: source.location.description)
        }
        return MealDBDumpHarvester(source: source, dump: dump,
                                   categories: try settings(of: source, as: Settings.self).categories)
    }

    /// The dump's folder and the categories file's.
    public func localFolders(of source: SourceSpec) -> [URL] {
        guard case .file(let dump) = source.location else { return [] }
        let categories = (source.settings as? Settings)?.categories
        return [dump.deletingLastPathComponent()] + (categories.map { [$0.deletingLastPathComponent()] } ?? [])
    }

    public var pageFormats: [PageFormat] {
        [
            PageFormat(name: "meals", aliases: ["mealdb"]) { page, _ in
                PageReading(.recipes(try MealDB.decodeMeals(page.body, location: page.url)))
            },
        ]
    }
}
