import Foundation

/// The one shape of Commissary's errors, after swift-nio's `FileSystemError`: a code, a message
/// that says what went wrong and what to do, the place (file:line:col and key, URL, or row), and
/// the underlying cause when a system, Foundation, SQLite, libcurl or libpq error was wrapped.
/// Its description is the one line a user reads: `place: message`.
public struct Failure: Error, Sendable, CustomStringConvertible {
    public var code: Code
    /// What went wrong and, where there is something to do, what to do.
    public var message: String
    public var place: Place?
    /// The error this one wraps, kept for whoever needs more than the line (`Error` is
    /// `Sendable`, so a failure holding one still crosses tasks).
    public var cause: (any Error)?
    /// The HTTP status a server answered with, when there was one: retries and the run's
    /// deadline read it.
    public var status: Int?
    /// The signal that stopped the run, for a stop by signal: the exit status says which.
    public var signal: Int32?

    public init(_ code: Code, _ message: String, at place: Place? = nil, cause: (any Error)? = nil,
                status: Int? = nil) {
        self.code = code
        self.message = message
        self.place = place
        self.cause = cause
        self.status = status
    }

    /// A failure at a file path or URL, when known.
    public init(_ code: Code, _ message: String, at location: String?, cause: (any Error)? = nil,
                status: Int? = nil) {
        self.init(code, message, at: location.map { Place($0) }, cause: cause, status: status)
    }

    /// A page, response, file or value that cannot be used, at a file path or URL.
    public static func badInput(_ message: String, at location: String) -> Failure {
        Failure(.badInput, message, at: Place(location))
    }

    /// `place: message`, then the cause's words when the message does not already say them.
    public var description: String {
        var line = message
        if let cause, let said = Failure.plainWords(of: cause), !message.lowercased().contains(said.lowercased()) {
            line += line.isEmpty ? said : " (\(said))"
        }
        guard let place else { return line }
        return "\(place): \(line)"
    }

    /// A cause in plain words: a failure's message, or the operating system's words for a system
    /// or Foundation file error. Any other error (a YAML reader's, SQLite's through GRDB) reads as
    /// a report over several lines, so the message that wrapped it says what it means instead.
    private static func plainWords(of cause: any Error) -> String? {
        if let failure = cause as? Failure { return failure.message.isEmpty ? nil : failure.message }
        let error = cause as NSError
        // Foundation's file errors are Cocoa codes 0...1023 (its `NSFileErrorMinimum`...`Maximum`);
        // a decoder's errors arrive in the same domain with codes above them.
        let isFileError = error.domain == NSCocoaErrorDomain && (0...1023).contains(error.code)
        guard error.domain == NSPOSIXErrorDomain || isFileError else { return nil }
        return SystemMessage.describe(cause)
    }
}

extension Failure {
    /// Where a failure happened: a file path or URL, with the line, column and key of a pipeline
    /// file or the row of a table when known.
    public struct Place: Hashable, Sendable, CustomStringConvertible {
        /// A file path, a URL, or what the user named (a command's option, an environment variable).
        public var location: String
        public var line: Int?
        public var column: Int?
        /// The key inside the file (`sources[0].dates.from`).
        public var key: String?
        public var row: Int?

        public init(_ location: String, line: Int? = nil, column: Int? = nil, key: String? = nil, row: Int? = nil) {
            self.location = location
            self.line = line
            self.column = column
            self.key = key
            self.row = row
        }

        /// `file:line:col: key`, `url`, or `file: row 12`.
        public var description: String {
            var text = location
            if let line { text += ":\(line)" }
            if let column { text += ":\(column)" }
            if let key, !key.isEmpty { text += ": \(key)" }
            if let row { text += ": row \(row)" }
            return text
        }
    }
}

extension Failure {
    /// What kind of failure stopped a command; the executable turns it into an exit status, in
    /// one table (`ExitStatus` in `commissary`).
    public enum Category: String, Hashable, Sendable, Codable, CaseIterable {
        /// A page, response, file, pipeline value or argument that cannot be used: fix the input.
        case badInput = "bad_input"
        /// Another run of the same pipeline holds its lock: wait for it.
        case locked
        /// A blocking check stopped the publication; the last good snapshot stays `latest`.
        case blocked
        /// The machine, not the input: a full disk, a read-only folder, a file that cannot be
        /// written or synced, a network that cannot be reached.
        case environment
        /// Stopped on request (SIGINT, SIGTERM, SIGHUP) before it finished.
        case interrupted
        /// Published, but what follows the publication (its manifest, the ledger's last word)
        /// could not be written: the snapshot is good and `latest`.
        case publishedIncompletely = "published_incompletely"
        /// Published and `latest`, but some partitions in it are their last good version because
        /// the newest fetch was refused or failed: the data is served, not fresh.
        case publishedStale = "published_stale"
    }

