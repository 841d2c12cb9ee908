#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An exclusive lock per pipeline (flock on a file in `state/`), so two runs of one pipeline
/// never interleave their ledger writes or publications. The kernel drops the lock when the
/// process dies, so a killed run never leaves it stuck.
final class RunLock {
    private let descriptor: Int32

    init(_ url: URL, pipeline: String) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        descriptor = open(url.path, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else {
            throw RunError("cannot open the run lock \(url.path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw RunError("another run of pipeline \(pipeline) is in progress (lock \(url.path)); wait for it to finish")
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

/// A run that could not go on, in one line.
public struct RunError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
