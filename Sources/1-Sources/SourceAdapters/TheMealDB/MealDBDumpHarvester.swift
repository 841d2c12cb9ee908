import Fetching
import FoodModel
import Foundation

/// A TheMealDB dump file (and optionally a categories file): one partition, `catalogue`.
struct MealDBDumpHarvester: Harvester {
    let source: SourceSpec
    let dump: URL
    let categories: URL?

    static let partition = "catalogue"

    var partitions: [String] { [Self.partition] }

    /// The dump is one partition, decoded as it is read, in batches on every core, and set aside
    /// in a spool: caching it would copy what the raw store already keeps.
    var cachesPartitions: Bool { false }

    /// The dump is never held: its pieces pass from the file (or the raw store) through the
    /// decoder to a spool on disk, so a million meals take the memory of a few thousand. Ids read
    /// more than once are reported when the spool is written (`RecipeIntake`).
    func harvest(partition: String, from documents: any DocumentReader, run: RunContext) async throws
        -> PartitionResult {
        let spool = try RecipeSpool.Writer(file: await run.scratchFile("recipes"), origin: dump.path)
        var reader = MealDumpReader(location: dump.path)
        _ = try await documents.stream(Self.url(of: dump)) { piece in
            try spool.append(try reader.read(piece))
        }
        try spool.append(try reader.finish())
        var dataset = Dataset(recipeSpools: [try spool.finish()])
        if let categoriesFile = categories {
            let categories = try await documents.fetch(Self.url(of: categoriesFile))
            for category in try MealDB.decodeCategories(categories.body, location: categoriesFile.path) {
                dataset.categories[category.name] = category
            }
        }
        return PartitionResult(dataset: dataset)
    }

    /// Local files are addressed as `file://` URLs so that provenance names the real path.
    static func url(of file: URL) -> String {
        "file://" + file.path
    }
}
