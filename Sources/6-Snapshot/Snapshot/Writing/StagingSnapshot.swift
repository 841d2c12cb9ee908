import Basics
import FoodModel
import Foundation
import GRDB

/// A snapshot under construction: a private SQLite file that nobody reads until it is
/// published, so it is written fast (no journal on disk, no fsync) and thrown away on failure.
public final class StagingSnapshot {
    public let url: URL
    private let database: DatabaseQueue
    /// The database, once it has its schema (`schemaReady`): every use of it goes through here.
    /// A write takes it before its own `do`, so that a schema that could not be made is said as
    /// itself, not as a failure of that write.
    var queue: DatabaseQueue {
        get throws {
            try schemaReady()
            return database
        }
    }
    private let menus: MenuWriter
    /// Whether the database started as a copy of the previous snapshot's menus.
    public let continuesPrevious: Bool
    /// The snapshot it continues, if it does.
    let continuedSnapshot: LatestSnapshot?
    /// Its file name.
    private var continued: String? { continuedSnapshot?.url.lastPathComponent }
    /// The digest of the food tables' rows in the snapshot it continues (`_meta`), if it does.
    private let previousFoodRows: String?
    /// The food tables were kept as the continued snapshot had them (`finish`).
    public private(set) var foodTablesKept = false
    /// The digest of what the food tables and the review were made from in the snapshot it
    /// continues (`_meta`), if it does and recorded one.
    private let previousFoodInputs: String?
    /// Tonight's food tables and review are made from what the continued snapshot's were
    /// (`finish`): its food tables were kept without their rows being made, and its review can
    /// be (`keepReview`).
    public private(set) var foodInputsKept = false
    /// The digest of the nutrition review's rows in the snapshot it continues (`_meta`), if it does.
    let previousReviewRows: String?
    /// The nutrition review's tables were kept as the continued snapshot had them
    /// (`write(agreements:flags:)`).
    public internal(set) var reviewTablesKept = false
    /// The review's tables no longer hold the copy's rows: a review was written, or `record`
    /// emptied them (a continued database that reaches it without a review, so that no night
    /// publishes another night's review).
    var reviewWritten = false
    /// The schema's secondary indexes, dropped while the rows go in and made again by `finish`:
    /// building an index once over the finished table is several times cheaper than keeping
    /// it sorted through a million inserts.
    private var deferredIndexes: [String] = []
    private var menuIndexesDropped = false
    /// A database written from empty is given its schema on a thread of its own (`WorkAhead`:
    /// `SnapshotSchema`'s migrations and `prepareForRows`, which return the indexes to make
    /// again), from the moment it is created until its first use: a first night, a forced run or
    /// a catalogue's backfill starts fetching and parsing meanwhile, where it used to wait on one
    /// core while the migrations parsed the schema again after each change (60 ms of a
    /// five-day run's 0.36 s). Nil once the schema is in, or for a continued database.
    private var schemaAhead: WorkAhead<[String]>?
    /// Moved into place by `moveFinished`: its connection closed, its file no longer at `url`.
    private var moved = false

    /// Creates a staging database at `url`, replacing any leftover from a run that was killed:
    /// empty with the current schema, or, when `previous` is a snapshot whose menus the same
    /// build wrote (`CommissaryVersion.build`, recorded as `day_rows_code`), a copy of its file
    /// holding only its menus, whose unchanged days the run then keeps instead of writing them
    /// again (`MenuWriter`), and its food tables, which `finish` keeps when tonight's rows are
    /// the same. Every other table is emptied and written in full, as for an empty database. A
    /// previous snapshot that cannot be used that way (another build or schema, unreadable) is
    /// not an error: the run starts empty. `previous` is read on the run's connection to it.
    /// `copiedAhead`: `previous` copied ahead by the run (`StagingCopy`), taken instead of
    /// copying it now.
    public init(creatingAt url: URL, continuing previous: LatestSnapshot? = nil, copiedAhead: StagingCopy? = nil) throws {
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
        let base = previous.flatMap { previous in
            Self.continuable(previous).map { (snapshot: previous, found: $0) }
        }
        continuedSnapshot = base?.snapshot
        previousFoodRows = base?.found.foodRows
        previousFoodInputs = base?.found.foodInputs
        previousReviewRows = base?.found.reviewRows
        do {
            // A published snapshot is a closed, read-only file: its bytes are a database.
            if let base, copiedAhead?.take(as: url, of: base.snapshot.url) != true {
                try FileCopy.copy(from: base.snapshot.url.path, to: url.path)
            }
            let database = try DatabaseQueue(path: url.path, configuration: configuration)
            self.database = database
            if let base {
                menus = MenuWriter(continuing: base.found.menus)
                continuesPrevious = true
                deferredIndexes = try database.write { db in
                    try Self.prepareForRows(db, keeping: Self.continuedTables.union(FoodTables.tables)
                                                .union(Self.reviewTables).union(Self.schemaTables))
                }
            } else {
                menus = MenuWriter()
                continuesPrevious = false
                schemaAhead = .onAThreadOfItsOwn {
                    try SnapshotSchema.migrator().migrate(database)
                    return try database.write { db in try Self.prepareForRows(db, keeping: []) }
                }
            }
        } catch {
            try? fileManager.removeItem(at: url)
            throw Self.creationFailure(error, at: url)
        }
    }

