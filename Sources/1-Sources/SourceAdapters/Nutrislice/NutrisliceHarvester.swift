import Basics
import FoodModel
import Fetching
import Foundation

/// One partition per service day, made of the day in the week answer of each menu type. The
/// seven days of a week read one request per menu type, decoded once, shared within the run. A
/// menu type whose answer cannot be fetched or read is one part of the day not read
/// (`PartitionResult.incomplete`): the run keeps the day's last good version instead where that
/// version has the menu type, or publishes the other menu types; a day none of whose answers was
/// read fails.
struct NutrisliceHarvester: Harvester {
    let source: SourceSpec
    /// The organisation's API root (`https://wisc-housingdining.api.nutrislice.com`), or a folder
    /// that mirrors its paths.
    let base: String
    let days: [ServiceDate]
    let settings: NutrisliceAdapter.Settings
    private let runDays: Set<ServiceDate>

    init(source: SourceSpec, base: String, days: [ServiceDate], settings: NutrisliceAdapter.Settings) {
        self.source = source
        self.base = base
        self.days = days
        self.settings = settings
        runDays = Set(days)
    }

    var partitions: [String] { days.map(\.description) }

    func harvest(partition: String, from documents: any DocumentReader, run: RunContext) async throws
        -> PartitionResult {
        guard let date = ServiceDate(partition) else {
            throw Failure.badInput("partition \(partition) is not a date", at: source.name)
        }
        var result = PartitionResult(dataset: Dataset(serviceDays: [ServiceDay(date: date, meals: [])]))
        var textRows = 0
        let readers = daysOfTheWeek(of: date)
        var firstFailure: (any Error)?
        for menuType in settings.menuTypes {
            let path = NutrisliceMenu.weekPath(school: settings.school, menuType: menuType, containing: date)
            let url = base + path
            let (meal, restaurant) = (Settings.mealName(of: menuType), settings.restaurant)
            let parsed: NutrisliceMenu.Parsed
            do {
                let page = try await documents.fetchShared(url, readers: readers, run: run)
                // The decoding names the meal and restaurant: two sources of one run reading the
                // same week as another restaurant share the bytes, not the decoded days. It is of
                // these bytes: a kept day replays the week as it was, tonight's days read it anew.
                parsed = try await run.shared("decoded \(restaurant) \(meal) \(url) \(page.sha256)", readers: readers) {
                    try NutrisliceMenu.parseWeek(page.body, meal: meal, restaurant: restaurant, location: url)
                }.day(date)
            } catch {
                // A run asked to stop ends here, not with a day missing what it did not ask.
                if Task.isCancelled { throw error }
                result.incomplete.append(PartNotRead("\(date): \(restaurant)'s \(meal) menu", because: error))
                firstFailure = firstFailure ?? error
                continue
            }
            for food in parsed.foods where result.dataset.foods[food.id] == nil {
                result.dataset.foods[food.id] = food
            }
            result.dataset.serviceDays[0].add(Self.labelled(parsed, against: result.dataset.foods))
            result.labels = (result.labels ?? []) + parsed.foods
            result.warnings += parsed.problems + parsed.notes
            textRows += parsed.textRows
        }
        // Nothing read at all (the API down) is a failed day, not an empty one.
        if result.incomplete.count == settings.menuTypes.count, let firstFailure { throw firstFailure }
        result.counts["text_rows"] = textRows
        return result
    }

    /// The day of one menu type with each item carrying the label printed with it where that is
    /// not its food's: a food is the first menu type's that serves it, and the same food id can
    /// print another label in a later meal of the day (a 3 oz tofu at lunch, 4.5 oz at dinner).
    private static func labelled(_ parsed: NutrisliceMenu.Parsed, against foods: [FoodID: Food]) -> ServiceDay {
        let printed = Dictionary(parsed.foods.map { ($0.id, PrintedLabel(of: $0)) }, uniquingKeysWith: { first, _ in first })
        var day = parsed.day
        day.updateMenuItems { item in
            guard let food = foods[item.food], let label = item.label ?? printed[item.food] else { return }
            item.label = label == PrintedLabel(of: food) ? nil : label
        }
        return day
    }

    /// How many of the run's days fall in the week (Sunday to Saturday) that holds `date`:
    /// the partitions that will read that week's answer.
    private func daysOfTheWeek(of date: ServiceDate) -> Int {
        let sunday = date.adding(days: -(date.isoWeekday % 7))
        return (0..<7).filter { runDays.contains(sunday.adding(days: $0)) }.count
    }

    private typealias Settings = NutrisliceAdapter.Settings
}
