import Foundation
import GRDB

/// A pipeline's latest snapshot as a run finds it when it opens, and the one connection on which
/// the night reads it: what revalidation asks (the fingerprint of the inputs it was built from,
/// the partitions it carries stale), what staging continues from it, the labels the harvest may
/// keep, the row counts the checks compare with, its review kept and whether it can be compared
/// at all. Each opening of the file parsed its schema (about 2 ms on a year of menus), and a
/// night opened it at each of those places.
///
/// A published snapshot is a closed, read-only file, so one connection serves the whole night.
/// The facts read at the opening are nil when the file cannot be read (a damaged one is then
/// never current and keeps no labels), and `read` then fails as `SnapshotReader.read` does.
public struct LatestSnapshot: Sendable {
    public let url: URL
    private let connection: Result<DatabaseQueue, any Error>
    /// Whether its `_meta` could be read: a snapshot that cannot is compared with nothing.
    public private(set) var isReadable: Bool
    /// `_meta.inputs_sha256`; nil for a snapshot from before it was recorded.
    public private(set) var inputsSHA256: String?
    public private(set) var stalePartitions: [StalePartition]?

    public init(reading url: URL) {
        self.url = url
        connection = Result { try SnapshotReader.open(url) }
        let facts = try? connection.get().read { db in
            (meta: try? SnapshotReader.meta(db), stale: try? SnapshotReader.stalePartitions(in: db))
        }
        isReadable = facts?.meta != nil
        inputsSHA256 = facts?.meta?[RunRecord.inputsMetaKey]
        stalePartitions = facts?.stale ?? nil
    }

    /// Reads the snapshot on the night's connection; fails as `SnapshotReader.read` does,
    /// naming the file.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try SnapshotReader.read(try connection.get(), at: url, body)
    }

    /// The same file, found damaged (`pageProblems`): treated as one whose `_meta` cannot be
    /// read, never current, keeping no labels, compared with nothing.
    public func foundDamaged() -> LatestSnapshot {
        var damaged = self
        damaged.isReadable = false
        damaged.inputsSHA256 = nil
        damaged.stalePartitions = nil
        return damaged
    }

    /// What `PRAGMA quick_check` finds wrong with the file's pages, or the failure to read
    /// it; empty when it is sound.
    public func pageProblems() -> [String] {
        do {
            return try read { db in try String.fetchAll(db, sql: "PRAGMA quick_check").filter { $0 != "ok" } }
        } catch {
            return [plainMessage(error)]
        }
    }

    /// Rows per data table.
    public func rowCounts() throws -> [String: Int] {
        try read { try SnapshotReader.rowCounts($0) }
    }

    /// What keeping last night's labels reads of it (`LastGoodFoods`).
    public func readLabels<T>(_ body: (PublishedLabels) throws -> T) throws -> T {
        try read { db in try body(PublishedLabels(db: db)) }
    }

    /// The `_checks` of the run that built it.
    func checks() throws -> [CheckOutcome] {
        try read { try SnapshotReader.checks($0) }
    }
}
