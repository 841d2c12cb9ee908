import Basics
import FoodModel
import Foundation
import GRDB
import GRDBSQLite

/// A cached INSERT run row after row through SQLite's C interface: each value bound in place,
/// the statement stepped and reset directly.
///
/// `execute(arguments:)` boxes every value in an existential, gathers them in an array and
/// turns each into a `DatabaseValue` before binding it, and binds text through a C string that
/// Swift copies first: for the million rows of 100,000 recipes that was more than half of the
/// write stage (perf). Binding in place halved it; stepping through GRDB's `execute()` still
/// cost a fifth of what was left (resetting through GRDB, its per-statement hooks, a check of
/// the dispatch queue per row), which this type, used only inside a write, does not need. The
/// statement is GRDB's cached one, so GRDB still prepares it once and finalizes it when the
/// connection closes; it is always reset after a row, so GRDB finds it ready. The values go to
/// SQLite as GRDB binds them (text as UTF-8, Bool as 0/1), so the rows are the same.
///
/// Made on a `RowDigest`, it feeds each row's values to the digest, and on a database as well
/// writes them: the digest of the rows a writer inserts, or would insert, in their order.
final class RowInsert {
    private let sql: String
    private let connection: SQLiteConnection?
    /// Held so that the C statement below lives as long as this value, even if GRDB empties its
    /// cache meanwhile.
    private let cached: Statement?
    private let statement: SQLiteStatement?
    private let parameterCount: CInt
    private let digest: RowDigest?

    /// `digesting`: a digest fed the rows as they are written, as one made on it alone is.
    init(_ db: Database, sql: String, digesting digest: RowDigest? = nil) throws {
        self.sql = sql
        connection = db.sqliteConnection
        let cached = try db.cachedStatement(sql: sql)
        self.cached = cached
        statement = cached.sqliteStatement
        parameterCount = sqlite3_bind_parameter_count(cached.sqliteStatement)
        self.digest = digest
        digest?.bytes.put(sql)
    }

    init(digesting digest: RowDigest, sql: String) {
        self.sql = sql
        connection = nil
        cached = nil
        statement = nil
        parameterCount = 0
        self.digest = digest
        digest.bytes.put(sql)
    }

    func insert<each Value: BoundValue>(_ values: repeat each Value) throws {
        if let digest {
            // Laid out in a buffer of this call's own, moved in and out of the digest once a row:
            // each value written through the class's property paid an access check of its own.
            var bytes = FieldWriter()
            swap(&bytes, &digest.bytes)
            bytes.put(present: true)
            for value in repeat each values { value.digest(into: &bytes) }
            swap(&bytes, &digest.bytes)
        }
        guard let statement else { return }
        var index: CInt = 0
        for value in repeat each values {
            index += 1
            let code = value.bindAsParameter(index, of: statement)
            guard code == SQLITE_OK else { throw failure(code, "cannot bind value \(index)") }
        }
        // A row with too few values would silently keep the previous row's in the rest.
        guard index == parameterCount else {
            let message = "\(index) values for \(parameterCount) parameters"
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: message, sql: sql)
        }
        let stepped = sqlite3_step(statement)
        let error = stepped == SQLITE_DONE ? nil : failure(sqlite3_extended_errcode(connection), nil)
        sqlite3_reset(statement)
        if let error { throw error }
    }

    /// Inserts every row `select` reads, on whatever connection it was made, each value bound as
    /// SQLite holds it (`sqlite3_bind_value`): a blob stays the same bytes, and no value is made
    /// a Swift one on the way. `select` reads as many columns as this statement has parameters.
    func insertEveryRow(of select: Statement) throws {
        guard let statement else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a digest takes values, not rows", sql: sql)
        }
        let source = select.sqliteStatement
        guard sqlite3_column_count(source) == parameterCount else {
            let message = "\(sqlite3_column_count(source)) columns for \(parameterCount) parameters"
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: message, sql: sql)
        }
        defer { sqlite3_reset(source) }
        while true {
            let read = sqlite3_step(source)
            if read == SQLITE_DONE { return }
            guard read == SQLITE_ROW else {
                let reason = sqlite3_errmsg(sqlite3_db_handle(source)).map { String(cString: $0) } ?? "error \(read)"
                throw DatabaseError(resultCode: ResultCode(rawValue: read), message: reason, sql: select.sql)
            }
            for index in 0..<parameterCount {
                let code = sqlite3_bind_value(statement, index + 1, sqlite3_column_value(source, index))
                guard code == SQLITE_OK else { throw failure(code, "cannot bind value \(index + 1)") }
            }
            let stepped = sqlite3_step(statement)
            let error = stepped == SQLITE_DONE ? nil : failure(sqlite3_extended_errcode(connection), nil)
            sqlite3_reset(statement)
            if let error { throw error }
        }
    }

    /// The connection's own message for a failed call (read before the reset that follows).
    private func failure(_ code: CInt, _ context: String?) -> DatabaseError {
        let reason = sqlite3_errmsg(connection).map { String(cString: $0) } ?? "error \(code)"
        let message = context.map { "\($0): \(reason)" } ?? reason
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
    }
}

