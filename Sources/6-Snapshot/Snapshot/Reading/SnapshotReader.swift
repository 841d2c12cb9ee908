import Basics
import FoodModel
import Foundation
import GRDB

/// Opens published snapshots the way every reader should: read-only and immutable, so that a
/// reader can never change a published file nor take a lock on it.
public enum SnapshotReader {
    public static func open(_ url: URL) throws -> DatabaseQueue {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw Failure(.snapshot, "no such snapshot", at: url.path)
        }
        guard !isFolder.boolValue else {
            throw Failure(.snapshot, "is a folder, not a snapshot file: give a .sqlite file, latest or latest-<pipeline>",
                          at: url.path)
        }
        var configuration = Configuration()
        configuration.readonly = true
        let escaped = url.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? url.path
        do {
            return try DatabaseQueue(path: "file:\(escaped)?mode=ro&immutable=1",
                                     configuration: configuration)
        } catch {
            throw Failure(.snapshot, "cannot open: \(plainMessage(error))", at: url.path, cause: error)
        }
    }

    /// Rows per data table.
    public static func rowCounts(_ db: Database, of tables: [String] = SnapshotSchema.dataTables) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in tables {
            counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
        }
        return counts
    }

    /// Reads the snapshot at `url`; SQLite's complaint about a damaged file ("database disk
    /// image is malformed") comes back naming the file and saying what to do, and so does a value
    /// of a type the schema does not give its column (a file changed after it was published).
    public static func read<T>(_ url: URL, _ body: (Database) throws -> T) throws -> T {
        try read(try open(url), at: url, body)
    }

    /// Reads the snapshot at `url`, already open as `queue`, as `read(_:_:)` does.
    static func read<T>(_ queue: DatabaseQueue, at url: URL, _ body: (Database) throws -> T) throws -> T {
        do {
            return try queue.read(body)
        } catch let error as DatabaseError {
            let said = error.message ?? "\(error.resultCode)"
            // A table a snapshot always has is missing: an empty file, or a database of something else.
            if said.hasPrefix("no such table") {
                throw Failure(.snapshot, "is no snapshot Commissary published (\(said)): give a snapshot file, latest or "
                              + "latest-<pipeline>", at: url.path)
            }
            throw Failure(.snapshot, "cannot be read as a snapshot (\(said)); "
                          + "it may be damaged: check it with `commissary check`, or remove it", at: url.path)
        } catch let error as RowDecodingError {
            throw Failure(.snapshot, "holds a value its column cannot hold (\(valueDecodingWords(error))); it was changed "
                          + "after it was published: publish again with --force, or remove it", at: url.path)
        }
    }

    /// Reads the snapshot at `url` with `other` attached, read-only, as the schema `prev`, so
    /// that two snapshots compare in SQL without either being read into memory.
    public static func read<T>(_ url: URL, attaching other: URL, _ body: (Database) throws -> T) throws -> T {
        guard FileManager.default.fileExists(atPath: other.path) else { throw Failure(.snapshot, "no such snapshot", at: other.path) }
        let queue = try open(url)
        let escaped = other.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? other.path
        let address = "file:\(escaped)?mode=ro&immutable=1"
        do {
            return try queue.inDatabase { db in
                try db.execute(sql: "ATTACH DATABASE ? AS prev", arguments: [address])
                defer { try? db.execute(sql: "DETACH DATABASE prev") }
                return try body(db)
            }
        } catch let error as DatabaseError {
            throw Failure(.snapshot, "cannot compare with \(other.lastPathComponent) (\(error.message ?? "\(error.resultCode)"))",
                          at: url.path)
        } catch let error as RowDecodingError {
            throw Failure(.snapshot, "cannot compare with \(other.lastPathComponent): one of the two holds a value its "
                          + "column cannot hold (\(valueDecodingWords(error))); it was changed after it was published",
                          at: url.path)
        }
    }

    /// The `_meta` table as a dictionary.
    public static func meta(of url: URL) throws -> [String: String] {
        try read(url, meta)
    }

    /// The `_checks` of the run that built the snapshot.
    public static func checks(of url: URL) throws -> [CheckOutcome] {
        try read(url, checks)
    }

    /// The partitions the snapshot carries from their last good version (`_stale`); none for
    /// snapshots from before it was recorded.
    public static func stalePartitions(of url: URL) throws -> [StalePartition] {
        try read(url) { try stalePartitions(in: $0) }
    }

    /// The stale partitions of a snapshot already open (the report page reads them with the rest,
    /// through `ReportQueries`).
    static func stalePartitions(in db: Database) throws -> [StalePartition] {
        guard try db.tableExists("_stale") else { return [] }
        return try Row.fetchAll(db, sql: "SELECT * FROM _stale ORDER BY source, partition").map { row in
            try StalePartition(source: row.decode(forColumn: "source"), partition: row.decode(forColumn: "partition"),
                               keptFetchedAt: row.decode(forColumn: "kept_fetched_at"),
                               keptRunId: row.decode(forColumn: "kept_run_id"), reason: row.decode(forColumn: "reason"))
        }
    }

    static func meta(_ db: Database) throws -> [String: String] {
        var meta: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM _meta") {
            try meta[row.decode(forColumn: "key")] = row.decode(forColumn: "value")
        }
        return meta
    }

    static func checks(_ db: Database) throws -> [CheckOutcome] {
        try Row.fetchAll(db, sql: "SELECT name, severity, passed, value, message FROM _checks ORDER BY rowid")
            .map { row in
                try CheckOutcome(name: row.decode(forColumn: "name"),
                                 severity: CheckOutcome.Severity(rawValue: row.decode(forColumn: "severity")) ?? .error,
                                 passed: row.decode(forColumn: "passed"), value: row.decode(forColumn: "value"),
                                 message: row.decode(forColumn: "message"))
            }
    }

    /// `PRAGMA integrity_check` and `PRAGMA foreign_key_check`: the problems found, empty when
    /// the file is sound.
    public static func verify(_ db: Database) throws -> [String] {
        try integrityProblems(db) + foreignKeyProblems(db)
    }

    /// What `PRAGMA integrity_check` finds: every page, every index entry against its row.
    static func integrityProblems(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
    }

    /// What SQLite finds wrong with every page of the file (`PRAGMA quick_check`: the structure,
    /// each row's constraints) and with the indexes of every table but `kept`, each against its
    /// rows (`PRAGMA integrity_check(table)`); with nothing kept, `PRAGMA integrity_check`.
    static func integrityProblems(_ db: Database, skippingIndexesOf kept: Set<String>) throws -> [String] {
        guard !kept.isEmpty else { return try integrityProblems(db) }
        var problems = try String.fetchAll(db, sql: "PRAGMA quick_check").filter { $0 != "ok" }
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        for table in tables where !kept.contains(table) {
            problems += try String.fetchAll(db, sql: "PRAGMA integrity_check(\(table.quotedDatabaseIdentifier))")
                .filter { $0 != "ok" }
        }
        return problems
    }

    /// What `PRAGMA foreign_key_check` finds, one line per broken reference (`ForeignKeyCheck`).
    static func foreignKeyProblems(_ db: Database) throws -> [String] {
        try ForeignKeyCheck.problems(db)
    }

    /// The openings of each place on a day, from the snapshot's `hours` (a source's hours page or
    /// cafés answer, the pipeline's `hours:` file), in the order printed; a place without hours
    /// that day is absent. Hours rows carry the places' names (the harvest renames both alike),
    /// so a café closed all week, which has no restaurant row, still says it is closed.
    public static func hoursByPlace(of url: URL, on date: ServiceDate) throws -> [String: [PlaceHours]] {
        try read(url) { db in
            guard try db.tableExists("hours"), try db.tableExists("place") else { return [:] }
            var hours: [String: [PlaceHours]] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT p.name, h.meal, h.opens, h.closes, h.is_closed, h.note FROM hours h
                JOIN place p ON p.name = h.restaurant AND (h.campus IS NULL OR p.campus IS NULL OR p.campus = h.campus)
                WHERE h.date = ?
                ORDER BY p.name, h.id
                """, arguments: [date.description]) {
                let opening = try PlaceHours(meal: row.decode(atIndex: 1), opens: row.decode(atIndex: 2),
                                             closes: row.decode(atIndex: 3), isClosed: row.decode(Int?.self, atIndex: 4) == 1,
                                             note: row.decode(atIndex: 5))
                try hours[row.decode(atIndex: 0), default: []].append(opening)
            }
            return hours
        }
    }

    /// The meals each place served on `date`, in their order on the day: what `commissary near`
    /// shows beside each place. Empty for a snapshot without places.
    public static func mealsByPlace(of url: URL, on date: ServiceDate) throws -> [String: [String]] {
        try read(url) { db in
            guard try db.columns(in: "restaurant").contains(where: { $0.name == "place_name" }) else { return [:] }
            var meals: [String: [String]] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT r.place_name, m.name FROM meal m
                JOIN service_day d ON d.id = m.service_day_id
                JOIN menu_item mi ON mi.meal_id = m.id
                JOIN section s ON s.id = mi.section_id
                JOIN restaurant r ON r.id = s.restaurant_id
                WHERE d.date = ? AND r.place_name IS NOT NULL
                GROUP BY r.place_name, m.name ORDER BY r.place_name, min(m.position)
                """, arguments: [date.description]) {
                try meals[row.decode(atIndex: 0), default: []].append(row.decode(atIndex: 1))
            }
            return meals
        }
    }
}

