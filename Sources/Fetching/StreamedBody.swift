import Basics
import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How large the pieces are in which a streamed document is read and handed over: large enough
/// that a system call per piece costs nothing, small enough that holding one costs nothing.
public let documentPieceBytes = 4 << 20

/// Hands `body` to `consume` in pieces, as a streamed document would arrive.
public func handOver(_ body: Data, to consume: (Data) throws -> Void) throws {
    var start = body.startIndex
    while start < body.endIndex {
        let end = body.index(start, offsetBy: documentPieceBytes, limitedBy: body.endIndex) ?? body.endIndex
        try consume(body[start..<end])
        start = end
    }
}

/// One streamed body on its way into the raw store: a pack of its own, written as the pieces
/// pass, hashed as they are written. Its sha256 is known only at the end, so a body the store
/// already has is written once more and then deleted, never held in memory to compare first.
///
/// Until the body is whole the pack is `<name>.pack.partial`: a run killed mid-stream leaves that
/// name, which the next stream removes once the process named in it is gone (a dump's pack can
/// be gigabytes, too much to leave behind each time a night is killed).
final class PackStream {
    let name: String
    let folder: URL
    private var descriptor: Int32
    private var committed = false
    private(set) var digest = SHA256Stream()

    init(folder: URL) throws {
        (descriptor, name) = try PackWriter.create(in: folder, suffix: Self.partialSuffix)
        self.folder = folder
    }

    deinit {
        close()
    }

    static let partialSuffix = ".partial"

    var path: String { PackWriter.path(of: name, in: folder) }
    private var partialPath: String { path + Self.partialSuffix }

    func append(_ piece: Data) throws {
        try piece.withUnsafeBytes { try PackWriter.writeAll($0, to: descriptor, path: partialPath) }
        digest.update(piece)
    }

    /// Closes the pack and gives it its final name, under which the index may point at it.
    func commit() throws {
        close()
        guard rename(partialPath, path) == 0 else {
            throw FileFailure(operation: "rename", path: partialPath, code: errno)
        }
        committed = true
    }

    /// Closes and deletes the pack: the store had the body already, or the stream failed.
    func discard() {
        close()
        unlink(committed ? path : partialPath)
    }

    private func close() {
        if descriptor >= 0 { closeDescriptor(descriptor) }
        descriptor = -1
    }

    /// Removes the partial packs of processes that no longer run (killed mid-stream). A pack
    /// name carries its writer's process id; a process that still runs may still be writing.
    static func removeAbandoned(in folder: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasSuffix(".pack" + partialSuffix) {
            let parts = name.split(separator: "-")
            guard parts.count == 3, let pid = pid_t(parts[1]), pid > 0, pid != getpid(),
                  kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            unlink(folder.appendingPathComponent(name).path)
        }
    }
}

/// `close(2)`, by a name the methods called `close` do not hide.
private func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}

extension RawStore {
    /// Streams `url` from `upstream` into the store, handing each piece on to `consume` as it is
    /// written, and records the fetch: a body of any size passes through without being held.
    public func stream(_ url: String, from upstream: any DocumentSource, into consume: (Data) throws -> Void)
        async throws -> FetchRecord {
        let index: RawIndex
        let pack: PackStream
        do {
            index = try RawIndex.shared(root: root)
            PackStream.removeAbandoned(in: index.packFolder)
            pack = try PackStream(folder: index.packFolder)
        } catch let failure as FileFailure {
            throw FetchError(.store, url: url, "raw store: \(failure)")
        } catch {
            throw FetchError(.store, url: url, "raw store: cannot open \(root.path)/index.sqlite: \(error)")
        }
        do {
            let record = try await upstream.stream(url) { piece in
                do {
                    try pack.append(piece)
                } catch let failure as FileFailure {
                    throw FetchError(.store, url: url, "raw store: \(failure)")
                }
                try consume(piece)
            }
            guard record.sha256 == pack.digest.hex, record.size == pack.digest.byteCount else {
                throw FetchError(.store, url: url, "refusing to store a body whose sha256 does not match its bytes")
            }
            do {
                try pack.commit()
            } catch let failure as FileFailure {
                throw FetchError(.store, url: url, "raw store: \(failure)")
            }
            if try Self.index(record, packedIn: pack.name, of: index) { pack.discard() }
            return record
        } catch {
            pack.discard()
            if let error = error as? DatabaseError {
                throw FetchError(.store, url: url, "raw store: \(root.path)/index.sqlite: \(error.message ?? "\(error)")")
            }
            throw error
        }
    }

