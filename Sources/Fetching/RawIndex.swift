import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB

/// The raw store's database, `index.sqlite`: one row per fetch, and where each body lies in
/// the pack files, so that storing a page appends to two files instead of creating two. A year
/// of menus is thousands of pages, and creating that many files cost more than reading and
/// parsing them; keeping the bodies themselves in SQLite wrote every byte twice (WAL, then
/// checkpoint) and held the one write lock the parsing threads share.
///
/// WAL with `synchronous = NORMAL`: a commit survives the process being killed, and only a
/// power loss can drop the last ones, which the store treats like any lost cache entry (the
/// page is fetched again). One index and one pack writer per folder per process, shared by
/// every `RawStore` value.
final class RawIndex: Sendable {
    let pool: DatabasePool
    let packs: PackWriter
    let packFolder: URL

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

    /// The index of the store at `root`, opened (and created) on first use.
    static func shared(root: URL) throws -> RawIndex {
        try opened.index(for: root.appendingPathComponent("index.sqlite"))
    }

    /// The indexes this process has open, each with the inode it was opened on: a folder that
    /// was removed and made again (a workspace wiped between runs) gets a new index rather than
    /// writes into a file that no longer has a name.
    private final class OpenIndexes: @unchecked Sendable {
        private let lock = NSLock()
        private var indexes: [String: (index: RawIndex, inode: UInt64)] = [:]

        func index(for file: URL) throws -> RawIndex {
            lock.lock()
            defer { lock.unlock() }
            if let open = indexes[file.path], Self.inode(of: file) == open.inode { return open.index }
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            let index = try RawIndex(file: file)
            guard let inode = Self.inode(of: file) else {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: file.path])
            }
            indexes[file.path] = (index, inode)
            return index
        }

        /// One `stat`, asked on every use of the store, so not through `FileManager`'s attribute
        /// dictionary.
        private static func inode(of file: URL) -> UInt64? {
            var status = stat()
            guard stat(file.path, &status) == 0 else { return nil }
            return UInt64(status.st_ino)
        }
    }
}
