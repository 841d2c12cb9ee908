import Basics
import Fetching
import FoodModel
import Foundation
import GRDB
import Snapshot

/// What the ledger knows of one partition of a pipeline's work: a (source, key) pair, where the
/// key is a service date, a letter of the catalogue, or a named singleton such as `hours`.
public struct PartitionState: Hashable, Sendable, Codable {
    public enum Status: String, Hashable, Sendable, Codable {
        case done, failed
    }

    public var source: String
    public var key: String
    public var status: Status
    /// The documents the partition was built from, by content address in the raw store.
    public var documents: [SourceDocument]
    public var runId: String
    public var updatedAt: String
    public var message: String?
    /// The code of the failure (`Failure.Code.name`) of a failed partition: a day carried from
    /// its last good version by a later run (history) reports why, as the night that failed did.
    public var failure: String?
    /// The URLs among `documents` whose content may change between runs (a day's menu; not a
    /// recipe page, which is its recipe): fetching just these again tells whether the partition
    /// would read the same bytes. Nil when unknown, and then every document counts as one.
    public var revalidate: [String]?
    /// The newest version of the partition that was published as good: what a refused or
    /// failed fetch leaves in the snapshot, marked stale. Nil until one passed.
    public var lastGood: LastGood?

    public init(source: String, key: String, status: Status, documents: [SourceDocument],
                runId: String, updatedAt: String, message: String? = nil, failure: String? = nil,
                revalidate: [String]? = nil, lastGood: LastGood? = nil) {
        self.lastGood = lastGood
        self.source = source
        self.key = key
        self.status = status
        self.documents = documents
        self.runId = runId
        self.updatedAt = updatedAt
        self.message = message
        self.failure = failure
        self.revalidate = revalidate
    }
}

extension PartitionState {
    /// Its newest fetch was published without some of its parts (`LastGood.lacking`), for want
    /// of a better version, and is its last good version: recorded as not done only so that the
    /// next fetch asks for the whole day again.
    public var publishedInPart: Bool {
        status == .failed && lastGood.map { $0.runId == runId && !$0.lacking.isEmpty } ?? false
    }
}

/// A partition's last good version: the documents it was built from, which the raw store keeps.
public struct LastGood: Hashable, Sendable, Codable {
    public var documents: [SourceDocument]
    public var runId: String
    /// What it produced, for judging later fetches; nil for versions recorded before validation.
    public var summary: PartitionSummary?
    /// The parts it was published without (`PartNotRead.part`), for want of a better version: a
    /// later fetch lacking only these is no worse.
    public var lacking: [String]

    public init(documents: [SourceDocument], runId: String, summary: PartitionSummary?, lacking: [String] = []) {
        self.documents = documents
        self.runId = runId
        self.summary = summary
        self.lacking = lacking
    }

    /// When the newest of its documents was fetched (ISO 8601, UTC).
    public var fetchedAt: String { documents.map(\.fetchedAt).max() ?? "" }
}

/// The pipeline's memory between runs: which partitions are done and from which bytes.
///
/// Each partition is committed on its own as soon as it finishes, in WAL mode, so a run that is
/// killed resumes where it stopped instead of fetching again what it already had.
public final class StateLedger {
    public let url: URL
    private let queue: DatabaseQueue
    /// A private copy's folder, removed with the ledger (see `copy(of:)`).
    private var copyFolder: URL?

    deinit {
        if let copyFolder { try? FileManager.default.removeItem(at: copyFolder) }
    }