/// The digest of the rows a writer inserts, through `RowInsert`s made on it: each statement's
/// text, then each row's values in a fixed order (`FieldWriter`), so that two digests are equal
/// only when the same rows would be written in the same order.
final class RowDigest {
    fileprivate(set) var bytes = FieldWriter()

    var sha256: String { sha256Hex(Data(bytes.bytes)) }
}

/// A value `RowInsert` binds straight to a statement parameter.
protocol BoundValue {
    /// The result code of the `sqlite3_bind_*` call.
    func bindAsParameter(_ index: CInt, of statement: SQLiteStatement) -> CInt
    /// The value as a `RowDigest` takes it.
    func digest(into bytes: inout FieldWriter)
}

/// SQLite copies the bytes before the call returns, so they need not outlive it.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension String: BoundValue {
    func digest(into bytes: inout FieldWriter) { bytes.put(self) }

    func bindAsParameter(_ index: CInt, of statement: SQLiteStatement) -> CInt {
        var text = self
        return text.withUTF8 { bytes in
            // A null pointer would bind NULL, so an empty text points at an empty C string.
            guard let start = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(statement, index, "", 0, transient)
            }
            return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text64(statement, index, $0, sqlite3_uint64(bytes.count), transient, UInt8(SQLITE_UTF8))
            }
        }
    }
}

extension Int: BoundValue {
    func digest(into bytes: inout FieldWriter) { bytes.put(self) }

    func bindAsParameter(_ index: CInt, of statement: SQLiteStatement) -> CInt {
        sqlite3_bind_int64(statement, index, Int64(self))
    }
}

extension Double: BoundValue {
    func digest(into bytes: inout FieldWriter) { bytes.put(self) }

    func bindAsParameter(_ index: CInt, of statement: SQLiteStatement) -> CInt {
        sqlite3_bind_double(statement, index, self)
    }
}

extension Bool: BoundValue {
    func digest(into bytes: inout FieldWriter) { bytes.put(self ? 1 : 0) }

    func bindAsParameter(_ index: CInt, of statement: SQLiteStatement) -> CInt {
        sqlite3_bind_int64(statement, index, self ? 1 : 0)
    }
}

extension Optional: BoundValue where Wrapped: BoundValue {
    func digest(into bytes: inout FieldWriter) {
        bytes.put(present: self != nil)
        self?.digest(into: &bytes)
    }

    func bindAsParameter(_ index: CInt, of statement: SQLiteStatement) -> CInt {
        switch self {
        case .none: sqlite3_bind_null(statement, index)
        case .some(let value): value.bindAsParameter(index, of: statement)
        }
    }
}
