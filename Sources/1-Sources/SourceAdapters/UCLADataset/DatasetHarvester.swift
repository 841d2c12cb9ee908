import Basics
import Fetching
import FoodModel
import Foundation

/// The historical UCLA dataset (Sources/1-Sources/SourceAdapters/UCLADataset/README.md): a folder of `YYYY-MM-DD.json` files, one
/// partition per file, so analysts can load history into the same snapshot shape as the live
/// menus.
struct DatasetHarvester: Harvester {
    let source: SourceSpec
    let folder: URL
    /// The days of the run that have a file; a day without one is a day the dataset does not
    /// cover, not a failure.
    let days: [ServiceDate]

    init(source: SourceSpec, folder: URL, requested: [ServiceDate]?) {
        self.source = source
        self.folder = folder
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let available = Set(names.filter { $0.hasSuffix(".json") }
            .compactMap { ServiceDate(String($0.dropLast(".json".count))) })
        if let requested {
            days = requested.filter(available.contains)
        } else {
            days = available.sorted()
        }
    }

    var partitions: [String] { days.map(\.description) }

    func harvest(partition: String, from documents: any DocumentReader, run: RunContext) async throws
        -> PartitionResult {
        guard let date = ServiceDate(partition) else {
            throw Failure.badInput("partition \(partition) is not a date", at: source.name)
        }
        let file = folder.appendingPathComponent("\(partition).json")
        let page = try await documents.fetch("file://" + file.path)
        let parsed = try UCLADataset.parseDay(page.body, date: date, location: file.path)
        var dataset = Dataset(serviceDays: [parsed.day])
        for food in parsed.foods where await run.claim(food.id) {
            dataset.foods[food.id] = food
        }
        return PartitionResult(dataset: dataset, warnings: parsed.problems, labels: parsed.foods)
    }
}
