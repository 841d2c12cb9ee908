import Basics
import FoodModel
import Fetching
import Foundation

/// One partition per service day: one request for the day's menus of every café of the source;
/// and, unless the pipeline says `cafes_answer: false`, one `cafes` partition: one request a run
/// for the cafés' places, hours and closed days, which then replace the hours the dayparts of
/// the menus give (the cafés answer also says why a café is closed).
struct BonAppetitHarvester: Harvester {
    let source: SourceSpec
    /// The API root (`https://legacy.cafebonappetit.com`), or a folder mirroring its paths.
    let base: String
    let days: [ServiceDate]
    let settings: BonAppetitAdapter.Settings

    static let cafesPartition = "cafes"

    var partitions: [String] {
        days.map(\.description) + (settings.cafesAnswer ? [Self.cafesPartition] : [])
    }

    func harvest(partition: String, from documents: any DocumentReader, run: RunContext) async throws
        -> PartitionResult {
        if partition == Self.cafesPartition {
            return try await harvestCafes(from: documents)
        }
        guard let date = ServiceDate(partition) else {
            throw Failure.badInput("partition \(partition) is neither a date nor `cafes`", at: source.name)
        }
        let url = base + BonAppetitMenu.path(cafes: settings.cafes, date: date)
        let page = try await documents.fetch(url)
        let parsed = try BonAppetitMenu.parse(page.body, cafes: Set(settings.cafes), location: url)
        let day = parsed.days.first { $0.date == date } ?? ServiceDay(date: date, meals: [])
        let hours = settings.cafesAnswer ? [] : parsed.hours.filter { $0.date == date }
        var dataset = Dataset(serviceDays: [day], hours: hours)
        let served = Set(day.menuItems.map(\.food))
        let foods = parsed.foods.filter { served.contains($0.id) }
        for food in foods { dataset.foods[food.id] = food }
        return PartitionResult(dataset: dataset, warnings: parsed.problems, counts: ["closed_cafes": parsed.closedCafes],
                               labels: foods)
    }

    /// The cafés answer, its hours kept to the run's days.
    private func harvestCafes(from documents: any DocumentReader) async throws -> PartitionResult {
        let url = base + BonAppetitCafes.path(cafes: settings.cafes)
        let page = try await documents.fetch(url)
        let parsed = try BonAppetitCafes.parse(page.body, cafes: Set(settings.cafes),
                                               days: days.isEmpty ? nil : Set(days), location: url)
        let missing = settings.cafes.count - parsed.places.count
        let warnings = parsed.problems + (missing > 0 ? ["\(url): \(missing) of the source's cafés are not in the answer"] : [])
        return PartitionResult(dataset: Dataset(hours: parsed.hours, places: parsed.places), warnings: warnings,
                               counts: ["closed_cafe_days": parsed.closedDays])
    }
}
