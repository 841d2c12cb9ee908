import Foundation

/// Where tests find the repository, its SampleData and the real data beside the checkout.
enum Paths {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let pipelines = packageRoot.appendingPathComponent("Pipelines")
    static let sampleData = packageRoot.appendingPathComponent("SampleData")
    static let sharedData = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")

    /// A fresh folder under the system's temporary folder, removed by the caller.
    static func temporaryFolder(_ name: String = #function) throws -> URL {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("commissary-tests-\(safe)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
