import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The local files a run reads that a user names (pipeline, places and term files, the
/// nutrition reference, a credentials file), read so that none can hold the run or its memory.
/// A plain `open` of a named pipe waits until something writes to it, and `Data(contentsOf:)`
/// holds a file of any size whole; here every file is opened non-blocking (a named pipe or a
/// device opens at once) and refused unless it is a regular file (non-blocking changes nothing
/// for a regular file's reads), and a folder source's reads are capped (`readBounded`).
public enum RegularFile {
    /// What a file of mode `mode` is, in words, when it is not a regular file ("a FIFO"); nil
    /// for a regular file.
    public static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a folder"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a plain file"
        }
    }

    /// The one line for a file that is not regular: `<path>: the <what> is a FIFO, not a regular file`.
    private static func notRegular(_ path: String, kind: String, what: String) -> Failure {
        Failure(.badInput, "the \(what) is \(kind), not a regular file; it is not read", at: path)
    }

    /// `path` opened for reading, links followed, with its size; `what` names it in failures
    /// ("pipeline file"). The caller closes the descriptor.
    private static func openFile(_ path: String, what: String) throws -> (descriptor: Int32, size: Int) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw unreadable(path, what: what, errorNumber: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw unreadable(path, what: what, errorNumber: code)
        }
        if let kind = kind(of: status.st_mode) {
            close(descriptor)
            throw notRegular(path, kind: kind, what: what)
        }
        return (descriptor, Int(status.st_size))
    }

    /// Refuses `path` unless it is a regular file, for a file a library opens itself (SQLite,
    /// which would wait on a named pipe). A file swapped for a pipe between this look and the
    /// library's own open is not caught: such a library offers no way to open what was looked at.
    public static func check(_ path: String, what: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else { throw unreadable(path, what: what, errorNumber: errno) }
        if let kind = kind(of: status.st_mode) { throw notRegular(path, kind: kind, what: what) }
    }

    /// The bytes of the regular file at `path`.
    public static func contents(of path: String, what: String) throws -> Data {
        let file = try openFile(path, what: what)
        defer { close(file.descriptor) }
        do {
            // No limit, so never nil.
            return try readBounded(file.descriptor, size: file.size, limit: .max) ?? Data()
        } catch let error as POSIXError {
            throw unreadable(path, what: what, errorNumber: error.code.rawValue)
        }
    }

    /// The bytes of an open file, at most `limit` of them: nil when it holds more, found by
    /// reading one byte past the limit, never the rest. `size` (from `fstat`) sizes the buffer;
    /// the file may have grown or shrunk since, which the reads find. Throws a `POSIXError` for a
    /// read that fails. The buffer is not cleared first (`Data(count:)` writes zeros over every
    /// byte the read then writes again).
    public static func readBounded(_ descriptor: Int32, size: Int, limit: Int) throws -> Data? {
        let ceiling = limit == .max ? limit : limit + 1
        var capacity = max(1, min(size, limit) + 1)
        guard var buffer = malloc(capacity) else { throw POSIXError(.ENOMEM) }
        var filled = 0
        while filled < ceiling {
            if filled == capacity {
                capacity = min(ceiling, capacity + max(capacity / 2, 64 * 1024))
                guard let grown = realloc(buffer, capacity) else {
                    free(buffer)
                    throw POSIXError(.ENOMEM)
                }
                buffer = grown
            }
            let count = read(descriptor, buffer + filled, capacity - filled)
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                free(buffer)
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
            }
            if count == 0 { break }
            filled += count
        }
        guard filled <= limit else {
            free(buffer)
            return nil
        }
        return Data(bytesNoCopy: buffer, count: filled, deallocator: .free)
    }

    /// The `count` bytes of an open file from `offset`, or nil when the file ends before them
    /// (or either number is negative). Throws a `POSIXError` for a read that fails.
    public static func bytes(in descriptor: Int32, count: Int, at offset: Int) throws -> Data? {
        guard count >= 0, offset >= 0, offset <= Int.max - count else { return nil }
        guard let buffer = malloc(max(1, count)) else { throw POSIXError(.ENOMEM) }
        var filled = 0
        while filled < count {
            let read = pread(descriptor, buffer + filled, count - filled, off_t(offset + filled))
            if read < 0 {
                let code = errno
                if code == EINTR { continue }
                free(buffer)
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
            }
            if read == 0 {
                free(buffer)
                return nil
            }
            filled += read
        }
        return Data(bytesNoCopy: buffer, count: count, deallocator: .free)
    }

    private static func unreadable(_ path: String, what: String, errorNumber: Int32) -> Failure {
        Failure(.fileSystem, "cannot read the \(what): \(String(cString: strerror(errorNumber)))", at: path,
                cause: POSIXError(POSIXErrorCode(rawValue: errorNumber) ?? .EIO))
    }
}
