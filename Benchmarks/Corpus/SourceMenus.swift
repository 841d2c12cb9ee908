import Basics
import FoodModel
import Foundation
import SourceAdapters

/// The 134 real days of the 2016 dataset, read once through the project's own adapter, with a
/// six-digit recipe id given to every food.
///
/// This is the source of the corpus, not the corpus: about 37,000 menu items and 2,100 foods,
/// a few megabytes, so it is held in memory while the (much larger) pages are streamed out.
public struct SourceMenus: Sendable {
    /// The dataset's days in date order, with their menu items still under dataset ids.
    public let days: [ServiceDay]
    /// Every food once, in first-appearance order over the days; the first label wins, as in
    /// the dataset adapter.
    public let foods: [Food]
    /// Dataset recipe id (the folded name) → the six-digit id the corpus prints.
    public let siteIds: [String: String]

    /// The menu site's ids are six digits; the corpus numbers foods from 100001 in order of
    /// first appearance, so the same dataset always gives the same ids.
    public static let firstSiteId = 100_001

    public init(datasetFolder: URL) throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: datasetFolder.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        var days: [ServiceDay] = []
        var foods: [Food] = []
        var siteIds: [String: String] = [:]
        for file in files {
            let url = datasetFolder.appendingPathComponent(file)
            guard let date = ServiceDate(String(file.dropLast(".json".count))) else { continue }
            let parsed = try UCLADataset.parseDay(try Data(contentsOf: url), date: date, location: url.path)
            days.append(parsed.day)
            for food in parsed.foods where siteIds[food.id.recipeId] == nil {
                siteIds[food.id.recipeId] = String(Self.firstSiteId + foods.count)
                foods.append(food)
            }
        }
        guard !days.isEmpty else {
            throw Failure.badInput("no YYYY-MM-DD.json day files", at: datasetFolder.path)
        }
        self.days = days
        self.foods = foods
        self.siteIds = siteIds
    }

    /// The site id of a dataset food; the dataset adapter is the only producer of ids here, so
    /// a miss is a bug of this type, reported as an error rather than a crash.
    public func siteId(of datasetRecipeId: String) throws -> String {
        guard let id = siteIds[datasetRecipeId] else {
            throw Failure.badInput("food \(datasetRecipeId) has no site id", at: "SourceMenus")
        }
        return id
    }

    /// The dataset day that corpus day `index` repeats: the 134 days cycle.
    public func day(cycling index: Int) -> ServiceDay {
        days[index % days.count]
    }
}
