/// A snapshot could not be built, verified, published or read; one line naming the file.
public struct SnapshotError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(_ message: String, path: String) {
        self.message = message
        self.path = path
    }

    public var description: String { "\(path): \(message)" }
}
