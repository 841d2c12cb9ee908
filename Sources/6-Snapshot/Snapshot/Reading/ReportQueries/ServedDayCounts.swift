import Basics
import FoodModel
import Foundation
import GRDB
import Synchronization

/// The columns of each day's menu items that the report page counts (`ServedItems`): meal,
/// section, food and label version, kept between nights beside the pipeline's cache so that a
/// night's page reads again only the days whose rows changed. Reading every item of the snapshot
/// was most of a page's time, and grew with the history, not with the night.
///
/// A day's counts stand for its rows as long as the rows are the same: the same digest in
/// `_day_rows` under the same writing build (`_meta.day_rows_code`), whose rows are a function of
/// both and of the section ids. A kept day's items take another section id when two sections'
/// ids collide (`MenuWriter`), so each section a day's counts name is kept with its restaurant
/// and name, and a day one of whose sections is now another is read again.
public struct ServedDayCounts: Sendable {
    /// The build that wrote the days' rows (`_meta.day_rows_code`).
    var rowsCode: String
    /// Each section the days name, as the snapshot held it: its restaurant's id and its name.
    var sections: [Int64: SectionRow]
    /// The foods the days' groups name, by number: numbered once, in the order first counted,
    /// so that a day's counts stay those of the night that counted it.
    var foods: [String]
    /// Each day's counts, by date (`YYYY-MM-DD`).
    var days: [String: Day]
    /// The days counted from the snapshot tonight, not taken from the counts kept.
    var counted: Set<String> = []

    struct SectionRow: Hashable {
        var restaurant: Int64
        var name: String
    }

    /// A day's items as runs of one meal and section, each a list of groups: its items of one
    /// food and label version, counted.
    struct Day {
        var rowsDigest: String
        var runs: [Run] = []
        var groups: [Group] = []

        struct Run {
            var meal: Int64
            var section: Int64
            /// How many of `groups`, after those of the runs before it, are this run's.
            var groupCount: Int
        }

        struct Group {
            var food: Int32
            var version: Int
            var items: Int
        }
    }
}

extension ServedDayCounts.Day {
    /// The day's runs and groups, each field in a fixed order (`FieldWriter`).
    func encoded() -> Data {
        var output = FieldWriter()
        output.put(runs.count)
        for run in runs {
            output.put(Int(run.meal))
            output.put(Int(run.section))
            output.put(run.groupCount)
        }
        output.put(groups.count)
        for group in groups {
            output.put(Int(group.food))
            output.put(group.version)
            output.put(group.items)
        }
        return Data(output.bytes)
    }

    /// Throws `Failure.damagedBytes` for bytes `encoded` did not write: a food beyond the `foods`
    /// numbered, a group of no items or of more than a meal may have (so that no sum of them
    /// can overflow).
    init(rowsDigest: String, bytes: Data, foods: Int) throws {
        self.init(rowsDigest: rowsDigest)
        try bytes.withUnsafeBytes { buffer in
            var input = FieldReader(buffer)
            for _ in 0..<(try input.count()) {
                runs.append(Run(meal: Int64(try input.int()), section: Int64(try input.int()), groupCount: try input.count()))
            }
            for _ in 0..<(try input.count()) {
                guard let food = Int32(exactly: try input.int()), food >= 0, Int(food) < foods else {
                    throw Failure.damagedBytes
                }
                let version = try input.int(), items = try input.int()
                guard (1...MenuIdLimits.itemsPerMeal).contains(items) else { throw Failure.damagedBytes }
                groups.append(Group(food: food, version: version, items: items))
            }
            guard input.isAtEnd, runs.reduce(0, { $0 + $1.groupCount }) == groups.count else {
                throw Failure.damagedBytes
            }
        }
    }
}

/// Where a pipeline's `ServedDayCounts` are kept between nights: a small SQLite file, a row per
/// day, so that a night writes the days it counted again (on a night with one day changed, that
/// day) rather than every day. Like the parse cache it fails nothing: a file missing, damaged,
/// or holding what this code did not write is not used (and is made anew), and the page then
/// reads every day as it would without one.
public struct ServedDayCountsStore: Sendable {
    public let url: URL
    /// The counts read ahead (`readingAhead`), for the first `read`.
    private let ahead: ReadAhead?

    public init(url: URL) {
        self.init(url: url, ahead: nil)
    }

    private init(url: URL, ahead: ReadAhead?) {
        self.url = url
        self.ahead = ahead
    }

    /// This store with its counts being read now, on a thread of their own, for its first
    /// `read`. A run starts it where its stages leave a core idle (compute, write and check run
    /// on one), so that the night's page, read beside the verification on busy cores, finds
    /// them read.
    public func readingAhead() -> ServedDayCountsStore {
        ServedDayCountsStore(url: url, ahead: ReadAhead { [url] in ServedDayCountsStore(url: url).read() })
    }

