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
            throw Failure.systemCall("rename", path: partialPath, errorNumber: errno)
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
        } catch let failure as Failure where failure.code == .fileSystem {
            throw Failure(.store, "raw store: \(failure.message)", at: url, cause: failure)
        } catch let damaged as Failure where damaged.code == .damagedRawIndex {
            throw Failure(.store, "raw store: \(damaged)", at: url, cause: damaged)
        } catch {
            throw Failure(.store, "raw store: cannot open \(root.path)/index.sqlite: \(indexFailure(error))", at: url, cause: error)
        }
        do {
            let record = try await upstream.stream(url) { piece in
                do {
                    try pack.append(piece)
                } catch let failure as Failure where failure.code == .fileSystem {
                    throw Failure(.store, "raw store: \(failure.message)", at: url, cause: failure)
                }
                try consume(piece)
            }
            guard record.sha256 == pack.digest.hex, record.size == pack.digest.byteCount else {
                throw Failure(.store, "refusing to store a body whose sha256 does not match its bytes", at: url)
            }
            do {
                try pack.commit()
            } catch let failure as Failure where failure.code == .fileSystem {
                throw Failure(.store, "raw store: \(failure.message)", at: url, cause: failure)
            }
            if try index.addCommitting(record, placing: { (pack.name, 0) }) { pack.discard() }
            return record
        } catch {
            pack.discard()
            if let error = error as? DatabaseError {
                throw Failure(.store, "raw store: \(root.path)/index.sqlite: \(indexFailure(error))", at: url, cause: error)
            }
            throw error
        }
    }
}
