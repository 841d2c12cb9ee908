import GRDB
import GRDBSQLite

/// A cached INSERT run row after row, each value bound in place through SQLite's C interface.
///
/// `execute(arguments:)` boxes every value in an existential, gathers them in an array and
/// turns each into a `DatabaseValue` before binding it, and binds text through a C string that
/// Swift copies first: for the million rows of 100,000 recipes that was more than half of the
/// write stage (perf). Here each value is bound as it is, text with its length. The values go
/// to SQLite as GRDB binds them (text as UTF-8, Bool as 0/1), so the rows are the same.
final class RowInsert {
    private let db: Database
    private let sql: String
    private var statement: Statement
    /// Set when a row failed: SQLite cannot reset a statement whose step failed, and GRDB drops
    /// it from its cache, so the next row prepares the statement again.
    private var statementFailed = false
    /// The number of values last checked against the statement's parameters: a row with too
    /// few would silently keep the previous row's values in the parameters it leaves unbound.
    private var checkedCount: CInt = -1
    private let noArguments = StatementArguments()

    init(_ db: Database, sql: String) throws {
        self.db = db
        self.sql = sql
        statement = try db.cachedStatement(sql: sql)
    }

    func insert<each Value: BoundValue>(_ values: repeat each Value) throws {
        if statementFailed {
            statement = try db.cachedStatement(sql: sql)
            statementFailed = false
        }
        // Resets the statement (SQLite refuses bindings on one that has run) and marks its
        // arguments as set, so that `execute()` runs with what is bound below.
        statement.setUncheckedArguments(noArguments)
        var index: CInt = 0
        for value in repeat each values {
            index += 1
            let code = value.bindAsParameter(index, of: statement.sqliteStatement)
            guard ResultCode(rawValue: code) == .SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot bind value \(index)",
                                    sql: sql)
            }
        }
        if index != checkedCount {
            try statement.validateArguments(StatementArguments(Array(repeating: DatabaseValue.null, count: Int(index))))
            checkedCount = index
        }
        do {
            try statement.execute()
        } catch {
            statementFailed = true
            throw error
        }
    }
}

/// A value `RowInsert` binds straight to a statement parameter.
protocol BoundValue {
    /// The result code of the `sqlite3_bind_*` call.
    func bindAsParameter(_ index: CInt, of statement: SQLiteStatement) -> CInt
}

/// SQLite copies the bytes before the call returns, so they need not outlive it.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension String: BoundValue {
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
    func bindAsParameter(_ index: CInt, of statement: SQLiteStatement) -> CInt {
        sqlite3_bind_int64(statement, index, Int64(self))
    }
}

extension Double: BoundValue {
    func bindAsParameter(_ index: CInt, of statement: SQLiteStatement) -> CInt {
        sqlite3_bind_double(statement, index, self)
    }
}

extension Bool: BoundValue {
    func bindAsParameter(_ index: CInt, of statement: SQLiteStatement) -> CInt {
        sqlite3_bind_int64(statement, index, self ? 1 : 0)
    }
}

extension Optional: BoundValue where Wrapped: BoundValue {
    func bindAsParameter(_ index: CInt, of statement: SQLiteStatement) -> CInt {
        switch self {
        case .none: sqlite3_bind_null(statement, index)
        case .some(let value): value.bindAsParameter(index, of: statement)
        }
    }
}
