import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Basics
import GRDB
import Synchronization

/// The raw store's database, `index.sqlite`: one row per fetch, and where each body lies in
/// the pack files, so that storing a page appends to two files instead of creating two. A year
/// of menus is thousands of pages, and creating that many files cost more than reading and
/// parsing them; keeping the bodies themselves in SQLite wrote every byte twice (WAL, then
/// checkpoint) and held the one write lock the parsing threads share.
///
/// WAL with `synchronous = NORMAL`: a commit survives the process being killed, and only a
/// power loss can drop the last ones, which the store treats like any lost cache entry (the
/// page is fetched again). Records are committed in batches (`RawIndex+Batch.swift`), so a kill
/// also loses those not yet committed. One index and one pack writer per folder per process,
/// shared by every `RawStore` value.
final class RawIndex: Sendable {
    let pool: DatabasePool
    let packs: PackWriter
    let packFolder: URL
    /// Records added and not yet committed.
    let pending = Mutex(PendingRecords())

    private init(file: URL) throws {
        packFolder = file.deletingLastPathComponent().appendingPathComponent("packs", isDirectory: true)
        packs = PackWriter(folder: packFolder)
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in
            // Lookups by key touch a few pages each, which the OS caches anyway; SQLite's own
            // cache (2 MB per connection by default, on the writer and each reader) would fill
            // with the index as it grows and make a ten-year run hold more than a one-year one.
            try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -256")
        }
        pool = try DatabasePool(path: file.path, configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-records-and-packs") { db in
            try db.execute(sql: """
                CREATE TABLE record (id INTEGER PRIMARY KEY, url TEXT NOT NULL, line TEXT NOT NULL);
                CREATE INDEX record_by_url ON record (url, id);
                CREATE TABLE packed (
                    sha256 TEXT PRIMARY KEY, pack TEXT NOT NULL, offset INTEGER NOT NULL, length INTEGER NOT NULL
                );
                """)
        }
        try migrator.migrate(pool)
    }

    private static let opened = OpenIndexes()

    /// The index of the store at `root`, opened (and created) on first use. Once this process
    /// has found it damaged, every use fails at once with that finding instead of asking SQLite
    /// again.
    static func shared(root: URL) throws -> RawIndex {
        try shared(file: file(in: root).path)
    }

    /// The index at `file` (`file(in:)`'s path), as `shared(root:)`: for a caller that asks on
    /// every document and keeps the path rather than building it each time.
    static func shared(file: String) throws -> RawIndex {
        try opened.index(at: file)
    }

    static func file(in root: URL) -> URL {
        root.appendingPathComponent("index.sqlite")
    }

    /// SQLite's word that the file is not a database (`SQLITE_NOTADB`) or is malformed
    /// (`SQLITE_CORRUPT`): damage that asking again will not mend.
    static func isDamage(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// Remembers that SQLite found the index at `root` damaged, so that the run stops once for it
    /// (`damageFound`) rather than failing partition after partition with the same words.
    static func noteDamage(root: URL, detail: String) {
        opened.noteDamage(file(in: root), detail: detail)
    }

    /// What was noted of the index at `file` (`file(in:)`'s path), as for `index(at:)`: the
    /// store asks before every commit, and keeps the path rather than building it each time.
    static func damageFound(file: String) -> String? {
        opened.damage(of: file)
    }

    /// The index this process has open at `file`, if any, without asking the file system
    /// whether the name still holds the file it was opened on: records wait in the index they
    /// were added to, so a commit needs that one, and none waits where none is open.
    static func openedIndex(file: String) -> RawIndex? {
        opened.openedIndex(at: file)
    }

    /// Checks the index at `root` (SQLite's `quick_check`) before a run relies on it. A damaged
    /// one, with its `-wal`, `-shm` and `-journal`, is moved aside to
    /// `index.sqlite.damaged-<label>` and a new, empty one is started. Nothing is lost that a
    /// fetch cannot bring back: the index is a cache of where bodies lie, and the packs alone
    /// cannot say it again (a pack is bodies end to end, with no record of where one ends).
    static func openRecovering(root: URL, label: String) throws -> RawIndexDamage? {
        try opened.recovering(file(in: root), label: label, duringRun: false)
    }

    /// Moves aside an index found damaged while a run used it, once nothing uses it any more.
    static func setAside(root: URL, label: String) throws -> RawIndexDamage? {
        try opened.recovering(file(in: root), label: label, duringRun: true)
    }

    /// The indexes this process has open, each with the inode it was opened on: a folder that
    /// was removed and made again (a workspace wiped between runs) gets a new index rather than
    /// writes into a file that no longer has a name.
    private final class OpenIndexes: @unchecked Sendable {
        private let lock = NSLock()
        private var indexes: [String: (index: RawIndex, inode: UInt64)] = [:]
        /// SQLite's words for the damage found in an index, by path.
        private var damaged: [String: String] = [:]
        /// Indexes moved aside, kept open until the process ends: closing one would checkpoint
        /// into, or delete, the `-wal` that now belongs to the new index under the old name, and
        /// a task may still hold it (closing a pool in use is GRDB's misuse).
        private var retired: [RawIndex] = []

        func index(at path: String) throws -> RawIndex {
            lock.lock()
            defer { lock.unlock() }
            if let detail = damaged[path] { throw RawIndexDamage(path: path, detail: detail).failure }
            if let open = indexes[path], Self.inode(of: path) == open.inode { return open.index }
            return try open(URL(fileURLWithPath: path))
        }

        func openedIndex(at path: String) -> RawIndex? {
            lock.lock()
            defer { lock.unlock() }
            return indexes[path]?.index
        }

        func noteDamage(_ file: URL, detail: String) {
            lock.lock()
            defer { lock.unlock() }
            if damaged[file.path] == nil { damaged[file.path] = detail }
        }

        func damage(of path: String) -> String? {
            lock.lock()
            defer { lock.unlock() }
            return damaged[path]
        }

        /// Checks the index and, when it is damaged, moves it aside and opens a new one, under
        /// an exclusive lock on the store's folder: two runs of different pipelines sharing a
        /// workspace must not both move it, the second taking the first one's new index.
        func recovering(_ file: URL, label: String, duringRun: Bool) throws -> RawIndexDamage? {
            lock.lock()
            defer { lock.unlock() }
            let folder = file.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let folderLock = try FolderLock(folder)
            defer { withExtendedLifetime(folderLock) {} }
            var found = damaged[file.path]
            if found == nil {
                do {
                    let problems = try open(file).pool.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
                    if problems != ["ok"] { found = problems.prefix(3).joined(separator: "; ") }
                } catch where RawIndex.isDamage(error) {
                    found = (error as? DatabaseError)?.message ?? "\(error)"
                }
            }
            guard let detail = found else { return nil }
            var report = RawIndexDamage(path: file.path, detail: detail, duringRun: duringRun)
            if let open = indexes.removeValue(forKey: file.path) { retired.append(open.index) }
            let aside = file.path + ".damaged-\(label)"
            for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: file.path + suffix) {
                do {
                    try FileManager.default.moveItem(atPath: file.path + suffix, toPath: aside + suffix)
                } catch {
                    report.cannotMove = SystemMessage.describe(error)
                    throw report.failure
                }
            }
            report.movedTo = aside
            damaged[file.path] = nil
            _ = try open(file)
            return report
        }

        /// The open index for `file`, or a new one; called with `lock` held.
        private func open(_ file: URL) throws -> RawIndex {
            if let open = indexes[file.path], Self.inode(of: file.path) == open.inode { return open.index }
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            let index = try RawIndex(file: file)
            guard let inode = Self.inode(of: file.path) else {
                throw Failure.fileSystem("removed as it was opened", path: file.path)
            }
            indexes[file.path] = (index, inode)
            return index
        }

        /// One `stat`, asked on every use of the store, so not through `FileManager`'s attribute
        /// dictionary.
        private static func inode(of path: String) -> UInt64? {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            return UInt64(status.st_ino)
        }
    }

    /// An exclusive `flock` on a folder, held while the object lives; the kernel drops it when
    /// the process dies.
    private final class FolderLock {
        private let descriptor: Int32

        init(_ folder: URL) throws {
            descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { throw Failure.systemCall("open", path: folder.path, errorNumber: errno) }
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let code = errno
                    close(descriptor)
                    throw Failure.systemCall("lock", path: folder.path, errorNumber: code)
                }
            }
        }

        deinit {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }
}

