import Basics
import Fetching
import FoodModel
import Foundation

/// The UCLA menu site: one partition per service day (the overview page and the recipe page of
/// every item on it not read yet in this run), and one `hours` partition.
struct MenuSiteHarvester: Harvester {
    let source: SourceSpec
    let settings: UCLAMenuSiteAdapter.Settings
    /// The site root that URL paths are appended to (`https://menu.dining.ucla.edu`, or a folder
    /// served by a directory source, named by a placeholder host).
    let base: String
    /// The service days of this run, resolved from the spec or the command line.
    let days: [ServiceDate]

    static let hoursPartition = "hours"

    var partitions: [String] {
        days.map(\.description) + (settings.hours ? [Self.hoursPartition] : [])
    }

    func harvest(partition: String, from documents: any DocumentReader, run: RunContext) async throws
        -> PartitionResult {
        if partition == Self.hoursPartition {
            return try await harvestHours(from: documents, run: run)
        }
        guard let date = ServiceDate(partition) else {
            throw Failure.badInput("partition \(partition) is neither a date nor `hours`", at: source.name)
        }
        let url = base + UCLAMenuSite.overviewPath(for: date)
        let page = try await documents.fetch(url)
        let day = try UCLAMenuSite.parseOverview(page.body, url: url, charset: page.charset)
        guard day.date == date else {
            throw Failure.badInput("the page is the menu of \(day.date), not of \(date) as asked", at: url)
        }
        var result = PartitionResult(dataset: Dataset(serviceDays: [day]), warnings: [])
        guard settings.recipePages else { return result }
        let claimed = await run.claimFoods(of: day)
        let recipeURLs = claimed.map { base + UCLAMenuSite.recipePath(recipeId: $0.recipeId, portion: $0.portion) }
        await documents.recall(recipeURLs)
        for (item, recipeURL) in zip(claimed, recipeURLs) {
            do {
                let recipePage = try await documents.fetchUnlessKnown(recipeURL)
                let food = try UCLAMenuSite.parseRecipe(recipePage.body, url: recipeURL,
                                                        charset: recipePage.charset,
                                                        recipeId: item.recipeId)
                result.dataset.foods[food.id] = food
            } catch {
                // One missing item page must not cost the day its menu: the food is kept with
                // what the menu says, and the run reports it.
                result.warnings.append("recipe page of \(item.name) (\(item.food)) not read: \(error)")
            }
        }
        return result
    }

    var readsFoodPages: Bool { settings.recipePages }

    private func harvestHours(from documents: any DocumentReader, run: RunContext) async throws
        -> PartitionResult {
        let url = base + UCLAMenuSite.hoursPath
        let page = try await documents.fetch(url)
        // The hours page prints "Thursday, February 13" with no year: the run's first day
        // anchors it.
        let hours = try UCLAMenuSite.parseHours(page.body, url: url, charset: page.charset,
                                                referenceDate: days.first)
        return PartitionResult(dataset: Dataset(hours: hours), warnings: [])
    }
}
