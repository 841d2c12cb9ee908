import Basics
import Fetching
import FoodModel
import Foundation
import SourceReading

/// A FoodPro site: one partition per service day, made of the day's menu pages (UCLA's three
/// meal pages, or Berkeley's one page of the day) merged into one service day, and the item
/// page of every food not read yet in this run.
///
/// A meal page that cannot be fetched (a 404 included) fails the day, which blocks publishing:
/// a nightly run that silently lost dinner would publish a day that looks complete. A meal page
/// that is fetched but holds no menu grid is FoodPro's way of saying the meal is not served
/// that day (a weekend breakfast): the day simply has no such meal.
struct FoodProHarvester: Harvester {
    let source: SourceSpec
    let pages: FoodProPages
    let readsFoodPages: Bool
    /// The site folder the page templates are appended to (`http://menu.ha.ucla.edu/foodpro`,
    /// or a folder served by a directory source).
    let base: String
    let days: [ServiceDate]

    var partitions: [String] { days.map(\.description) }

    func harvest(partition: String, from documents: any DocumentReader, run: RunContext) async throws
        -> PartitionResult {
        guard let date = ServiceDate(partition) else {
            throw Failure.badInput("partition \(partition) is not a date", at: source.name)
        }
        var meals: [Meal] = []
        for menu in pages.menuPaths(for: date) {
            let url = base + "/" + menu.path
            let page = try await documents.fetch(url)
            guard let day = try parseMenu(page, url: url) else { continue }
            guard day.date == date else {
                throw Failure.badInput("the page is the menu of \(day.date), not of \(date) as asked", at: url)
            }
            for meal in day.meals {
                if let index = meals.firstIndex(where: { $0.name == meal.name }) {
                    meals[index].restaurants += meal.restaurants
                } else {
                    meals.append(meal)
                }
            }
        }
        let day = ServiceDay(date: date, meals: meals)
        var result = PartitionResult(dataset: Dataset(serviceDays: [day]), warnings: [])
        guard readsFoodPages else { return result }
        var labels: [(item: MenuItem, url: String)] = []
        for item in await run.claimFoods(of: day) {
            guard LinkedId.lettersAndDigits.accepts(item.recipeId) else {
                result.warnings.append("label page of \(item.name) (\(item.food)): "
                                       + LinkedId.lettersAndDigits.refusal(of: item.recipeId, field: "recipe number"))
                continue
            }
            labels.append((item, base + "/" + pages.itemPath(for: item, on: date)))
        }
        await documents.recall(labels.map(\.url))
        for (item, url) in labels {
            do {
                let page = try await documents.fetchUnlessKnown(url)
                let food = try FoodPro.parseLabel(page.body, url: url, charset: page.charset,
                                                  recipeId: item.recipeId)
                result.dataset.foods[food.id] = food
            } catch {
                // As on the menu site: one unreadable label must not cost the day its menu.
                result.warnings.append("label page of \(item.name) (\(item.food)) not read: \(error)")
            }
        }
        return result
    }

    private func parseMenu(_ page: FetchedDocument, url: String) throws -> ServiceDay? {
        switch pages.layout {
        case .uclaGrid:
            try FoodPro.parseUCLAMenuGrid(page.body, url: url, charset: page.charset)
        case .berkeley:
            try FoodPro.parseMenuGrid(page.body, url: url, charset: page.charset)
        }
    }
}