    /// Waits for the schema of a database written from empty (`schemaAhead`), the first time;
    /// a schema that could not be made fails every use, as creating the database used to.
    private func schemaReady() throws {
        guard let schemaAhead else { return }
        do {
            deferredIndexes = try schemaAhead.value()
        } catch {
            throw Self.creationFailure(error, at: url)
        }
        self.schemaAhead = nil
    }

    /// What a staging database that could not be made (its file, or its schema) fails with.
    private static func creationFailure(_ error: any Error, at url: URL) -> Failure {
        Failure(.fileSystem, "cannot create the staging database: \(plainMessage(error))\(FreeSpace.note(near: url))",
                at: url.path, cause: error)
    }

    /// The tables a continued snapshot keeps rows of: the menus (`MenuWriter` removes the days
    /// that changed or left). Restaurants and sections are written again from the days.
    static let continuedTables = Set(MenuWriter.dayTables)

    /// The food tables, kept whole on a night whose foods are the night before's (the write
    /// stage's `food_tables_kept`).
    public static let foodTables = Set(FoodTables.tables)

    /// Housekeeping that is a function of the schema alone (`TableKeys`): a continued database
    /// has the schema of the snapshot it copies (one build, one version), so it keeps these rows
    /// rather than deriving them again, which asked SQLite about every table (0.015 s a night).
    static let schemaTables: Set<String> = ["_table_keys"]

    /// What a continuable snapshot holds that the next night compares its own with.
    private struct Continuable {
        var menus: PreviousMenus
        /// The digests of its food tables' rows, of what they and the review were made from,
        /// and of its review's rows (`_meta`).
        var foodRows: String?
        var foodInputs: String?
        var reviewRows: String?
    }

    /// What the previous snapshot's menus hold, and the digests of its food tables' and its
    /// nutrition review's rows; nil when another build or schema wrote it, or it cannot be read.
    private static func continuable(_ previous: LatestSnapshot) -> Continuable? {
        let found = try? previous.read { db -> Continuable? in
            guard try Int.fetchOne(db, sql: "PRAGMA user_version") == SnapshotSchema.version,
                  try String.fetchOne(db, sql: "SELECT value FROM _meta WHERE key = ?",
                                      arguments: [dayRowsCodeKey]) == CommissaryVersion.build,
                  let menus = try PreviousMenus.read(db)
            else { return nil }
            let meta = { (key: String) in try String.fetchOne(db, sql: "SELECT value FROM _meta WHERE key = ?", arguments: [key]) }
            return Continuable(menus: menus, foodRows: try meta(foodRowsKey), foodInputs: try meta(foodInputsKey),
                               reviewRows: try meta(reviewRowsKey))
        }
        return found ?? nil
    }

    /// Drops the schema's secondary indexes (but those of `kept` tables, whose rows stay) and
    /// empties every table but the `kept` ones; returns the indexes' SQL, to make them again
    /// once the rows are in.
    private static func prepareForRows(_ db: Database, keeping kept: Set<String>) throws -> [String] {
        let indexes = try dropIndexes(db) { !kept.contains($0) }
        try empty((SnapshotSchema.dataTables + SnapshotSchema.housekeepingTables).filter { !kept.contains($0) }, db)
        return indexes
    }

    static func empty(_ tables: [String], _ db: Database) throws {
        for table in tables {
            try db.execute(sql: "DELETE FROM \(table.quotedDatabaseIdentifier)")
        }
    }

