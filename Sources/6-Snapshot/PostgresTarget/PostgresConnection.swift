import Basics
import CLibPQ
import Foundation

/// Errors here are `postgres` failures (a server that cannot be reached, a statement refused)
/// or bad inputs (an address that cannot be used), each naming where: the environment variable
/// that holds the address, or the schema and table being written, never the address itself,
/// which may hold a password.
/// One connection through libpq, the reference client: statements run one at a time, results
/// come back as text (PostgreSQL's own output format), and rows go in through `COPY`, the
/// fastest way in. The one place the C interface is called.
public final class PostgresConnection {
    private let connection: OpaquePointer
    private let place: String
    /// Applied to every message libpq gives, so that none repeats the address's password.
    private let redaction: Redaction

    /// Connects to `url` (a libpq connection string or `postgresql://` URL); `place` names where
    /// the address came from, for errors.
    public init(url: String, place: String) throws {
        let redaction = try Self.redaction(for: url, place: place)
        // Named in `pg_stat_activity` unless the address names itself otherwise, so that an
        // operator sees which session holds a schema's publish lock or waits on a reader.
        let keywords = ["dbname", "fallback_application_name"]
        let values = [url, "commissary"]
        let opened = Self.withCStrings(keywords) { keywordPointers in
            Self.withCStrings(values) { valuePointers in PQconnectdbParams(keywordPointers, valuePointers, 1) }
        }
        guard let connection = opened else {
            throw Failure(.postgres, "libpq could not allocate a connection", at: place)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.message(of: connection, redaction)
            PQfinish(connection)
            throw Failure(.postgres, "cannot connect to PostgreSQL: \(message)", at: place)
        }
        self.connection = connection
        self.place = place
        self.redaction = redaction
    }

