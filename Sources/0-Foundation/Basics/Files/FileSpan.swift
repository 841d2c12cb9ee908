import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes at a known place in a file, read only when they are needed: a parse cache entry's days,
/// which a night reads only for the days it writes (most nights keep every cached day's rows).
public struct FileSpan: Sendable {
    public let path: String
    public let offset: Int
    public let count: Int

    public init(path: String, offset: Int, count: Int) {
        self.path = path
        self.offset = offset
        self.count = count
    }

    /// The bytes, or nil when the file cannot be opened or read, or ends before them: it was
    /// removed, replaced or cut short since the span was taken. Opened non-blocking, so that a
    /// named pipe put in the file's place fails the read rather than waiting for a writer.
    public func read() -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return try? RegularFile.bytes(in: descriptor, count: count, at: offset)
    }
}
