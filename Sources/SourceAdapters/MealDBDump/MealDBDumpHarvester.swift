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

    /// The dump is one partition, parsed on every core at once: decoding a copy of its values
    /// would cost more than parsing it, and writing that copy would hold it twice in memory.
    var cachesPartitions: Bool { false }

    func harvest(partition: String, from documents: DocumentLog, run: RunContext) async throws
        -> PartitionResult {
        let page = try await documents.fetch(Self.url(of: dump))
        var dataset = Dataset()
        let recipes = try MealDB.decodeMeals(page.body, location: dump.path)
        dataset.recipes.reserveCapacity(recipes.count)
        var first: [RecipeID: Int] = [:]
        var positions: [RecipeID: [Int]] = [:]
        for (index, recipe) in recipes.enumerated() {
            dataset.recipes[recipe.id] = recipe
            if let earlier = first[recipe.id] {
                positions[recipe.id, default: [earlier]].append(index + 1)
            } else {
                first[recipe.id] = index + 1
            }
        }
        var warnings: [String] = []
        if !positions.isEmpty {
            // Two meals under one idMeal: one row per id in the snapshot, the last one read, and
            // the dump's duplicates named rather than collapsed in silence.
            let duplicates = positions.keys.sorted().map { id in
                "\(id.id) (meals \((positions[id] ?? []).map(String.init).joined(separator: ", ")))"
            }
            let listed = duplicates.prefix(5).joined(separator: "; ")
            let more = duplicates.count > 5 ? "; and \(duplicates.count - 5) more" : ""
            warnings.append("\(dump.path): \(duplicates.count) idMeal(s) name more than one meal, the last of each kept: "
                            + listed + more)
        }
        if let categoriesFile = categories {
            let categories = try await documents.fetch(Self.url(of: categoriesFile))
            for category in try MealDB.decodeCategories(categories.body, location: categoriesFile.path) {
                dataset.categories[category.name] = category
            }
        }
        return PartitionResult(dataset: dataset, warnings: warnings)
    }

    /// Local files are addressed as `file://` URLs so that provenance names the real path.
    static func url(of file: URL) -> String {
        "file://" + file.path
    }
}
