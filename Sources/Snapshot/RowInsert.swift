import GRDB

/// A cached INSERT run row after row, each value bound in place through GRDB's
/// `StatementBinding`.
///
/// `execute(arguments:)` boxes every value in an existential, gathers them in an array and
/// turns each into a `DatabaseValue` before binding it: for the million rows of 100,000 recipes
/// that was more than half of the write stage (perf). Values bound here go to SQLite the way
/// GRDB binds them itself (text as UTF-8, Bool as 0/1), so the rows are the same.
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

    func insert<each Value: StatementBinding>(_ values: repeat each Value) throws {
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
            let code = value.bind(to: statement.sqliteStatement, at: index)
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
