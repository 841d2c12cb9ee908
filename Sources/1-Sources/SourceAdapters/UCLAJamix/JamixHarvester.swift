import Basics
import FoodModel
import Fetching
import Foundation

/// UCLA's live feed: one partition per service day, made of the day's menu file and the document
/// of every food on it that no partition of the run has read yet. Menu files are fetched each
/// run (they change from night to night); a food's document, once stored, is read from the raw
/// store (`--force` asks again).
struct JamixHarvester: Harvester {
    let source: SourceSpec
    /// The feed's root (`https://dining.ucla.edu/wp-content/uploads/jamix`), or a folder that
    /// mirrors it.
    let base: String
    let days: [ServiceDate]
    let foodDocuments: Bool

    var partitions: [String] { days.map(\.description) }
    var readsFoodPages: Bool { foodDocuments }

    /// How many food ids a warning lists before it says how many more there are.
    static let listed = 5

    func harvest(partition: String, from documents: any DocumentReader, run: RunContext) async throws
        -> PartitionResult {
        guard let date = ServiceDate(partition) else {
            throw Failure.badInput("partition \(partition) is not a date", at: source.name)
        }
        let url = base + JamixMenuDay.menuPath(for: date)
        let page = try await documents.fetch(url)
        let parsed = try JamixMenuDay.parse(page.body, date: date, location: url)
        var result = PartitionResult(dataset: Dataset(serviceDays: [parsed.day]), warnings: parsed.problems)
        result.counts["unpublished_rows"] = parsed.unpublishedRows
        result.counts[PartitionResult.itemsInUnnamedSections] = parsed.rowsInUnnamedStations
        guard foodDocuments else { return result }
        var unread: [String] = []
        var unlabelled = 0
        let claimed = await run.claimFoods(of: parsed.day).compactMap { item in
            JamixMenuDay.documentPath(of: item.recipeId).map { (item: item, url: base + $0) }
        }
        await documents.recall(claimed.map(\.url))
        for (item, documentURL) in claimed {
            do {
                let foodId = item.recipeId
                let reading = try await documents.food(documentURL, parser: "ucla-jamix food document \(foodId)") {
                    try JamixFoodDocument.parse($0.body, foodId: foodId, location: documentURL)
                }
                result.dataset.foods[reading.food.id] = reading.food
                result.warnings += reading.problems
                if reading.food.labelBasis == nil { unlabelled += 1 }
            } catch {
                unread.append("\(item.recipeId) (\(error))")
            }
        }
        if !unread.isEmpty {
            // The food keeps the kitchen's row name the menu gave it, and is counted as a food
            // without its page; it is never renamed by guesswork.
            let first = unread.prefix(Self.listed).joined(separator: "; ")
            let more = unread.count > Self.listed ? "; and \(unread.count - Self.listed) more" : ""
            result.warnings.append("\(date): \(unread.count) food document(s) could not be read, so those foods keep "
                                   + "the kitchen's row name: \(first)\(more)")
        }
        result.counts["food_documents_unread"] = unread.count
        // Read documents that print no label (a recipe whose nutritive values are null): the dish
        // is on the menu without nutrition, which the labelled-share check weighs.
        result.counts["food_documents_without_label"] = unlabelled
        return result
    }
}
