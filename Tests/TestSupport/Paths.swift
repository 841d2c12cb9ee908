import Foundation

/// Where tests find the repository, its SampleData and pipelines, and the real data beside the
/// checkout (`../shared/data`, which tests read in place and never copy).
public enum Paths {
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let pipelines = packageRoot.appendingPathComponent("Pipelines")
    public static let sampleData = packageRoot.appendingPathComponent("SampleData")
    /// Each module's folder by its name: `Sources/<step>/<module>`, the layout Package.swift gives.
    public static func moduleFolders() throws -> [String: URL] {
        let sources = packageRoot.appendingPathComponent("Sources")
        var folders: [String: URL] = [:]
        for step in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            let stepFolder = sources.appendingPathComponent(step)
            for module in try FileManager.default.contentsOfDirectory(atPath: stepFolder.path) {
                folders[module] = stepFolder.appendingPathComponent(module)
            }
        }
        return folders
    }
    public static let sampleSite = sampleData.appendingPathComponent("menu.dining.ucla.edu")
    public static let sharedData = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    public static let mealDump = sharedData.appendingPathComponent("themealdb/meals-dump-442.json")

    /// A fresh folder under the system's temporary folder, removed by the caller.
    public static func temporaryFolder(_ name: String = #function) throws -> URL {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("commissary-tests-\(safe)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