    /// Drops the schema's secondary indexes on the tables `dropping` says; returns their SQL.
    private static func dropIndexes(_ db: Database, on dropping: (String) -> Bool) throws -> [String] {
        let indexes = try Row.fetchAll(db, sql: """
            SELECT name, sql, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY rowid
            """).filter { dropping($0["tbl_name"]) }
        for index in indexes {
            let name: String = index["name"]
            try db.execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
        }
        return indexes.map { $0["sql"] }
    }

    /// A continued database keeps the menus' indexes, so that the days it keeps need no index
    /// built. Past `changedDaysWithIndexes` days written or removed, and more of them than days
    /// kept, keeping the indexes up to date costs more than building them again (a year whose
    /// every day changed took twice a full write's time with them): they are dropped then, and
    /// made again with the others by `finish`.
    private func dropMenuIndexesIfMostDaysChange(_ db: Database, removing: Int = 0) throws {
        guard continuesPrevious, !menuIndexesDropped else { return }
        let changed = menus.daysWritten + removing
        guard changed > Self.changedDaysWithIndexes, changed > menus.keptDays.count else { return }
        deferredIndexes += try Self.dropIndexes(db) { _ in true }
        menuIndexesDropped = true
    }

    static let changedDaysWithIndexes = 32

    /// The `_meta` key naming the build that wrote the menus.
    public static let dayRowsCodeKey = "day_rows_code"
    /// The `_meta` key of the digest of the food tables' rows (`FoodTables.digest`).
    public static let foodRowsKey = "food_rows_sha256"
    /// The `_meta` key of the digest of the nutrition review's rows (`write(agreements:flags:)`).
    public static let reviewRowsKey = "review_rows_sha256"
    /// The `_meta` key of the digest of what the food tables and the review were made from (`finish`).
    public static let foodInputsKey = "food_inputs_sha256"

    /// What a write that found the database damaged means on a continued night: the damage is
    /// most likely the latest snapshot's, whose copy this is; empty for any other failure.
    private func damageNote(_ error: any Error) -> String {
        guard continuesPrevious, let error = error as? DatabaseError,
              error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB else { return "" }
        return "; the latest snapshot, which this night continues, may be damaged: the next run checks it and, "
            + "if it is, writes every day afresh"
    }

    /// Which of `days`, appended next in this order without label versions, would keep the
    /// continued snapshot's rows rather than be written (`append`): those written are read
    /// whole. Changes nothing.
    public func wouldKeep(_ days: [DayToWrite]) -> [Bool] {
        menus.wouldKeep(days)
    }

    /// Writes one service day's menus, in one transaction with cached statements (docs/publishing.md:
    /// batching matters a thousand times more than anything else here), or keeps the rows the
    /// continued snapshot holds for it, without a transaction. Days are written in the order they
    /// are given, which sets their ids.
    /// `labelVersions`: the version of its food's label each item was served with, in page order
    /// (`ServiceDay.forEachMenuItem`); an item past the end has none.
    public func append(_ day: DayToWrite, labelVersions: [Int?] = []) throws {
        guard !menus.keep(day, labelVersions: labelVersions) else { return }
        let whole: ServiceDay
        do {
            whole = try day.day()
        } catch {
            throw Failure(.snapshot, "the menus of \(day.date) were kept as bytes that cannot be read back "
                          + "(\(plainMessage(error))); run again with --force to read the day afresh",
                          at: url.path, cause: error)
        }
        let queue = try self.queue
        do {
            try queue.write { db in
                try menus.write(whole, labelVersions: labelVersions, to: db)
                try dropMenuIndexesIfMostDaysChange(db)
            }
        } catch {
            throw Failure(.fileSystem, "cannot write the menus of \(day.date): \(plainMessage(error))\(damageNote(error))\(FreeSpace.note(near: url))",
                          at: url.path, cause: error)
        }
    }

