import Basics
import FoodModel
import Foundation
import YAMLConfig

/// CBORD NetNutrition's nutrition labels (Sources/1-Sources/SourceAdapters/NetNutrition/README.md). Its menu pages need a
/// session (cookies, a unit and a menu chosen by form posts) and no real capture of them exists
/// yet, so this adapter reads labels only: saved label answers in a folder, one per item, each
/// a food; or one label with `commissary parse`.
public struct NetNutritionLabelAdapter: SourceAdapter {
    public init() {}

    public let name = "netnutrition-label"
    public let summary = "CBORD NetNutrition nutrition labels saved as files ({item id}.html), one food each"
    public let folder = "NetNutrition"
    public let keys: Set<String> = []
    public var legend: [DietaryCode] { NetNutritionCodes.legend }

    public func problem(reading location: Location) -> String? {
        switch location {
        case .web:
            "NetNutrition's pages need a session, which this adapter does not hold yet: save the labels "
                + "(NutritionDetail/ShowItemNutritionLabel answers) as {item id}.html in a folder and read that"
        case .file:
            "a folder of labels ({item id}.html), not one file; read a single label with `commissary parse --adapter netnutrition-label`"
        case .directory:
            nil
        }
    }

    public func settings(from entry: YAMLMapping, location: Location, folder: URL) throws -> any SourceSettings {
        NoSettings()
    }

    public func harvester(for source: SourceSpec, run: HarvestSetup) throws -> any Harvester {
        guard case .directory(let folder) = source.location else {
            throw Failure.badInput(problem(reading: source.location) ?? "not a folder", at: source.location.description)
        }
        return NetNutritionLabelHarvester(source: source, folder: folder)
    }

    public var pageFormats: [PageFormat] {
        [
            PageFormat(name: "label", hasLabels: true) { page, hints in
                let id = try hints.recipeId(of: page.url) { Self.itemId(in: $0) }
                let reading = try NetNutritionLabel.read(page.body, itemId: id, url: page.url, charset: page.charset)
                return PageReading(.food(reading.food), problems: reading.problems)
            },
        ]
    }

    /// The item id a saved label's file is named by (`12345.html`); nil for another name.
    static func itemId(in url: String) -> String? {
        let name = URL(fileURLWithPath: url).deletingPathExtension().lastPathComponent
        return !name.isEmpty && name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            ? name : nil
    }
}

/// A folder of saved labels: one partition per label file, named by its item id, so a label that
/// cannot be read costs only itself (and keeps its last good copy).
struct NetNutritionLabelHarvester: Harvester {
    let source: SourceSpec
    let folder: URL
    let partitions: [String]

    init(source: SourceSpec, folder: URL) {
        self.source = source
        self.folder = folder
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        partitions = names.filter { $0.hasSuffix(".html") }.compactMap { NetNutritionLabelAdapter.itemId(in: $0) }.sorted()
    }

    func harvest(partition: String, from documents: any DocumentReader, run: RunContext) async throws
        -> PartitionResult {
        let file = folder.appendingPathComponent("\(partition).html")
        let page = try await documents.fetch("file://" + file.path)
        let reading = try NetNutritionLabel.read(page.body, itemId: partition, url: file.path, charset: page.charset)
        let food = reading.food
        var dataset = Dataset()
        dataset.foods[food.id] = food
        var result = PartitionResult(dataset: dataset, warnings: reading.problems)
        // What was read is kept (the rows before the cut are the label's), but a label that lost
        // its last rows, and with them its ingredients and allergens, must not pass as a shorter one.
        if NetNutritionLabel.endsInsideTable(page.body) {
            let kept = ["\(food.nutrients.count) nutrient(s)", food.ingredients == nil ? "no ingredients" : "ingredients",
                        food.allergens.isEmpty ? "no allergens" : "allergens"]
            result.warnings.append("label of \(food.name) (\(food.id)) is damaged: \(file.path) ends inside the label's "
                                   + "table (cut short), so the rows after the cut are missing; kept as read: "
                                   + kept.joined(separator: ", ") + "; save the label again")
        }
        return result
    }
}
