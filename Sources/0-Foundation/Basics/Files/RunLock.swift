#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An exclusive lock per pipeline (flock on a file in `state/`), so two runs of one pipeline
/// never interleave their ledger writes or publications. The kernel drops the lock when the
/// process dies, so a killed run never leaves it stuck.
public final class RunLock {
    private let descriptor: Int32

    public init(_ url: URL, pipeline: String) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        descriptor = open(url.path, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else {
            throw Failure.fileSystem("cannot open the run lock: \(String(cString: strerror(errno)))", path: url.path)
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw Failure(.locked, "another run of pipeline \(pipeline) is in progress; wait for it to finish", at: url.path)
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
