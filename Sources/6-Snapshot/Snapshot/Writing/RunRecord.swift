/// What a snapshot records about the run that built it (`_runs`, `_meta`).
public struct RunRecord: Hashable, Sendable, Codable {
    public var runId: String
    public var pipeline: String
    /// ISO 8601, UTC.
    public var startedAt: String
    /// The service day the run took as today (`--as-of`, else the machine's day), which views
    /// count the days ahead from (`v_food_history`): recorded rather than read from the clock,
    /// so that a snapshot reads the same whenever it is read. nil where the writer knows none.
    public var asOf: String?
    public var codeVersion: String
    public var arguments: [String]
    public var partitions: Int
    /// Where the inputs came from, one line per source ("ucla-menu: SampleData/...").
    public var sources: [String]
    public var licence: String
    /// Where the licence is published, when the pipeline says.
    public var licenceURL: String?
    /// The site the data comes from (the first web source), for people who want the original.
    public var sourceURL: String?
    /// The sha256 of the code, the pipeline's definition and every input's bytes: a later run
    /// with the same fingerprint has nothing new to publish.
    public var inputsSHA256: String

    /// The `_meta` key the fingerprint is kept under.
    static let inputsMetaKey = "inputs_sha256"

    public init(runId: String, pipeline: String, startedAt: String, codeVersion: String,
                arguments: [String], partitions: Int, sources: [String], licence: String,
                licenceURL: String? = nil, sourceURL: String? = nil, inputsSHA256: String, asOf: String? = nil) {
        self.asOf = asOf
        self.licenceURL = licenceURL
        self.sourceURL = sourceURL
        self.runId = runId
        self.pipeline = pipeline
        self.startedAt = startedAt
        self.codeVersion = codeVersion
        self.arguments = arguments
        self.partitions = partitions
        self.sources = sources
        self.licence = licence
        self.inputsSHA256 = inputsSHA256
    }
}

/// The result of one data-quality check: an error blocks publishing, a warning is recorded.
public struct CheckOutcome: Hashable, Sendable, Codable {
    public enum Severity: String, Hashable, Sendable, Codable {
        case error, warning, info
        /// A partition published from its last good version: neither blocking nor clean.
        case stale
    }

    public var name: String
    public var severity: Severity
    public var passed: Bool
    public var value: Double?
    public var message: String
    /// The source the check judged, for a check made per source (`labelled_share`); its value
    /// is that source's.
    public var source: String?

    public init(name: String, severity: Severity, passed: Bool, value: Double? = nil, message: String,
                source: String? = nil) {
        self.name = name
        self.severity = severity
        self.passed = passed
        self.value = value
        self.message = message
        self.source = source
    }

    /// True for a failed check that must stop the publication.
    public var blocksPublishing: Bool { severity == .error && !passed }
}

/// A partition whose new fetch was refused or failed, published from its last good version.
public struct StalePartition: Hashable, Sendable, Codable {
    public var source: String
    /// The partition's key: a service date for a day.
    public var partition: String
    /// When the version published was fetched (ISO 8601, UTC), and by which run.
    public var keptFetchedAt: String
    public var keptRunId: String
    /// Why the new fetch was not used.
    public var reason: String

    public init(source: String, partition: String, keptFetchedAt: String, keptRunId: String, reason: String) {
        self.source = source
        self.partition = partition
        self.keptFetchedAt = keptFetchedAt
        self.keptRunId = keptRunId
        self.reason = reason
    }

    /// What the run says about it, in one line.
    public var line: String {
        "\(source)/\(partition) is stale: published as fetched \(keptFetchedAt); the new fetch was not used (\(reason))"
    }
}