    /// The counts kept, or nil when there are none that can be read.
    func read() -> ServedDayCounts? {
        if let ahead, let counts = ahead.take() { return counts }
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try? open().read { db -> ServedDayCounts? in
            guard try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'format'") == Self.format,
                  let rowsCode = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'rows_code'")
            else { return nil }
            // Read with the throwing decoders: the file is anyone's to edit, and a value of
            // another type makes it unread, not the run stopped.
            var sections: [Int64: ServedDayCounts.SectionRow] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, restaurant_id, name FROM section") {
                sections[try row.decode(Int64.self, atIndex: 0)] = ServedDayCounts.SectionRow(
                    restaurant: try row.decode(Int64.self, atIndex: 1), name: try row.decode(String.self, atIndex: 2))
            }
            let foods = try String.fetchAll(db, sql: "SELECT id FROM food ORDER BY number")
            // Numbered 0 to the count, each once (the number is the key): a food's number is its place.
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM food WHERE number < 0 OR number >= ?",
                                   arguments: [foods.count]) == 0
            else { return nil }
            var days: [String: ServedDayCounts.Day] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT date, rows_sha256, counts FROM day") {
                days[try row.decode(String.self, atIndex: 0)] = try ServedDayCounts.Day(
                    rowsDigest: try row.decode(String.self, atIndex: 1), bytes: try row.decode(Data.self, atIndex: 2),
                    foods: foods.count)
            }
            return ServedDayCounts(rowsCode: rowsCode, sections: sections, foods: foods, days: days)
        } ?? nil
    }

    /// Keeps `counts`, read over `kept` (what `read` gave, if anything): the days counted
    /// tonight, the foods they numbered, the days gone removed. A failure (a full disk) is
    /// ignored: the next page counts those days again.
    func save(_ counts: ServedDayCounts, over kept: ServedDayCounts?) {
        do {
            if kept == nil { removeFiles() }
            try open().write { db in
                try db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    CREATE TABLE IF NOT EXISTS section (id INTEGER PRIMARY KEY, restaurant_id INTEGER NOT NULL,
                                                        name TEXT NOT NULL);
                    CREATE TABLE IF NOT EXISTS food (number INTEGER PRIMARY KEY, id TEXT NOT NULL);
                    CREATE TABLE IF NOT EXISTS day (date TEXT PRIMARY KEY, rows_sha256 TEXT NOT NULL, counts BLOB NOT NULL);
                    """)
                let fresh = kept?.rowsCode != counts.rowsCode
                if fresh { try db.execute(sql: "DELETE FROM day; DELETE FROM food; DELETE FROM section") }
                try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('format', ?), ('rows_code', ?)",
                               arguments: [Self.format, counts.rowsCode])
                if fresh || kept?.sections != counts.sections {
                    try db.execute(sql: "DELETE FROM section")
                    for (id, section) in counts.sections {
                        try db.execute(sql: "INSERT INTO section (id, restaurant_id, name) VALUES (?, ?, ?)",
                                       arguments: [id, section.restaurant, section.name])
                    }
                }
                let known = fresh ? 0 : kept?.foods.count ?? 0
                for number in known..<counts.foods.count {
                    try db.execute(sql: "INSERT OR REPLACE INTO food (number, id) VALUES (?, ?)",
                                   arguments: [number, counts.foods[number]])
                }
                for date in kept?.days.keys.filter({ counts.days[$0] == nil }) ?? [] {
                    try db.execute(sql: "DELETE FROM day WHERE date = ?", arguments: [date])
                }
                for date in fresh ? Set(counts.days.keys) : counts.counted {
                    guard let day = counts.days[date] else { continue }
                    try db.execute(sql: "INSERT OR REPLACE INTO day (date, rows_sha256, counts) VALUES (?, ?, ?)",
                                   arguments: [date, day.rowsDigest, day.encoded()])
                }
            }
        } catch {
            removeFiles()
        }
    }

    /// The file and what SQLite keeps beside it: a log left without its file would be read
    /// into the next file of the name.
    private func removeFiles() {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }

    /// One connection for one read or save. Not synced: a power cut can lose the last nights'
    /// counts, never make them wrong, since SQLite's write-ahead log keeps the file whole.
    private func open() throws -> DatabaseQueue {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }

    private static let format = "served-day-counts 1"
}

/// A read of the counts on a thread of its own, taken once.
private final class ReadAhead: Sendable {
    private enum State {
        case reading, read(ServedDayCounts?), taken
    }

    private let done = DispatchGroup()
    private let state = Mutex(State.reading)

    init(_ read: @escaping @Sendable () -> ServedDayCounts?) {
        done.enter()
        DispatchQueue.global().async { [self] in
            let counts = read()
            state.withLock { $0 = .read(counts) }
            done.leave()
        }
    }

    /// What was read, once it is; nil when it was taken already (the file may have changed since).
    func take() -> ServedDayCounts?? {
        done.wait()
        return state.withLock { state in
            guard case .read(let counts) = state else { return nil }
            state = .taken
            return .some(counts)
        }
    }
}
