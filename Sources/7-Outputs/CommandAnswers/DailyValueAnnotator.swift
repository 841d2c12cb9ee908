import FoodModel
import Foundation
import Pipeline
import Nutrition

/// What `commissary parse --dv-standard` applies: the compute stage of a run, on one page, so
/// that the computed %DV of each nutrient prints beside the printed one.
public struct DailyValueAnnotator: Sendable {
    let standard: DailyValueStandard

    /// A standard by name from `Pipelines/standards/` under the current folder, or a `.yml` path.
    public init(standard name: String,
                pipelinesFolder: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
                    .appendingPathComponent("Pipelines")) throws {
        standard = try StandardReader.load(name, pipelinesFolder: pipelinesFolder)
    }

    public func annotate(_ food: Food) -> Food {
        standard.apply(to: food)
    }
}
