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

/// Whole-file writes with plain POSIX calls, for the raw store's large bodies.
///
/// Nothing here calls `fsync`, on purpose: the raw store is a cache whose every read is checked
/// against a sha256. What each kind of crash leaves behind:
/// - the process killed: a renamed file is complete (the rename is atomic in the kernel) and a
///   stray `.tmp-*` file is never read.
/// - the machine losing power: a file renamed into place may be empty or partial. The store's
///   reads check the sha256 and discard such an object, and the document is fetched again.
enum AtomicFile {
    /// Writes a temporary file beside `destination` and renames it over `destination`, so that
    /// a reader never sees a half-written file under the final name.
    static func replaceContents(of destination: URL, with data: Data) throws {
        let folder = destination.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".tmp-\(UUID().uuidString)").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileFailure(operation: "create", path: temporary, code: errno) }
        do {
            try writeAll(data, to: descriptor, path: temporary)
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
}

/// The C `write`, reachable by an unqualified name only from outside `AtomicFile`.
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
