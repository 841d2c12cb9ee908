import Basics
import FoodModel
import Foundation
import GRDB

/// A snapshot under construction: a private SQLite file that nobody reads until it is
/// published, so it is written fast (no journal on disk, no fsync) and thrown away on failure.
public final class StagingSnapshot {
    public let url: URL
    let queue: DatabaseQueue
    private let menus = MenuWriter()
    /// The schema's secondary indexes, dropped while the rows go in and made again by `finish`:
    /// building an index once over the finished table is several times cheaper than keeping
    /// it sorted through a million inserts.
    private var deferredIndexes: [String] = []

    /// Creates an empty staging database at `url` with the current schema, replacing any
    /// leftover from a run that was killed.
    public init(creatingAt url: URL) throws {
        self.url = url
        let fileManager = FileManager.default
        try? fileManager.createDirectory(at: url.deletingLastPathComponent(),
                                         withIntermediateDirectories: true)
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? fileManager.removeItem(atPath: url.path + suffix)
        }
        var configuration = Configuration()
        // Menu items go in before the foods they name (the foods are written once every
        // partition is in), so references are not enforced while writing; publishing runs
        // `PRAGMA foreign_key_check` on the finished file and refuses it if one is broken.
        configuration.foreignKeysEnabled = false
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF")
        }
        do {
            queue = try DatabaseQueue(path: url.path, configuration: configuration)
            try SnapshotSchema.migrator().migrate(queue)
            deferredIndexes = try queue.write { db in
                let indexes = try Row.fetchAll(db, sql: """
                    SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY rowid
                    """)
                for index in indexes {
                    let name: String = index["name"]
                    try db.execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
                }
                return indexes.map { $0["sql"] }
            }
        } catch {
            throw SnapshotError("cannot create the staging database: \(plainMessage(error))\(FreeSpace.note(near: url))",
                                path: url.path, code: .environment)
        }
    }

    /// Writes one service day's menus, in one transaction with cached statements (docs/publishing.md:
    /// batching matters a thousand times more than anything else here). Days are written in the
    /// order they are given, which sets their ids.
    /// `labelVersions`: the version of its food's label each item was served with that day.
    public func append(_ day: ServiceDay, labelVersions: [FoodID: Int] = [:]) throws {
        do {
            try queue.write { db in try menus.append(day, labelVersions: labelVersions, to: db) }
        } catch {
            throw SnapshotError("cannot write the menus of \(day.date): \(plainMessage(error))\(FreeSpace.note(near: url))",
                                path: url.path, code: .environment)
        }
    }

    /// Writes everything but the menus (already appended, and summed up in `menus`), makes the
    /// schema's indexes again and builds the search indexes, in one transaction.
    /// Returns warnings about what was written (ids a dump read more than once).
    @discardableResult
    public func finish(_ dataset: Dataset, menus digest: MenuDigest, codes knownCodes: [DietaryCode]) throws -> [String] {
        do {
            let scratch = scratch
            let warnings = try queue.write { db in
                let warnings = try DatasetWriter(db: db, scratch: scratch).write(dataset, menus: digest, knownCodes: knownCodes)
                for index in deferredIndexes { try db.execute(sql: index) }
                try SearchIndex.rebuild(db)
                return warnings
            }
            deferredIndexes = []
            return warnings
        } catch let error as SnapshotError {
            throw error
        } catch {
            throw SnapshotError("cannot write the dataset: \(plainMessage(error))\(FreeSpace.note(near: url))", path: url.path,
                                code: .environment)
        }
    }


    /// Fills the housekeeping tables `_meta`, `_runs`, `_checks`, `_sources`, `_stale` and
    /// `_table_keys`.
    public func record(run: RunRecord, checks: [CheckOutcome], documents: [SourceDocument],
                       stale: [StalePartition] = []) throws {
        do {
            try queue.write { db in
                let meta: [(String, String)] = [
                    ("schema_version", String(SnapshotSchema.version)),
                    ("pipeline", run.pipeline),
                    ("run_id", run.runId),
                    ("built_at", run.startedAt),
                    ("code_version", run.codeVersion),
                    ("sources", run.sources.joined(separator: "\n")),
                    ("licence", run.licence),
                    (RunRecord.inputsMetaKey, run.inputsSHA256),
                ]
                let links = [("licence_url", run.licenceURL), ("source_url", run.sourceURL)]
                for (key, value) in meta + links.compactMap({ key, value in value.map { (key, $0) } }) {
                    try db.execute(sql: "INSERT OR REPLACE INTO _meta (key, value) VALUES (?, ?)",
                                   arguments: [key, value])
                }
                let arguments = String(decoding: try JSONEncoder().encode(run.arguments), as: UTF8.self)
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO _runs
                        (run_id, pipeline, started_at, code_version, arguments, partitions)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [run.runId, run.pipeline, run.startedAt, run.codeVersion, arguments,
                                run.partitions])
                let check = try db.cachedStatement(sql: """
                    INSERT INTO _checks (run_id, name, severity, passed, value, message)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """)
                for outcome in checks {
                    try check.execute(arguments: [run.runId, outcome.name, outcome.severity.rawValue,
                                                  outcome.passed, outcome.value, outcome.message])
                }
                let source = try db.cachedStatement(sql: """
                    INSERT OR IGNORE INTO _sources (url, fetched_at, status, sha256, charset, bytes)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """)
                for document in documents.sorted(by: { ($0.url, $0.sha256) < ($1.url, $1.sha256) }) {
                    try source.execute(arguments: [document.url, document.fetchedAt, document.status,
                                                   document.sha256, document.charset, document.byteCount])
                }
                for partition in stale {
                    try db.execute(
                        sql: """
                            INSERT OR REPLACE INTO _stale (source, partition, kept_fetched_at, kept_run_id, reason)
                            VALUES (?, ?, ?, ?, ?)
                            """,
                        arguments: [partition.source, partition.partition, partition.keptFetchedAt,
                                    partition.keptRunId, partition.reason])
                }
                try TableKeys.record(db)
            }
        } catch {
            throw SnapshotError("cannot record the run: \(plainMessage(error))\(FreeSpace.note(near: url))", path: url.path,
                                code: .environment)
        }
    }

    /// Rows per data table, for checks and the run summary.
    public func rowCounts() throws -> [String: Int] {
        try queue.read { db in try SnapshotReader.rowCounts(db) }
    }

    /// Removes the staging files, the run's scratch files among them; used after publishing and
    /// after a failed run.
    public func discard() {
        try? queue.close()
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
        let folder = url.deletingLastPathComponent()
        let prefix = scratch.lastPathComponent + "-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(prefix) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// The path the run's scratch files are named from (`RunContext.scratchFile`): beside the
    /// staging database, so that they go with it and a killed run's are swept with its.
    public var scratch: URL { URL(fileURLWithPath: url.path + "-scratch") }
}
