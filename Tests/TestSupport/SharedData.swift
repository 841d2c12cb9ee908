import Foundation

/// Real pages live in `shared/data` beside the checkout, never inside the project.
public enum SharedData {
    public static var directory: URL { Paths.sharedData }

    public static func load(_ relativePath: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(relativePath))
    }
}
