import FoodModel
import Fetching
import Foundation
import MealDB

/// A TheMealDB dump file (and optionally a categories file): one partition, `catalogue`.
struct MealDBDumpHarvester: Harvester {
    let source: SourceSpec
    let dump: URL
    let categories: URL?

    static let partition = "catalogue"

    var partitions: [String] { [Self.partition] }

    func harvest(partition: String, from documents: DocumentLog, run: RunContext) async throws
        -> PartitionResult {
        let page = try await documents.fetch(Self.url(of: dump))
        var dataset = Dataset()
        let recipes = try MealDB.decodeMeals(page.body, location: dump.path)
        dataset.recipes.reserveCapacity(recipes.count)
        for recipe in recipes {
            dataset.recipes[recipe.id] = recipe
        }
        if let categoriesFile = categories {
            let categories = try await documents.fetch(Self.url(of: categoriesFile))
            for category in try MealDB.decodeCategories(categories.body, location: categoriesFile.path) {
                dataset.categories[category.name] = category
            }
        }
        return PartitionResult(dataset: dataset, warnings: [])
    }

    /// Local files are addressed as `file://` URLs so that provenance names the real path.
    static func url(of file: URL) -> String {
        "file://" + file.path
    }
}
