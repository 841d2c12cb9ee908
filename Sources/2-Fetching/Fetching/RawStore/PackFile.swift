import Basics
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Failure {
    /// A failed system call on a file of the raw store, named with its path and errno text; the
    /// store's callers say it is the raw store's (`raw store: cannot append to …`).
    static func systemCall(_ operation: String, path: String, errorNumber: Int32) -> Failure {
        Failure(.fileSystem, "cannot \(operation) \(path): \(String(cString: strerror(errorNumber)))",
                cause: POSIXError(POSIXErrorCode(rawValue: errorNumber) ?? .EIO))
    }
}

/// The pack file this process appends bodies to, `packs/<name>.pack`: one file per process
/// that stores anything, written only by it under a lock, so a body's offset is the file's end
/// just before its write.
/// Bodies are never rewritten; the index says where each one starts and how long it is.
///
/// Nothing is fsynced, on purpose: the raw store is a cache whose every read is checked
/// against a sha256. A process killed mid-append leaves bytes no index row points to; a power
/// loss can leave an indexed body short or wrong, which the read that finds it reports and
/// unindexes, so the page is fetched and stored again.
final class PackWriter: @unchecked Sendable {
    private let folder: URL
    private let lock = NSLock()
    /// The pack being appended to, with its path, made once: building it per body cost more
    /// than writing a small one.
    private var active: (descriptor: Int32, name: String, path: String)?

    init(folder: URL) {
        self.folder = folder
    }

    deinit {
        if let active { close(active.descriptor) }
    }

    /// Appends `body` and says where it went.
    func append(_ body: Data) throws -> (pack: String, offset: Int64) {
        lock.lock()
        defer { lock.unlock() }
        let pack = try current()
        let offset = lseek(pack.descriptor, 0, SEEK_END)
        guard offset >= 0 else { throw Failure.systemCall("seek in", path: pack.path, errorNumber: errno) }
        try body.withUnsafeBytes { try Self.writeAll($0, to: pack.descriptor, path: pack.path) }
        return (pack.name, Int64(offset))
    }

    private func current() throws -> (descriptor: Int32, name: String, path: String) {
        if let active { return active }
        let created = try Self.create(in: folder)
        let opened = (created.descriptor, created.name, Self.path(of: created.name, in: folder))
        active = opened
        return opened
    }

    /// A new, empty pack under a name no other process or writer uses (`<time>-<pid>-<random>`),
    /// with `suffix` after `.pack` while it is not one yet.
    static func create(in folder: URL, suffix: String = "") throws -> (descriptor: Int32, name: String) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = "\(Int(Date().timeIntervalSince1970))-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let file = path(of: name, in: folder) + suffix
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure.systemCall("create", path: file, errorNumber: errno) }
        return (descriptor, name)
    }

    static func path(of name: String, in folder: URL) -> String {
        folder.appendingPathComponent(name + ".pack").path
    }

    /// Writes all of `bytes` at the end of the file, through interruptions.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws {
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let result = write(descriptor, base + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                throw Failure.systemCall("append to", path: path, errorNumber: errno)
            }
            written += result
        }
    }

    /// `length` bytes at `offset` of a pack, handed to `consume` in pieces; false when the pack
    /// name is not one this store makes or the bytes are not all there.
    static func read(folder: URL, pack: String, offset: Int64, length: Int, pieces consume: (Data) throws -> Void)
        throws -> Bool {
        guard isPackName(pack), offset >= 0, length >= 0 else { return false }
        let path = path(of: pack, in: folder)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return false }
            throw Failure.systemCall("open", path: path, errorNumber: errno)
        }
        defer { close(descriptor) }
        var done = 0
        while done < length {
            var piece = Data(count: min(documentPieceBytes, length - done))
            let count = piece.count
            let filled = try piece.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                var filled = 0
                while filled < count {
                    let result = pread(descriptor, base + filled, count - filled, off_t(offset) + off_t(done + filled))
                    if result < 0 {
                        if errno == EINTR { continue }
                        throw Failure.systemCall("read", path: path, errorNumber: errno)
                    }
                    if result == 0 { break }
                    filled += result
                }
                return filled
            }
            guard filled == count else { return false }
            try consume(piece)
            done += count
        }
        return true
    }

    /// Whether `pack` is a name this store makes (digits and dashes), so that an index row
    /// cannot steer a path.
    static func isPackName(_ pack: String) -> Bool {
        !pack.isEmpty && pack.utf8.allSatisfy { (48...57).contains($0) || $0 == UInt8(ascii: "-") }
    }
}
