import Basics
import FoodModel
import Fetching
import Foundation

/// One partition per service day: one request for the day's menus of every café of the source.
/// A café without dayparts that day is closed: no meals, an hours entry saying so.
struct BonAppetitHarvester: Harvester {
    let source: SourceSpec
    /// The API root (`https://legacy.cafebonappetit.com`), or a folder mirroring its paths.
    let base: String
    let days: [ServiceDate]
    let settings: BonAppetitAdapter.Settings

    var partitions: [String] { days.map(\.description) }

    func harvest(partition: String, from documents: any DocumentReader, run: RunContext) async throws
        -> PartitionResult {
        guard let date = ServiceDate(partition) else {
            throw Failure.badInput("partition \(partition) is not a date", at: source.name)
        }
        let url = base + BonAppetitMenu.path(cafes: settings.cafes, date: date)
        let page = try await documents.fetch(url)
        let parsed = try BonAppetitMenu.parse(page.body, cafes: Set(settings.cafes), location: url)
        let day = parsed.days.first { $0.date == date } ?? ServiceDay(date: date, meals: [])
        var dataset = Dataset(serviceDays: [day], hours: parsed.hours.filter { $0.date == date })
        let served = Set(day.menuItems.map(\.food))
        let foods = parsed.foods.filter { served.contains($0.id) }
        for food in foods { dataset.foods[food.id] = food }
        return PartitionResult(dataset: dataset, warnings: parsed.problems, counts: ["closed_cafes": parsed.closedCafes],
                               labels: foods)
    }
}
