import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call on a file of the raw store, named with its path and errno text.
struct FileFailure: Error, CustomStringConvertible {
    var operation: String
    var path: String
    var code: Int32

    var description: String { "cannot \(operation) \(path): \(String(cString: strerror(code)))" }
}

/// Durable writes with plain POSIX calls, because Foundation's atomic write does not fsync:
/// after a crash a file is either absent or complete, never half-written.
enum AtomicFile {
    /// Writes a temporary file beside `destination`, fsyncs it, renames it over `destination`,
    /// then fsyncs the folder so the rename itself survives a power loss.
    static func replaceContents(of destination: URL, with data: Data) throws {
        let folder = destination.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".tmp-\(UUID().uuidString)").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileFailure(operation: "create", path: temporary, code: errno) }
        do {
            try writeAll(data, to: descriptor, path: temporary)
            guard fsync(descriptor) == 0 else { throw FileFailure(operation: "fsync", path: temporary, code: errno) }
            close(descriptor)
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, destination.path) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileFailure(operation: "rename into place", path: destination.path, code: code)
        }
        syncFolder(folder)
    }

    /// Appends in one `write` on an O_APPEND descriptor, so concurrent appenders never interleave
    /// inside a line, then fsyncs.
    static func append(_ data: Data, to file: URL) throws {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileFailure(operation: "open", path: file.path, code: errno) }
        defer { close(descriptor) }
        try writeAll(data, to: descriptor, path: file.path)
        guard fsync(descriptor) == 0 else { throw FileFailure(operation: "fsync", path: file.path, code: errno) }
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = posixWrite(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw FileFailure(operation: "write", path: path, code: errno)
                }
                offset += written
            }
        }
    }

    /// Best effort: some file systems refuse fsync on a folder, and the data is already safe.
    private static func syncFolder(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}

/// The C `write`, reachable by an unqualified name only from outside `AtomicFile`.
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
