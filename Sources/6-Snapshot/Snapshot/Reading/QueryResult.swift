import Basics
import Foundation
import GRDB
import GRDBSQLite

/// A value as SQLite stores it, so output formats can tell NULL from "" and 1 from "1".
public enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .string(let text): self = .text(text)
        case .blob(let data): self = .blob(data)
        }
    }
}

/// The rows of a read-only query against a published snapshot.
public struct QueryResult: Hashable, Sendable {
    public var columns: [String]
    public var rows: [[SQLValue]]

    public init(columns: [String], rows: [[SQLValue]]) {
        self.columns = columns
        self.rows = rows
    }

    /// Runs `sql` on the snapshot opened read-only and immutable. Statements that would write
    /// are refused before they run, with a message saying so, rather than failing deep in SQLite.
    /// `limits` bound what one query may cost (a recursive CTE that never ends, `zeroblob(1e9)`).
    public static func run(_ sql: String, on url: URL, limits: QueryLimits = QueryLimits()) throws -> QueryResult {
        let queue = try SnapshotReader.open(url)
        do {
            return try queue.read { db in
                let statements = try db.allStatements(sql: sql)
                guard let statement = try statements.next() else {
                    throw Failure(.snapshot, "query refused: no SQL statement was given", at: url.path)
                }
                guard try statements.next() == nil else {
                    throw Failure(.snapshot, "query refused: give one statement; found more than one (separated by `;`)",
                                  at: url.path)
                }
                guard statement.isReadonly else {
                    throw Failure(.snapshot, "query refused: snapshots are read-only, and this statement writes",
                                  at: url.path)
                }
                return try limits.bounding(db, at: url) { deadline in
                    let columns = statement.columnNames
                    var rows: [[SQLValue]] = []
                    var held = 0
                    let cursor = try Row.fetchCursor(statement)
                    while let row = try cursor.next() {
                        let values = (0..<columns.count).map { SQLValue(row[$0] as DatabaseValue) }
                        held += SQLValue.rowBytes + values.reduce(0) { $0 + $1.heldBytes }
                        guard held <= limits.maxResultBytes else { throw limits.tooLarge(at: url) }
                        // SQLite's own check runs while it computes; rows it hands over cheaply
                        // are counted here.
                        if rows.count.isMultiple(of: 1024), deadline.hasPassed { throw limits.timedOut(at: url) }
                        rows.append(values)
                    }
                    return QueryResult(columns: columns, rows: rows)
                }
            }
        } catch let error as Failure {
            throw error
        } catch let error as DatabaseError {
            switch error.resultCode {
            case .SQLITE_INTERRUPT: throw limits.timedOut(at: url)
            case .SQLITE_TOOBIG:
                throw Failure(.snapshot, "query refused: a value would be larger than \(QueryLimits.mebibytes(limits.maxValueBytes)) "
                              + "(SQLite: \(error.message ?? "string or blob too big")); narrow the query",
                              at: url.path)
            default: throw Failure(.snapshot, "query failed: \(error.message ?? "\(error)")", at: url.path)
            }
        }
    }
}

extension SQLValue {
    /// About what a row's array takes in memory besides its cells (measured: a million rows of
    /// one integer took about 90 MB).
    static let rowBytes = 64

    /// About what the value takes in memory once fetched: its cell, and its bytes.
    var heldBytes: Int {
        switch self {
        case .text(let text): 24 + text.utf8.count
        case .blob(let data): 24 + data.count
        default: 24
        }
    }
}

/// What one `query` may cost: its time, the largest value SQLite may build, and the bytes of the
/// answer held before it is printed. A query past one of them fails in one line saying which.
public struct QueryLimits: Sendable {
    /// Seconds before the query is stopped (`query --timeout`).
    public var seconds: Double
    /// The largest string or blob SQLite may build (SQLITE_LIMIT_LENGTH, a billion bytes by
    /// default: `zeroblob(1e9)` passed it and then took minutes to print).
    public var maxValueBytes: Int32
    /// The answer is held whole before it is printed (a table's columns are as wide as its
    /// widest cell), so its size is bounded too.
    public var maxResultBytes: Int

    public static let defaultSeconds = 30.0
    /// A day: longer is a query no one waits for.
    public static let maxSeconds = 86_400.0

    public init(seconds: Double = defaultSeconds, maxValueBytes: Int32 = 64 << 20, maxResultBytes: Int = 256 << 20) {
        self.seconds = seconds
        self.maxValueBytes = maxValueBytes
        self.maxResultBytes = maxResultBytes
    }

    static func mebibytes(_ bytes: some BinaryInteger) -> String { "\(Int(bytes) >> 20) MiB" }

    /// A point in time the query must not run past, as SQLite's progress handler reads it.
    final class Deadline {
        let end: UInt64

        init(seconds: Double) {
            // Within a day, far inside UInt64's range; `query --timeout` refuses more, and NaN.
            let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), QueryLimits.maxSeconds)
            end = DispatchTime.now().uptimeNanoseconds + UInt64(bounded * 1e9)
        }

        var hasPassed: Bool { DispatchTime.now().uptimeNanoseconds > end }
    }

    /// Runs `body` with SQLite's length limit and a progress handler that interrupts the
    /// statement once the deadline has passed; both are taken off again after it.
    func bounding<Value>(_ db: Database, at url: URL, _ body: (Deadline) throws -> Value) throws -> Value {
        let deadline = Deadline(seconds: seconds)
        let connection = db.sqliteConnection
        let previousLength = sqlite3_limit(connection, SQLITE_LIMIT_LENGTH, maxValueBytes)
        let context = Unmanaged.passRetained(deadline)
        // Every thousand virtual-machine steps: cheap next to them, and often enough to stop
        // within milliseconds of the deadline.
        sqlite3_progress_handler(connection, 1000, { context in
            guard let context else { return 0 }
            return Unmanaged<Deadline>.fromOpaque(context).takeUnretainedValue().hasPassed ? 1 : 0
        }, context.toOpaque())
        defer {
            sqlite3_progress_handler(connection, 0, nil, nil)
            sqlite3_limit(connection, SQLITE_LIMIT_LENGTH, previousLength)
            context.release()
        }
        return try body(deadline)
    }

    func timedOut(at url: URL) -> Failure {
        Failure(.snapshot, "query stopped after \(Self.phrase(seconds)) (--timeout): it did not finish in time; narrow it, "
                + "or give a longer --timeout", at: url.path)
    }

    func tooLarge(at url: URL) -> Failure {
        Failure(.snapshot, "query stopped: its answer passed \(Self.mebibytes(maxResultBytes)) held in memory; "
                + "add a LIMIT or narrow it", at: url.path)
    }

    private static func phrase(_ value: Double) -> String {
        value == value.rounded() && value < 1e9 ? "\(Int(value)) s" : "\(value) s"
    }
}