    /// `strings` as a null-terminated array of C strings, alive for the length of `body`.
    private static func withCStrings<T>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return body(copies.map { $0.map { UnsafePointer($0) } } + [nil])
    }

    /// What libpq's messages must not repeat of `address`, read the way libpq reads it. An
    /// address libpq cannot read, or whose user name or password it would read otherwise than
    /// written (`postgresql://u:p@ss@host` is password `p` and host `ss@host` to libpq), is
    /// refused here in Commissary's words: libpq's own would quote the address.
    static func redaction(for address: String, place: String) throws -> Redaction {
        var failure: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(address, &failure) else {
            PQfreemem(failure)
            throw Failure(.badInput, "libpq cannot read the address (its reason is not repeated: it quotes the address, "
                          + "password included); \(Self.addressForms)", at: place)
        }
        defer { PQconninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        var secrets = [address] + (values["password"].map { [$0] } ?? [])
        if let written = writtenUserInfo(of: address) {
            secrets += [written.raw, written.password].compactMap { $0 }
            guard written.user == values["user"], written.password == nil || written.password == values["password"] else {
                throw Failure(.badInput, "libpq would not read the user name and password as written (they hold a character "
                              + "that ends them: @ / ? #; the address is not repeated here); \(Self.addressForms)",
                              at: place)
            }
        }
        return Redaction(secrets: secrets)
    }

    private static let addressForms = "write postgresql://user:password@host:port/database with @ / ? # : in the password "
        + "written %40 %2F %3F %23 %3A, or host=… user=… password='…'"

    /// The user-info of a `postgresql://` address as written, from `://` to the last `@` (the
    /// widest reading), its user and password percent-decoded; nil without an `@`.
    private static func writtenUserInfo(of address: String) -> (raw: String, user: String?, password: String?)? {
        let lowered = address.lowercased()
        guard lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://"),
              let start = address.range(of: "://")?.upperBound, let end = address.lastIndex(of: "@"), start <= end
        else { return nil }
        let raw = String(address[start..<end])
        let colon = raw.firstIndex(of: ":")
        let user = String(raw[..<(colon ?? raw.endIndex)])
        let password = colon.map { String(raw[raw.index(after: $0)...]) }
        return (raw, user.isEmpty ? nil : user.removingPercentEncoding ?? user,
                password.map { $0.removingPercentEncoding ?? $0 })
    }

    deinit { PQfinish(connection) }

    /// Runs statements that return no rows (several may be separated by `;`).
    public func execute(_ sql: String, at where: String? = nil) throws {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw Failure(.postgres, Self.message(of: result, connection, redaction), at: `where` ?? place)
        }
    }

    /// Rows of a query, each value as PostgreSQL prints it (NULL as nil); parameters are bound
    /// as text, never spliced into the statement.
    public func query(_ sql: String, _ parameters: [String?] = [], at where: String? = nil) throws -> [[String?]] {
        let copies = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        let result = copies.map { UnsafePointer($0) }.withUnsafeBufferPointer { values in
            PQexecParams(connection, sql, Int32(parameters.count), nil, values.baseAddress, nil, nil, 0)
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK else {
            throw Failure(.postgres, Self.message(of: result, connection, redaction), at: `where` ?? place)
        }
        let columns = PQnfields(result)
        return (0..<PQntuples(result)).map { row in
            (0..<columns).map { column in
                PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
            }
        }
    }

    /// Streams rows into `table` with `COPY … FROM STDIN` (text format). `rows` calls its
    /// argument once per row, values as PostgreSQL reads them as text, NULL as nil.
    public func copy(into table: String, columns: [String], at where: String,
                     rows: ((([String?]) throws -> Void)) throws -> Void) throws {
        let start = PQexec(connection, "COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN")
        let started = PQresultStatus(start) == PGRES_COPY_IN
        let refusal = started ? "" : Self.message(of: start, connection, redaction)
        PQclear(start)
        guard started else { throw Failure(.postgres, refusal, at: `where`) }

        var buffer = [UInt8]()
        buffer.reserveCapacity(1 << 16)
        func flush() throws {
            guard !buffer.isEmpty else { return }
            let sent = buffer.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { PQputCopyData(connection, $0.baseAddress, Int32($0.count)) }
            }
            buffer.removeAll(keepingCapacity: true)
            guard sent == 1 else { throw Failure(.postgres, Self.message(of: connection, redaction), at: `where`) }
        }
        var failure: (any Error)?
        do {
            try rows { values in
                for (index, value) in values.enumerated() {
                    if index > 0 { buffer.append(0x09) }
                    if let value { Self.appendEscaped(value, to: &buffer) } else { buffer += [0x5C, 0x4E] }
                }
                buffer.append(0x0A)
                if buffer.count >= 1 << 16 { try flush() }
            }
            try flush()
        } catch {
            failure = error
        }
        // Ending the copy with an error message makes the server roll the statement back.
        _ = PQputCopyEnd(connection, failure == nil ? nil : "the rows could not be read")
        var message: String?
        while let result = PQgetResult(connection) {
            if PQresultStatus(result) != PGRES_COMMAND_OK, message == nil { message = Self.message(of: result, connection, redaction) }
            PQclear(result)
        }
        if let failure { throw failure }
        if let message { throw Failure(.postgres, message, at: `where`) }
    }

    /// COPY's text format: backslash, tab, newline and carriage return escaped.
    private static func appendEscaped(_ text: String, to buffer: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case 0x5C: buffer += [0x5C, 0x5C]
            case 0x09: buffer += [0x5C, 0x74]
            case 0x0A: buffer += [0x5C, 0x6E]
            case 0x0D: buffer += [0x5C, 0x72]
            default: buffer.append(byte)
            }
        }
    }

    private static func message(of connection: OpaquePointer, _ redaction: Redaction) -> String {
        redaction.apply(oneLine(String(cString: PQerrorMessage(connection))))
    }

    private static func message(of result: OpaquePointer?, _ connection: OpaquePointer, _ redaction: Redaction) -> String {
        guard let result, let text = PQresultErrorMessage(result), text.pointee != 0 else {
            return message(of: connection, redaction)
        }
        return redaction.apply(oneLine(String(cString: text)))
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
