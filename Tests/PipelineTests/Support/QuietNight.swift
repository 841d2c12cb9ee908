import FoodModel
import Foundation
import Logging
import Pipeline

/// One night of the pipeline written as `yaml`, in process, with `workspace` as its workspace
/// and `today` as its day, saying nothing: for tests that serve a platform on 127.0.0.1 and read
/// what the night published.
enum QuietNight {
    static func run(_ yaml: String, workspace: URL, today: String) async throws -> RunReport {
        let spec = try SpecReader.parse(yaml, file: workspace.appendingPathComponent("pipeline.yml"))
        return try await PipelineRunner(
            spec: spec, options: RunOptions(workspace: Workspace(root: workspace), today: ServiceDate(today)!),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
    }
}