    /// A private copy of the ledger at `url` (with its write-ahead log), for a dry run: even a
    /// read-only SQLite connection to a WAL database creates files beside it, and a dry run
    /// leaves the workspace as it found it.
    public static func copy(of url: URL) throws -> StateLedger {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("commissary-ledger-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: url.path + suffix) {
                try FileManager.default.copyItem(atPath: url.path + suffix,
                                                 toPath: folder.appendingPathComponent(url.lastPathComponent).path + suffix)
            }
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw Failure(.fileSystem, "cannot read the state ledger: \(SystemMessage.describe(error))", at: url.path, cause: error)
        }
        let ledger = try StateLedger(url: folder.appendingPathComponent(url.lastPathComponent))
        ledger.copyFolder = folder
        return ledger
    }

    /// The ledger's tables, as each version of the code added to them.
    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for (name, sql) in migrations {
            migrator.registerMigration(name) { db in try db.execute(sql: sql) }
        }
        return migrator
    }

    /// Each version's change to the ledger, in the order they were made; GRDB records a ledger's
    /// migrations by name, so a name, once released, stays.
    private static let migrations: [(name: String, sql: String)] = [
        ("v1-partitions", """
            CREATE TABLE partition (
                source TEXT NOT NULL,
                key TEXT NOT NULL,
                status TEXT NOT NULL,
                documents TEXT NOT NULL,
                run_id TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                message TEXT,
                PRIMARY KEY (source, key)
            )
            """),
        ("v1-runs", """
            CREATE TABLE run (
                run_id TEXT PRIMARY KEY,
                started_at TEXT NOT NULL,
                finished INTEGER NOT NULL DEFAULT 0
            )
            """),
        ("v2-revalidate", "ALTER TABLE partition ADD COLUMN revalidate TEXT"),
        ("v3-last-good", """
            ALTER TABLE partition ADD COLUMN good_documents TEXT;
            ALTER TABLE partition ADD COLUMN good_run_id TEXT;
            ALTER TABLE partition ADD COLUMN good_summary TEXT;
            UPDATE partition SET good_documents = documents, good_run_id = run_id WHERE status = 'done';
            """),
        ("v4-missing-documents", """
            CREATE TABLE missing_document (
                source TEXT NOT NULL,
                url TEXT NOT NULL,
                partition_key TEXT NOT NULL,
                status INTEGER NOT NULL,
                times INTEGER NOT NULL,
                first_missing TEXT NOT NULL,
                last_asked TEXT NOT NULL,
                PRIMARY KEY (source, url)
            )
            """),
        ("v5-failure-code", "ALTER TABLE partition ADD COLUMN failure TEXT"),
        ("v6-good-lacking", "ALTER TABLE partition ADD COLUMN good_lacking TEXT"),
    ]

    /// Opens the ledger at `url`, creating it if needed; a damaged one is a `damagedLedger` failure.
    public convenience init(url: URL) throws {
        switch try Self.open(url) {
        case .opened(let queue): self.init(url: url, queue: queue)
        case .damaged(let damage): throw damage.failure
        }
    }

    private init(url: URL, queue: DatabaseQueue) {
        self.url = url
        self.queue = queue
    }

    /// A ledger opened and checked, or the damage SQLite found in it.
    private enum Opening {
        case opened(DatabaseQueue)
        case damaged(LedgerDamage)
    }

    private static func open(_ url: URL) throws -> Opening {
        var configuration = Configuration()
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(),
                                                 withIntermediateDirectories: true)
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        // One row per partition, read and written by key: a small cache keeps a ledger of ten
        // years of days from holding more memory than one of a year (the default is 2 MB).
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA cache_size = -256")
        }
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            try Self.migrator.migrate(queue)
            let problems = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            guard problems == ["ok"] else {
                return .damaged(LedgerDamage(url: url, detail: problems.prefix(3).joined(separator: "; ")))
            }
            return .opened(queue)
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB {
            return .damaged(LedgerDamage(url: url, detail: error.message ?? "\(error.resultCode)"))
        } catch let error as DatabaseError {
            throw Failure(.fileSystem, "cannot open the state ledger: \(error.message ?? "\(error.resultCode)")"
                          + FreeSpace.note(near: url), at: url.path, cause: error)
        }
    }

    /// Opens the ledger at `url`; a damaged one (a power loss, a disk error) is moved aside to
    /// `<name>.damaged-<runId>` and a new, empty one takes its place, so the pipeline runs
    /// again: every partition is then fetched anew (the raw store keeps the bodies it has).
    /// Returns the ledger and, when one was moved aside, where it went.
    public static func openRecovering(url: URL, runId: String) throws -> (StateLedger, moved: LedgerDamage?) {
        var damaged: LedgerDamage
        switch try open(url) {
        case .opened(let queue): return (StateLedger(url: url, queue: queue), nil)
        case .damaged(let found): damaged = found
        }
        let aside = url.path + ".damaged-\(runId)"
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            do {
                try FileManager.default.moveItem(atPath: url.path + suffix, toPath: aside + suffix)
            } catch {
                throw Failure(.fileSystem, "the state ledger is damaged (\(damaged.detail)) and cannot be moved aside: "
                              + SystemMessage.describe(error), at: url.path, cause: error)
            }
        }
        damaged.movedTo = aside
        return (try StateLedger(url: url), damaged)
    }

    /// Every run that started and never finished, newest last: the chain of runs killed since
    /// the last one that finished. A run killed before it finished anything must not hide the
    /// partitions an earlier killed run finished, and two runs started in the same second must
    /// not be told apart by their random suffix, so resuming asks for all of them.
    public func interruptedRuns() throws -> [String] {
        try queue.read { db in
            try String.fetchAll(db, sql: "SELECT run_id FROM run WHERE finished = 0 ORDER BY rowid")
        }
    }

    public func beginRun(_ runId: String, startedAt: String) throws {
        try queue.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO run (run_id, started_at) VALUES (?, ?)",
                           arguments: [runId, startedAt])
        }
    }

    /// Marks the current run finished, and with it every older run it has taken over from, and
    /// records what a published run learned of missing documents, by source, in the same commit.
    /// Only a published run's misses count: a night blocked because its documents were gone (a
    /// server that moved them all) must not leave them alone for days once they are back.
    public func finishRuns(recording missing: [String: MissingChanges] = [:]) throws {
        try queue.write { db in
            try db.execute(sql: "UPDATE run SET finished = 1")
            for (source, changes) in missing { try Self.write(changes, source: source, in: db) }
        }
    }

    /// Records that `runId` read these partitions again and found them as recorded: only the
    /// run that saw them last, and when, change.
    public func recordSeenAgain(_ partitions: [(source: String, key: String)], runId: String, at time: String) throws {
        guard let first = partitions.first else { return }
        do {
            try queue.write { db in
                let update = try db.cachedStatement(sql: """
                    UPDATE partition SET run_id = ?, updated_at = ? WHERE source = ? AND key = ?
                    """)
                for partition in partitions {
                    try update.execute(arguments: [runId, time, partition.source, partition.key])
                }
            }
        } catch {
            throw Failure(.fileSystem, "cannot record \(partitions.count) partition(s) (\(first.source)/\(first.key) first): "
                          + plainMessage(error) + FreeSpace.note(near: url), at: url.path, cause: error)
        }
    }

    /// Every partition of `source` the ledger knows, by key, read at once. A row holding a value
    /// of a type its column cannot hold, or documents that are not the ledger's JSON (a file
    /// edited by hand or by another program), is the ledger's damage, with the remedy.
    public func states(source: String) throws -> [String: PartitionState] {
        do {
            let stored = try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM partition WHERE source = ?", arguments: [source]).map(StoredState.init)
            }
            // The documents are most of a night's time before its first stage (a year's ledger
            // holds thousands): each partition is decoded on its own, on every core.
            var states: [String: PartitionState] = [:]
            for decoded in stored.mappedOnEveryCore(minimumCount: 64, { entry in Result { try entry.decoded() } }) {
                let state = try decoded.get()
                states[state.key] = state
            }
            return states
        } catch let error as RowDecodingError {
            throw Failure(.damagedLedger, "the state ledger holds a partition of \(source) that cannot be read "
                          + "(\(valueDecodingWords(error))); "
                          + "move the ledger aside and run again: every partition is then fetched anew", at: url.path,
                          cause: error)
        } catch let error as StoredState.Unreadable {
            throw Failure(.damagedLedger, "the state ledger holds a partition of \(source) whose \(error.column) are not "
                          + "what it writes; move the ledger aside and run again: every partition is then fetched anew",
                          at: url.path, cause: error.cause)
        }
    }

    /// The keys of a source's partitions that have a good version, in key order: the days a
    /// `history:` setting can carry into a snapshot from the raw store.
    public func keptKeys(source: String) throws -> [String] {
        try queue.read { db in
            try String.fetchAll(db, sql: """
                SELECT key FROM partition WHERE source = ? AND good_documents IS NOT NULL ORDER BY key
                """, arguments: [source])
        }
    }

    /// The summaries of a source's newest good partitions (by key, at most `limit`): what the
    /// source usually publishes, for judging a partition fetched for the first time.
    public func goodSummaries(source: String, limit: Int) throws -> [PartitionSummary] {
        let stored = try queue.read { db in
            try DatabaseValue.fetchAll(db, sql: """
                SELECT good_summary FROM partition WHERE source = ? AND good_summary IS NOT NULL
                ORDER BY key DESC LIMIT ?
                """, arguments: [source, limit])
        }
        return stored.compactMap { StoredSummary($0)?.decoded() }
    }

    public func record(_ state: PartitionState) throws {
        try record([state])
    }

    /// Records `states` in one transaction: one commit (and one sync of the log) for them all.
    public func record(_ states: [PartitionState]) throws {
        guard let first = states.first else { return }
        let encoder = JSONEncoder()
        func json(_ value: some Encodable) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
        do {
            // Documents as bytes (`DocumentBytes`): the next run reads them all back before its
            // first stage. A last good version that is the partition's newest fetch is the same bytes.
            let rows = try states.map { state -> StatementArguments in
                let documents = DocumentBytes.encode(state.documents)
                let good = state.lastGood.map { $0.documents == state.documents ? documents : DocumentBytes.encode($0.documents) }
                let lacking = try state.lastGood.flatMap { $0.lacking.isEmpty ? nil : try json($0.lacking) }
                return [state.source, state.key, state.status.rawValue, documents, state.runId, state.updatedAt,
                        state.message, try state.revalidate.map(json), good, state.lastGood?.runId,
                        state.lastGood?.summary.map(PartitionSummaryBytes.encode), state.failure, lacking]
            }
            try queue.write { db in
                let insert = try db.cachedStatement(sql: """
                    INSERT OR REPLACE INTO partition
                    (source, key, status, documents, run_id, updated_at, message, revalidate,
                     good_documents, good_run_id, good_summary, failure, good_lacking)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for row in rows { try insert.execute(arguments: row) }
            }
        } catch {
            let partitions = states.count == 1 ? "partition \(first.source)/\(first.key)"
                : "\(states.count) partitions (\(first.source)/\(first.key) first)"
            throw Failure(.fileSystem, "cannot record \(partitions): \(plainMessage(error))" + FreeSpace.note(near: url),
                          at: url.path, cause: error)
        }
    }

    /// The documents of `source` the server last answered 404 or 410 for, by URL.
    public func missingDocuments(source: String) throws -> [String: MissingDocument] {
        try queue.read { db in
            var found: [String: MissingDocument] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM missing_document WHERE source = ?", arguments: [source]) {
                // A row that does not read (a time that is no time, a value of another type) is
                // asked again, as if it were not there.
                guard let document = try? Self.missingDocument(row) else { continue }
                found[document.url] = document
            }
            return found
        }
    }

    /// One row of `missing_document`; nil when its times are not times.
    private static func missingDocument(_ row: Row) throws -> MissingDocument? {
        guard let first = try ISOTimestamp.date(fromMillisecondString: row.decode(forColumn: "first_missing")),
              let last = try ISOTimestamp.date(fromMillisecondString: row.decode(forColumn: "last_asked")) else { return nil }
        return try MissingDocument(url: row.decode(forColumn: "url"), partition: row.decode(forColumn: "partition_key"),
                                   status: row.decode(forColumn: "status"), times: row.decode(forColumn: "times"),
                                   firstMissing: first, lastAsked: last)
    }

    private static func write(_ changes: MissingChanges, source: String, in db: Database) throws {
        if !changes.missing.isEmpty {
            let insert = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO missing_document
                (source, url, partition_key, status, times, first_missing, last_asked) VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
            for document in changes.missing {
                try insert.execute(arguments: [source, document.url, document.partition, document.status, document.times,
                                               ISOTimestamp.millisecondString(from: document.firstMissing),
                                               ISOTimestamp.millisecondString(from: document.lastAsked)])
            }
        }
        if !changes.found.isEmpty {
            let delete = try db.cachedStatement(sql: "DELETE FROM missing_document WHERE source = ? AND url = ?")
            for url in changes.found { try delete.execute(arguments: [source, url]) }
        }
    }
}

/// A `partition` row's columns as stored, read on the ledger's connection; its documents are
/// decoded apart (`decoded`), off the connection.
private struct StoredState: Sendable {
    var source, key, status, runId, updatedAt: String
    var message, failure, revalidate, goodRunId, goodLacking: String?
    var documents: StoredDocuments
    var goodDocuments: StoredDocuments?
    var goodSummary: StoredSummary?

    /// A partition's documents as a ledger holds them: bytes (`DocumentBytes`), or the JSON text
    /// ledgers wrote before, still read.
    enum StoredDocuments: Equatable, Sendable {
        case bytes(Data)
        case json(String)

        /// Throws `StoredState.Unreadable` for a value of another type.
        init(_ value: DatabaseValue, column: String) throws {
            switch value.storage {
            case .blob(let data): self = .bytes(data)
            case .string(let text): self = .json(text)
            default: throw Unreadable(column: column)
            }
        }

        /// Throws `StoredState.Unreadable` for bytes or JSON the ledger did not write.
        func decoded(_ decoder: JSONDecoder, column: String) throws -> [SourceDocument] {
            do {
                switch self {
                case .bytes(let data): return try DocumentBytes.decode(data)
                case .json(let text): return try decoder.decode([SourceDocument].self, from: Data(text.utf8))
                }
            } catch {
                throw Unreadable(column: column, cause: error)
            }
        }
    }

    /// A column that holds neither the ledger's bytes nor its JSON.
    struct Unreadable: Error {
        var column: String
        var cause: (any Error)?
    }

    /// Throws `RowDecodingError` for a value its column cannot hold.
    init(_ row: Row) throws {
        source = try row.decode(forColumn: "source")
        key = try row.decode(forColumn: "key")
        status = try row.decode(forColumn: "status")
        documents = try StoredDocuments(row["documents"] as DatabaseValue, column: "documents")
        runId = try row.decode(forColumn: "run_id")
        updatedAt = try row.decode(forColumn: "updated_at")
        message = try row.decode(forColumn: "message")
        failure = try row.decode(forColumn: "failure")
        revalidate = try row.decode(forColumn: "revalidate")
        let good = row["good_documents"] as DatabaseValue
        goodDocuments = good.isNull ? nil : try StoredDocuments(good, column: "good_documents")
        goodRunId = try row.decode(forColumn: "good_run_id")
        goodSummary = StoredSummary(row["good_summary"] as DatabaseValue)
        goodLacking = try row.decode(forColumn: "good_lacking")
    }

    /// Throws `Unreadable` for a column that is not what the ledger writes.
    func decoded() throws -> PartitionState {
        let decoder = JSONDecoder()
        let read = try documents.decoded(decoder, column: "documents")
        // A partition's last good version is most often the one it read last: decoded once.
        let lacking: [String]
        do {
            lacking = try goodLacking.map { try decoder.decode([String].self, from: Data($0.utf8)) } ?? []
        } catch {
            throw Unreadable(column: "good_lacking", cause: error)
        }
        let lastGood = try goodDocuments.map { stored in
            LastGood(documents: stored == documents ? read : try stored.decoded(decoder, column: "good_documents"),
                     runId: goodRunId ?? "",
                     summary: goodSummary?.decoded(), lacking: lacking)
        }
        let revalidated: [String]?
        do {
            revalidated = try revalidate.map { try decoder.decode([String].self, from: Data($0.utf8)) }
        } catch {
            throw Unreadable(column: "revalidate", cause: error)
        }
        return PartitionState(
            source: source, key: key, status: PartitionState.Status(rawValue: status) ?? .failed, documents: read,
            runId: runId, updatedAt: updatedAt, message: message, failure: failure, revalidate: revalidated,
            lastGood: lastGood)
    }
}

/// A last good version's summary as a ledger holds it: bytes (`PartitionSummaryBytes`), or the
/// JSON text ledgers wrote before, still read. A summary that reads as neither is as none: the
/// partition's next fetch is then judged without its last good figures, as before it had any.
private enum StoredSummary: Sendable {
    case bytes(Data)
    case json(String)

    /// Nil for NULL, and for a value of another type.
    init?(_ value: DatabaseValue) {
        switch value.storage {
        case .blob(let data): self = .bytes(data)
        case .string(let text): self = .json(text)
        default: return nil
        }
    }

    func decoded() -> PartitionSummary? {
        switch self {
        case .bytes(let data): try? PartitionSummaryBytes.decode(data)
        case .json(let text): try? JSONDecoder().decode(PartitionSummary.self, from: Data(text.utf8))
        }
    }
}

/// What partitions learned of their source's missing documents: those answered 404 or 410
/// (again), and those known missing that answered.
public struct MissingChanges: Sendable {
    public var missing: [MissingDocument]
    public var found: [String]

    public init(missing: [MissingDocument] = [], found: [String] = []) {
        self.missing = missing
        self.found = found
    }

    public mutating func add(_ other: MissingChanges) {
        missing += other.missing
        found += other.found
    }
}

/// A ledger SQLite cannot read as a database: the file is damaged. A finding, reported as a
/// warning once the file is moved aside, or thrown as its `failure`.
public struct LedgerDamage: Sendable, CustomStringConvertible {
    public var url: URL
    public var detail: String
    /// Where `openRecovering` moved the damaged file.
    public var movedTo: String?

    public var failure: Failure { Failure(.damagedLedger, message, at: url.path) }
    public var description: String { failure.description }

    private var message: String {
        if let movedTo {
            return "the state ledger was damaged (\(detail)); moved aside to \(movedTo) and started anew, "
                + "so every partition is fetched again"
        }
        return "the state ledger is damaged (\(detail)); move it aside and run again to start a new one"
    }
}
