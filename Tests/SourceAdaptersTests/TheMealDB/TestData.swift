import Foundation

/// The real TheMealDB files in `../shared/data/themealdb`, found from this file's path so that
/// the tests run from any working directory and the data is never copied into the project.
enum TestData {
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // MealDBTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // package root
        .deletingLastPathComponent()   // the folder that holds shared/ beside the checkout
        .appendingPathComponent("shared/data/themealdb")

    static var dumpURL: URL { directory.appendingPathComponent("meals-dump-442.json") }

    static func response(_ name: String) -> URL {
        directory.appendingPathComponent("responses").appendingPathComponent(name)
    }

    static func data(_ url: URL) throws -> Data { try Data(contentsOf: url) }
}
