import Basics
import Fetching
import FoodModel
import Foundation
import SourceReading

/// A FoodPro site: one partition per service day, made of the day's menu pages (UCLA's three
/// meal pages, or Berkeley's one page of the day) merged into one service day, and the item
/// page of every food not read yet in this run.
///
/// A menu page that cannot be fetched (a 404 included), read, or that is another day's menu is
/// one part of the day not read (`PartitionResult.incomplete`), never a day that looks complete:
/// the run keeps the day's last good version instead where that version has the meal, or
/// publishes the other meals with a warning. A day none of whose pages was read fails. A meal
/// page that is fetched but holds no menu grid is FoodPro's way of saying the meal is not served
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
        var incomplete: [PartNotRead] = []
        var firstFailure: (any Error)?
        let menus = pages.menuPaths(for: date)
        for menu in menus {
            let url = base + "/" + menu.path
            let day: ServiceDay?
            do {
                day = try await menuDay(at: url, of: date, from: documents)
            } catch {
                // A run asked to stop ends here, not with a day missing what it did not ask.
                if Task.isCancelled { throw error }
                incomplete.append(PartNotRead("\(date): " + (menu.meal.map { "the page of meal \($0)" } ?? "the menu page"),
                                             because: error))
                firstFailure = firstFailure ?? error
                continue
            }
            for meal in day?.meals ?? [] {
                if let index = meals.firstIndex(where: { $0.name == meal.name }) {
                    meals[index].restaurants += meal.restaurants
                } else {
                    meals.append(meal)
                }
            }
        }
        // No page read at all (the site down) is a failed day, not an empty one.
        if incomplete.count == menus.count, let firstFailure { throw firstFailure }
        let day = ServiceDay(date: date, meals: meals)
        var result = PartitionResult(dataset: Dataset(serviceDays: [day]), warnings: [], incomplete: incomplete)
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

    /// The menu page at `url` read as `date`'s menu; nil for a page without a menu grid (a meal
    /// not served). Another day's menu is refused: the site answers a date it has no menu for
    /// with the menu of today.
    private func menuDay(at url: String, of date: ServiceDate, from documents: any DocumentReader) async throws
        -> ServiceDay? {
        guard let day = try parseMenu(try await documents.fetch(url), url: url) else { return nil }
        guard day.date == date else {
            throw Failure.badInput("the page is the menu of \(day.date), not of \(date) as asked", at: url)
        }
        return day
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