    /// What went wrong, by name, for the code that decides what to do about it (retry, move a
    /// damaged file aside, report a partition as refused); each code knows its category.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public let category: Category

        private init(_ name: String, _ category: Category) {
            self.name = name
            self.category = category
        }

        public var description: String { name }

        // Inputs.
        /// A page, response, file or value that cannot be used.
        public static let badInput = Code("bad_input", .badInput)
        /// A pipeline file that cannot be used; the place names the file, line, column and key.
        public static let pipelineFile = Code("pipeline_file", .badInput)
        /// An adapter or page format the registry does not have.
        public static let unknownName = Code("unknown_name", .badInput)
        /// A site address that carries a user name or password, refused before it is stored.
        public static let credentialsInAddress = Code("credentials_in_address", .badInput)
        /// Bytes Commissary wrote for itself (a cached parse, a scratch file) that were cut
        /// short or altered since.
        public static let damagedBytes = Code("damaged_bytes", .badInput)
        /// A snapshot that cannot be found, read or used.
        public static let snapshot = Code("snapshot", .badInput)
        /// A partition whose new fetch validation refused, with no last good version instead.
        public static let refusedPartition = Code("refused_partition", .badInput)

        // Fetching a document.
        public static let notFound = Code("not_found", .badInput)
        public static let httpStatus = Code("http_status", .badInput)
        public static let transport = Code("transport", .environment)
        public static let timeout = Code("timeout", .environment)
        public static let tooLarge = Code("too_large", .badInput)
        public static let truncated = Code("truncated", .badInput)
        public static let tooManyRedirects = Code("too_many_redirects", .badInput)
        public static let invalidURL = Code("invalid_url", .badInput)
        /// The server's TLS certificate could not be verified; never retried, never bypassed.
        public static let tlsVerification = Code("tls_verification", .badInput)
        /// The raw store could not be read or written.
        public static let store = Code("store", .environment)
        /// The run's deadline passed while the document was still waiting (`FetchDeadline`).
        public static let deadline = Code("deadline", .environment)
        public static let cancelled = Code("cancelled", .badInput)
        /// The codes of a site that could not be reached or did not answer in time: a refused
        /// connection or an unknown host (libcurl's transport errors), a timeout, a certificate
        /// that could not be verified. Not the run's deadline: a site answering 500 until the
        /// deadline was reached, and said so.
        public static let unreachableCodes: [Code] = [.transport, .timeout, .tlsVerification]
        public var meansUnreachable: Bool { Self.unreachableCodes.contains(self) }

        // The machine.
        /// A file or folder that could not be read, written, synced, renamed or linked.
        public static let fileSystem = Code("file_system", .environment)
        /// Standard output, standard error or a file named on the command line could not be written.
        public static let output = Code("output", .environment)
        /// The raw store's index, which SQLite calls not a database or malformed.
        public static let damagedRawIndex = Code("damaged_raw_index", .environment)
        /// The state ledger, which SQLite calls not a database or malformed.
        public static let damagedLedger = Code("damaged_ledger", .environment)
        /// A PostgreSQL server that cannot be reached or refused a statement.
        public static let postgres = Code("postgres", .environment)

        // How a run ended.
        public static let locked = Code("locked", .locked)
        public static let blocked = Code("blocked", .blocked)
        public static let interrupted = Code("interrupted", .interrupted)
        public static let publishedIncompletely = Code("published_incompletely", .publishedIncompletely)
        public static let publishedStale = Code("published_stale", .publishedStale)
        /// Every partition that failed, or was carried stale, failed because the site could not
        /// be reached (`unreachableCodes`): the network or the site, not the data.
        public static let unreachable = Code("unreachable", .environment)
    }
}

extension Failure {
    /// A file or folder that could not be read, written, synced, renamed or linked.
    public static func fileSystem(_ message: String, path: String, cause: (any Error)? = nil) -> Failure {
        Failure(.fileSystem, message, at: Place(path), cause: cause)
    }
}