/// One opening of a place on a day, as its hours page prints it.
public struct PlaceHours: Hashable, Sendable {
    public var meal: String
    public var opens: String?
    public var closes: String?
    public var isClosed: Bool
    /// A remark, or a closed day's reason ("Fall Break").
    public var note: String?

    public init(meal: String, opens: String?, closes: String?, isClosed: Bool, note: String? = nil) {
        self.meal = meal
        self.opens = opens
        self.closes = closes
        self.isClosed = isClosed
        self.note = note
    }

    /// Whether the place serves this meal at `time` on the opening's own day: open, with both
    /// times readable and `time` between them (from the opening to midnight, for an opening that
    /// runs past it).
    public func isServing(at time: ClockTime) -> Bool {
        times.map { time.isWithin(opens: $0.opens, closes: $0.closes) } ?? false
    }

    /// Whether this opening, run past midnight, still serves at `time` on the day after its own.
    public func isServingAfterMidnight(at time: ClockTime) -> Bool {
        times.map { time.isAfterMidnight(within: $0.opens, closes: $0.closes) } ?? false
    }

    /// Open, by the source's word, at hours that cannot be read ("TBA"): whether it serves at a
    /// time is not known.
    public var hasUnreadableTimes: Bool { !isClosed && times == nil }

    /// Both times, when the place is open and both are readable.
    private var times: (opens: ClockTime, closes: ClockTime)? {
        guard !isClosed, let opens = opens.flatMap(ClockTime.init), let closes = closes.flatMap(ClockTime.init) else {
            return nil
        }
        return (opens, closes)
    }
}

/// A snapshot's labels, open for `LatestSnapshot.readLabels`: its three questions asked on one connection.
public struct PublishedLabels {
    let db: Database

    /// The label rows a food with a label has, on average.
    public func typicalRowCount() throws -> Double {
        // Counted in two passes in the key's order: `count(DISTINCT food_id)` sorted every row
        // into a temporary tree.
        try Double.fetchOne(db, sql: """
            SELECT CAST((SELECT count(*) FROM food_nutrient) AS REAL)
                   / max(1, (SELECT count(*) FROM (SELECT DISTINCT food_id FROM food_nutrient)))
            """) ?? 0
    }

    /// The foods of `ids` that the snapshot has with a label, as it published them (nutrient
    /// names are the snapshot's, one per nutrient; computed %DV is left for the compute stage).
    public func foods(_ ids: [FoodID]) throws -> [FoodID: Food] {
        try LabelStatements(db).foods(ids)
    }

    /// The snapshot's `_meta`.
    public func meta() throws -> [String: String] {
        try SnapshotReader.meta(db)
    }
}
