import Basics

/// The exit statuses of every command, in one table: what a failure's code means to a shell.
public enum ExitStatus: Int32, CaseIterable, Sendable {
    /// Done: published, unchanged (nothing to publish), or the answer printed.
    case ok = 0
    /// A bad input or usage: a pipeline file, a page, an argument, a snapshot that cannot be read.
    case badInput = 1
    /// Another run of the same pipeline holds its lock.
    case locked = 2
    /// A blocking check stopped the publication; the last good snapshot stays `latest`.
    case blocked = 3
    /// The machine, not the input: a full disk, a read-only folder, a network that cannot be reached
    /// (a run whose every failed or stale partition could not reach its site), a standard output or
    /// error that cannot be written (a full disk, a reader that went away).
    case environment = 4
    /// Published and `latest`, but its manifest or the ledger's last write failed (a disk that
    /// filled up just then); the next run resumes.
    case publishedIncompletely = 5
    /// Published (or still current) with stale partitions: days whose newest fetch was refused
    /// or failed, carried from their last good version (`_stale`); its line is a warning.
    case publishedStale = 6
    /// `diff --exit-code` or `changes --exit-code` found differences. Not git's 1, which means a bad input here.
    case differ = 7
    /// `changes --since` found no chain of change files from the client's snapshot to `latest`:
    /// the client downloads the snapshot whole.
    case resync = 8
    /// `watch` found nothing its watch file asks for in the days ahead (and printed nothing as
    /// text); a cron job or a push service tells "nothing to send" from a failure by it.
    case nothingMatched = 9
    /// Stopped by a signal: 128 plus its number, as shells report it (SIGHUP 129, SIGINT 130,
    /// SIGTERM 143); SIGTERM's is the one named here.
    case stopped = 143

    public init(_ category: Failure.Category) {
        switch category {
        case .badInput: self = .badInput
        case .locked: self = .locked
        case .blocked: self = .blocked
        case .environment: self = .environment
        case .interrupted: self = .stopped
        case .publishedIncompletely: self = .publishedIncompletely
        case .publishedStale: self = .publishedStale
        }
    }

    /// The status of an error a command threw: a `Failure` by its code's category; anything
    /// else (argument validation included) is a bad input.
    public init(of error: any Error) {
        self = (error as? Failure).map { ExitStatus($0.code.category) } ?? .badInput
    }

    /// The number a process exits with: a stop by signal says which signal.
    public static func number(of error: any Error) -> Int32 {
        if let signal = (error as? Failure)?.signal { return 128 + signal }
        return ExitStatus(of: error).rawValue
    }

    public static let summary = "Exit status: 0 published, unchanged, or printed; 1 a bad input; "
        + "2 another run holds the pipeline's lock; 3 a blocking check stopped the publication "
        + "(the previous snapshot stays latest); 4 an environment failure such as a full disk, "
        + "a site that could not be reached (every failed or stale day's fetch), "
        + "or standard output or error that could not be written; "
        + "5 published and latest, but its manifest or the ledger could not be written; "
        + "6 published (or still current) with stale days, carried from their last good version; "
        + "7 the snapshots differ (diff or changes --exit-code); "
        + "8 changes --since found no chain of change files: download the latest snapshot whole; "
        + "9 watch matched nothing in the days ahead; "
        + "64 arguments that cannot be read (with the usage); "
        + "129, 130, 143 stopped by SIGHUP, SIGINT, SIGTERM (the next run resumes)."
}

extension Failure.Category {
    /// The word before a failure's line: a snapshot published with stale days is served, so it
    /// is a warning (its exit status still says so); anything else is an error.
    public var severity: String { self == .publishedStale ? "warning" : "error" }
}
