import Foundation
import TestSupport

/// The real TheMealDB files in `../shared/data/themealdb`, read in place, never copied into the
/// project.
enum TestData {
    static let directory: URL = Paths.sharedData.appendingPathComponent("themealdb")

    static var dumpURL: URL { directory.appendingPathComponent("meals-dump-442.json") }

    static func response(_ name: String) -> URL {
        directory.appendingPathComponent("responses").appendingPathComponent(name)
    }

    static func data(_ url: URL) throws -> Data { try Data(contentsOf: url) }
}