/// The raw store's index, found damaged: SQLite says it is not a database or is malformed. A
/// finding, reported as a warning once the index is moved aside, or thrown as its `failure`.
public struct RawIndexDamage: Sendable, CustomStringConvertible {
    public var path: String
    /// SQLite's words.
    public var detail: String
    /// Found while a run was using it, which then stopped, rather than before it began.
    public var duringRun = false
    /// Where it was moved aside to, when it was.
    public var movedTo: String?
    /// Why it could not be moved aside, when it could not.
    public var cannotMove: String?

    public var failure: Failure { Failure(.damagedRawIndex, message, at: path) }
    public var description: String { failure.description }

    private var message: String {
        let found = duringRun ? "was found damaged during the run" : "was damaged"
        if let movedTo {
            return "the raw store's index \(found) (\(detail)); moved aside to \(movedTo)"
                + (duringRun ? "; the run stopped before publishing, and the next one starts with a new index"
                             : " and a new one started, so documents are fetched again as they are needed")
        }
        if let cannotMove {
            return "the raw store's index is damaged (\(detail)) and cannot be moved aside (\(cannotMove)): "
                + "move it and its -wal and -shm files aside by hand and run again"
        }
        return "the raw store's index is damaged (\(detail)); the next run moves it aside and starts a new one"
    }
}
