import Basics
import FoodModel
import Foundation
import SourceReading
import YAMLConfig

/// The historical UCLA dataset: a folder of `YYYY-MM-DD.json` days with their labels.
public struct UCLADatasetAdapter: SourceAdapter {
    public init() {}

    public let name = "ucla-dataset"
    public let summary = "the historical UCLA dataset: a folder of YYYY-MM-DD.json days"
    public let folder = "UCLADataset"
    public let keys: Set<String> = ["dates"]
    /// The dataset writes UCLA's own web codes.
    public var legend: [DietaryCode] { UCLAWebCodes.all }

    public func problem(reading location: Location) -> String? {
        if case .directory = location { return nil }
        return "the UCLA dataset is a folder of YYYY-MM-DD.json files"
    }

    public func settings(from entry: YAMLMapping, location: Location, folder: URL) throws -> any SourceSettings {
        NoSettings()
    }

    public func harvester(for source: SourceSpec, run: HarvestSetup) throws -> any Harvester {
        guard case .directory(let folder) = source.location else {
            throw Failure.badInput(problem(reading: source.location) ?? "not a folder", at: source.location.description)
        }
        return DatasetHarvester(source: source, folder: folder, requested: run.days(of: source))
    }

    public var pageFormats: [PageFormat] {
        [
            PageFormat(name: "day", aliases: ["ucla-dataset"], hasLabels: true) { page, hints in
                guard let date = hints.date else {
                    throw Failure.badInput("cannot tell the service day from the address; give --date", at: page.url)
                }
                let parsed = try UCLADataset.parseDay(page.body, date: date, location: page.url)
                return PageReading(.dayWithFoods(parsed.day, parsed.foods), problems: parsed.problems)
            },
        ]
    }
}