    /// Adds the record and, unless the store has that body already, where its pack is: true
    /// when it had it (the pack is then not needed).
    private static func index(_ record: FetchRecord, packedIn pack: String, of index: RawIndex) throws -> Bool {
        let line = String(decoding: try FetchRecord.encode(record), as: UTF8.self)
        return try index.pool.write { db in
            let known = try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM packed WHERE sha256 = ?)"),
                arguments: [record.sha256]) ?? false
            if !known {
                try db.cachedStatement(sql: "INSERT INTO packed (sha256, pack, offset, length) VALUES (?, ?, 0, ?)")
                    .execute(arguments: [record.sha256, pack, record.size])
            }
            try db.cachedStatement(sql: "INSERT INTO record (url, line) VALUES (?, ?)")
                .execute(arguments: [record.url, line])
            return known
        }
    }

    /// Hands the bytes of a record to `consume` in pieces, checking them against its sha256 as
    /// they pass. Damage is known only at the end, after the pieces before it were handed over:
    /// the caller must treat the whole as failed then. The damaged copy is dropped from the
    /// index, so that the next fetch stores the document again.
    public func streamBody(of record: FetchRecord, into consume: (Data) throws -> Void) throws {
        guard Self.isDigest(record.sha256) else {
            throw FetchError(.store, url: record.url, "raw store: the record's sha256 is not 64 hex digits")
        }
        let index: RawIndex
        let packed: Row?
        do {
            index = try RawIndex.shared(root: root)
            packed = try index.pool.unsafeRead { db in
                try Row.fetchOne(db.cachedStatement(sql: "SELECT pack, offset, length FROM packed WHERE sha256 = ?"),
                                 arguments: [record.sha256])
            }
        } catch {
            throw FetchError(.store, url: record.url, "raw store: cannot read \(root.path)/index.sqlite: \(error)")
        }
        guard let packed else {
            throw FetchError(.store, url: record.url,
                             "raw store: the body of \(record.sha256) is not stored (dropped when found damaged); fetch it again")
        }
        let pack: String = packed["pack"]
        var digest = SHA256Stream()
        let complete: Bool
        do {
            complete = try PackWriter.read(folder: index.packFolder, pack: pack, offset: packed["offset"],
                                           length: packed["length"]) { piece in
                digest.update(piece)
                try consume(piece)
            }
        } catch let failure as FileFailure {
            throw FetchError(.store, url: record.url, "raw store: \(failure)")
        }
        guard complete, digest.hex == record.sha256 else {
            _ = try? index.pool.write { db in
                try db.execute(sql: "DELETE FROM packed WHERE sha256 = ?", arguments: [record.sha256])
            }
            throw FetchError(.store, url: record.url,
                             "raw store: the body of \(record.sha256) in packs/\(pack).pack is missing or no longer matches its sha256")
        }
    }
}

extension PackWriter {
    /// `length` bytes at `offset` of a pack, handed to `consume` in pieces; false when the pack
    /// name is not one this store makes or the bytes are not all there.
    static func read(folder: URL, pack: String, offset: Int64, length: Int, pieces consume: (Data) throws -> Void)
        throws -> Bool {
        guard isPackName(pack), offset >= 0, length >= 0 else { return false }
        let path = path(of: pack, in: folder)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return false }
            throw FileFailure(operation: "open", path: path, code: errno)
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
                        throw FileFailure(operation: "read", path: path, code: errno)
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
}
