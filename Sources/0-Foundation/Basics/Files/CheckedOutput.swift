import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file descriptor the command writes its answer, events or log to, written with write(2) and
/// every failure kept: Foundation's `FileHandle.write(_:)` traps on Linux when a write fails (a
/// full disk, a reader that went away), and stdio's buffered `print` drops the failure, so that
/// `query … > out.csv` on a full disk ended with status 0 and a truncated file.
///
/// After the first failure nothing more is written to the descriptor (a closed pipe stays
/// closed, a full disk stays full); the failure is kept for the command to report.
public final class CheckedOutput: Sendable {
    public static let standardOutput = CheckedOutput(descriptor: STDOUT_FILENO, name: "standard output")
    public static let standardError = CheckedOutput(descriptor: STDERR_FILENO, name: "standard error")

    private let descriptor: Int32
    /// What the descriptor is, as an error names it: `standard output`, or a file's path.
    public let name: String
    /// The errno of the first failed write; held across a whole write so that lines written
    /// from several threads never interleave.
    private let firstFailure = Mutex<Int32?>(nil)

    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    /// Opens `path` for appending, creating it if need be.
    public static func appending(to path: String) throws -> CheckedOutput {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw Failure.fileSystem("cannot open for appending: \(String(cString: strerror(errno)))", path: path)
        }
        return CheckedOutput(descriptor: descriptor, name: path)
    }

    /// A process that writes to a pipe whose reader is gone gets EPIPE, which `write` reports,
    /// instead of SIGPIPE, which ends it where it stands (exit 141) with its staging files left.
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes all of `text`; false when it could not (now or at an earlier write).
    @discardableResult
    public func write(_ text: String) -> Bool {
        firstFailure.withLock { failure in
            guard failure == nil else { return false }
            let bytes = Array(text.utf8)
            var written = 0
            while written < bytes.count {
                let result = bytes.withUnsafeBytes { buffer in
                    writeDescriptor(descriptor, buffer.baseAddress! + written, buffer.count - written)
                }
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else {
                    failure = result < 0 ? errno : ENOSPC
                    return false
                }
                written += result
            }
            return true
        }
    }

    /// Writes all of `text` or throws the failure (the machine's: a full disk, a closed pipe).
    public func writeOrThrow(_ text: String) throws {
        guard write(text) else { throw failure ?? Failure.output(name, errorNumber: EIO) }
    }

    /// Whether a write failed because the pipe's reader had closed it (`… | head`).
    public var readerStoppedReading: Bool {
        firstFailure.withLock { $0 } == EPIPE
    }

    /// The first write that failed, if one did.
    public var failure: Failure? {
        firstFailure.withLock { $0 }.map { Failure.output(name, errorNumber: $0) }
    }
}

extension Failure {
    /// Standard output, standard error or a file named on the command line could not be
    /// written: the answer or the record the user asked for is incomplete, so the command fails.
    public static func output(_ name: String, errorNumber: Int32) -> Failure {
        let reason = String(cString: strerror(errorNumber)).lowercased()
        let message = errorNumber == EPIPE
            ? "cannot be written (\(reason)): whoever read it stopped reading, so what follows it was lost"
            : "cannot be written (\(reason)): what was written to it is incomplete"
        return Failure(.output, message, at: name, cause: POSIXError(POSIXErrorCode(rawValue: errorNumber) ?? .EIO))
    }
}

/// write(2), under a name the method `write` does not hide.
private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