    /// Writes everything but the menus (already appended, and summed up in `menus`), makes the
    /// schema's indexes again and builds the search indexes, in one transaction. A continued
    /// database keeps the food tables it copied when the rows tonight would write are the ones
    /// they hold (the digest recorded in `_meta`, as `_day_rows` for days): most nights change no
    /// food, and writing them, indexing and searching them again was most of the write stage.
    /// Returns warnings about what was written (ids a dump read more than once).
    ///
    /// `foodInputs`: a digest of everything the food tables and the nutrition review are made
    /// from, recorded in `_meta`. When it is the continued snapshot's, its food tables are kept
    /// without tonight's rows being made to compare (`foodInputsKept`); nil keeps nothing that way.
    @discardableResult
    public func finish(_ dataset: Dataset, menus digest: MenuDigest, codes knownCodes: [DietaryCode],
                       foodInputs: String?) throws -> [String] {
        do {
            let scratch = scratch
            let foodTables = FoodTables(dataset: dataset, menus: digest, knownCodes: knownCodes)
            let inputsKept = continuesPrevious && foodInputs != nil && foodInputs == previousFoodInputs
                && previousFoodRows != nil
            // A continued database needs the food rows' digest before it writes them, to know
            // whether to; any other takes it as it writes them.
            let knownFoodRows = inputsKept ? previousFoodRows : continuesPrevious ? try foodTables.digest : nil
            let keepFoods = knownFoodRows != nil && knownFoodRows == previousFoodRows
            let warnings = try queue.write { db in
                try dropMenuIndexesIfMostDaysChange(db, removing: menus.daysLeaving)
                try menus.complete(db)
                var foodRows = knownFoodRows
                if !keepFoods {
                    if continuesPrevious { try emptyFoodTables(db) }
                    foodRows = try foodTables.write(into: db)
                }
                try db.execute(sql: "INSERT INTO _meta (key, value) VALUES (?, ?), (?, ?)",
                               arguments: [Self.dayRowsCodeKey, CommissaryVersion.build, Self.foodRowsKey, foodRows])
                if let foodInputs {
                    try db.execute(sql: "INSERT INTO _meta (key, value) VALUES (?, ?)",
                                   arguments: [Self.foodInputsKey, foodInputs])
                }
                let warnings = try DatasetWriter(db: db, scratch: scratch).writeOthers(dataset)
                for index in deferredIndexes { try db.execute(sql: index) }
                // Kept food tables keep the index built from them.
                if !keepFoods { try SearchIndex.foods.rebuild(db) }
                return warnings
            }
            foodTablesKept = keepFoods
            foodInputsKept = inputsKept
            deferredIndexes = []
            return warnings
        } catch let error as Failure where error.code == .snapshot || error.code == .fileSystem {
            throw error
        } catch {
            throw Failure(.fileSystem, "cannot write the dataset: \(plainMessage(error))\(damageNote(error))\(FreeSpace.note(near: url))",
                          at: url.path, cause: error)
        }
    }


    /// Empties the food tables a continued database copied, their indexes dropped until the rows
    /// are in (made again with the others), as for an empty database.
    private func emptyFoodTables(_ db: Database) throws {
        deferredIndexes += try Self.dropIndexes(db) { FoodTables.tables.contains($0) }
        try Self.empty(FoodTables.tables, db)
    }

    /// Fills the housekeeping tables `_meta`, `_runs`, `_checks`, `_sources`, `_stale` and
    /// `_table_keys`.
    public func record(run: RunRecord, checks: [CheckOutcome], documents: [SourceDocument],
                       stale: [StalePartition] = []) throws {
        let queue = try self.queue
        do {
            try queue.write { db in
                if continuesPrevious, !reviewWritten {
                    try Self.empty(Self.reviewTables.sorted(), db)
                    reviewWritten = true
                }
                try Self.recordMeta(of: run, in: db)
                try Self.recordRun(run, in: db)
                try Self.record(checks, of: run, in: db)
                try Self.record(documents, in: db)
                try Self.record(stale, in: db)
                if !continuesPrevious { try TableKeys.record(db) }
            }
        } catch {
            throw Failure(.fileSystem, "cannot record the run: \(plainMessage(error))\(damageNote(error))\(FreeSpace.note(near: url))", at: url.path, cause: error)
        }
    }

    /// `_meta`: the schema version and the run's facts, with the licence's and the source's
    /// addresses where the pipeline names them and the day the run took as today.
    private static func recordMeta(of run: RunRecord, in db: Database) throws {
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
        let links = [("licence_url", run.licenceURL), ("source_url", run.sourceURL), ("as_of", run.asOf)]
        for (key, value) in meta + links.compactMap({ key, value in value.map { (key, $0) } }) {
            try db.execute(sql: "INSERT OR REPLACE INTO _meta (key, value) VALUES (?, ?)",
                           arguments: [key, value])
        }
    }

