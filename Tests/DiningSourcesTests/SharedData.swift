import Foundation

/// Real pages live in `shared/data` beside the checkout, never inside the project.
enum SharedData {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // DiningSourcesTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent() // package root
        .deletingLastPathComponent()
        .appendingPathComponent("shared/data")

    static func load(_ relativePath: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(relativePath))
    }
}
