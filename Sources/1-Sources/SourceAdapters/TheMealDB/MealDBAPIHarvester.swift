import Basics
import Fetching
import FoodModel
import Foundation

/// TheMealDB's live v1 API. The free API has no "list every meal" call, so the catalogue is
/// walked the way its own site does: `search.php?f=<letter>` for each of a–z and 0–9, one
/// partition per letter so that a stopped backfill resumes at the first letter it had not
/// finished, plus one `categories` partition for `categories.php` (the descriptions and
/// pictures that meals do not carry).
///
/// `list.php` is not read: its categories, areas and ingredients are names only, which the
/// meals already carry, and areas or ingredients no meal uses would only add empty rows.
/// `lookup.php` is not needed either: a letter search returns full meal objects.
struct MealDBAPIHarvester: Harvester {
    let source: SourceSpec
    let letters: [Character]?
    /// The API's root (`https://www.themealdb.com`), without a trailing slash.
    let base: String

    static let allLetters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    static let categoriesPartition = "categories"

    var partitions: [String] {
        (letters ?? Self.allLetters).map(String.init) + [Self.categoriesPartition]
    }

    func harvest(partition: String, from documents: any DocumentReader, run: RunContext) async throws
        -> PartitionResult {
        if partition == Self.categoriesPartition {
            let url = base + MealDB.categoriesPath
            let page = try await documents.fetch(url)
            var dataset = Dataset()
            for category in try MealDB.decodeCategories(page.body, location: url) {
                dataset.categories[category.name] = category
            }
            return PartitionResult(dataset: dataset, warnings: [])
        }
        guard partition.count == 1, let letter = partition.first, Self.allLetters.contains(letter) else {
            throw Failure.badInput("partition \(partition) is neither a letter, a digit nor `categories`", at: source.name)
        }
        let url = base + MealDB.letterSearchPath(letter)
        let page = try await documents.fetch(url)
        try Self.requireObject(page.body, url: url)
        // `{"meals": null}` is how the API says no meal starts with this letter: a finished
        // partition with nothing in it, not a failure.
        var dataset = Dataset()
        for recipe in try MealDB.decodeMeals(page.body, location: url) {
            dataset.recipes[recipe.id] = recipe
        }
        return PartitionResult(dataset: dataset, warnings: [])
    }

    /// The decoder also accepts a bare array, the shape of dumps saved by others; from the API
    /// itself an answer without the `meals` object is a broken answer, not a catalogue.
    static func requireObject(_ body: Data, url: String) throws {
        let first = body.first { !Set(" \t\r\n".utf8).contains($0) }
        guard first != UInt8(ascii: "[") else {
            throw Failure.badInput("an array instead of {\"meals\": ...}, so not a TheMealDB search answer", at: url)
        }
    }
}
