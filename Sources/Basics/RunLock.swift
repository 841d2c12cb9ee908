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
            throw RunError("cannot open the run lock: \(String(cString: strerror(errno)))", at: url.path, code: .environment)
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw RunError("another run of pipeline \(pipeline) is in progress; wait for it to finish", at: url.path, code: .locked)
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

/// A run that could not go on, in one line.
public struct RunError: CommissaryFailure, Hashable, Sendable {
    public var message: String
    public var code: FailureCode
    public var place: String?

    public init(_ message: String, at place: String? = nil, code: FailureCode = .badInput) {
        self.message = message
        self.place = place
        self.code = code
    }
}