    /// `_runs`: the run with its arguments as JSON.
    private static func recordRun(_ run: RunRecord, in db: Database) throws {
        let arguments = String(decoding: try JSONEncoder().encode(run.arguments), as: UTF8.self)
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO _runs
                (run_id, pipeline, started_at, code_version, arguments, partitions)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [run.runId, run.pipeline, run.startedAt, run.codeVersion, arguments,
                        run.partitions])
    }

    /// `_checks`: each check's outcome in this run.
    private static func record(_ checks: [CheckOutcome], of run: RunRecord, in db: Database) throws {
        let check = try db.cachedStatement(sql: """
            INSERT INTO _checks (run_id, name, severity, passed, value, message)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
        for outcome in checks {
            try check.execute(arguments: [run.runId, outcome.name, outcome.severity.rawValue,
                                          outcome.passed, outcome.value, outcome.message])
        }
    }

    /// `_sources`: each document read, once, in the order of address and hash.
    private static func record(_ documents: [SourceDocument], in db: Database) throws {
        let source = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO _sources (url, fetched_at, status, sha256, charset, bytes)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
        for document in documents.sorted(by: { ($0.url, $0.sha256) < ($1.url, $1.sha256) }) {
            try source.execute(arguments: [document.url, document.fetchedAt, document.status,
                                           document.sha256, document.charset, document.byteCount])
        }
    }

    /// `_stale`: the partitions whose rows were kept from an earlier run, and why.
    private static func record(_ stale: [StalePartition], in db: Database) throws {
        for partition in stale {
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO _stale (source, partition, kept_fetched_at, kept_run_id, reason)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [partition.source, partition.partition, partition.keptFetchedAt,
                            partition.keptRunId, partition.reason])
        }
    }

    /// Moves the finished database to `target` as it is, closed, when no more than
    /// `movableFreeShare` of its pages are free; returns the tables it kept rows of
    /// (`continuedTables`), which the night changed in place rather than wrote whole: none for a
    /// database written from empty. Nil, with nothing moved, when it must be copied compacted
    /// instead (`VACUUM INTO`): one whose rewritten tables left too many pages free.
    ///
    /// A continued database is the previous snapshot's file with the night's changes applied
    /// in place, so moving it costs what changed, where compacting it would copy the whole history
    /// again. Its rows are those a full rebuild writes (`MenuWriter` gives kept days their ids),
    /// only where they lie in the file differs. A database written from empty has its tables'
    /// pages interleaved as the rows came, and a few more of them than a copy would make (3% for
    /// 10,000 recipes), which readers of a file in the page cache do not see: copying it cost a
    /// first night, a forced run or a catalogue's backfill a whole rewrite of the file.
    func moveFinished(to target: URL) throws -> Set<String>? {
        guard !moved else {
            throw Failure(.snapshot, "this staging database was published already, and is no longer where it was written",
                          at: url.path)
        }
        let pages = try queue.read { db in
            (total: try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0,
             free: try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0)
        }
        guard pages.total > 0, Double(pages.free) <= Double(pages.total) * Self.movableFreeShare else { return nil }
        try database.close()
        moved = true
        try FileCopy.move(from: url.path, to: target.path)
        return continuesPrevious ? Self.continuedTables.union(keptTables) : []
    }

    /// The tables kept whole from the continued snapshot, row for row: the food tables and the
    /// nutrition review's, each when tonight's rows were the same.
    private var keptTables: Set<String> {
        (foodTablesKept ? Self.foodTables : []).union(reviewTablesKept ? Self.reviewTables : [])
    }

    /// The share of free pages past which a continued database is compacted rather than moved:
    /// the tables rewritten every night reuse the pages they free, so it stays low unless most
    /// of the history left.
    static let movableFreeShare = 0.25

    /// The days whose rows were kept from the previous snapshot.
    public var keptDays: Int { menus.keptDays.count }

    /// Once finished, the days whose menu rows, and the tables whose rows, are the continued
    /// snapshot's row for row, which its change set need not compare (`ChangeSet.between`); nil
    /// when it continues none.
    public var unchangedDays: UnchangedDays? {
        continued.map {
            UnchangedDays(snapshot: $0, dates: menus.unchangedDays, tables: keptTables)
        }
    }

    /// Rows per data table, for checks and the run summary.
    public func rowCounts(of tables: [String] = SnapshotSchema.dataTables) throws -> [String: Int] {
        try queue.read { db in try SnapshotReader.rowCounts(db, of: tables) }
    }

    /// Removes the staging files, the run's scratch files among them; used after publishing and
    /// after a failed run.
    public func discard() {
        // Its schema, if still being made, is let finish before the file goes.
        try? schemaReady()
        try? database.close()
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
