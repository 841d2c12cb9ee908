import FoodModel
import Foundation
import Logging
import Pipeline

/// One night of the pipeline written as `yaml`, in process, with `workspace` as its workspace
/// and `today` as its day, saying nothing: for tests that serve a platform on 127.0.0.1 and read
/// what the night published. `partitions`: a subset run's (`--partition`).
enum QuietNight {
    static func run(_ yaml: String, workspace: URL, today: String, partitions: [String]? = nil) async throws -> RunReport {
        let spec = try SpecReader.parse(yaml, file: workspace.appendingPathComponent("pipeline.yml"))
        var options = RunOptions(workspace: Workspace(root: workspace), today: ServiceDate(today)!)
        options.partitions = try partitions.map(PartitionSelection.init)
        return try await PipelineRunner(
            spec: spec, options: options,
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
    }
}
