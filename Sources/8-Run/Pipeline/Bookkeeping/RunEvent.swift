import Basics
import Foundation
import Snapshot

/// Something a run reports as it goes: a terminal shows it as progress, a pipe gets it as one
/// JSON line. Optional fields are absent from the JSON when they do not apply.
public struct RunEvent: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable {
        case runStarted = "run_started"
        case stageStarted = "stage_started"
        case stageFinished = "stage_finished"
        case partitionStarted = "partition_started"
        /// In partition order, not in the order partitions happen to finish.
        case partitionFinished = "partition_finished"
        case warning
        case check
        case published
        /// The snapshot is also in PostgreSQL (`publish: postgres:`): the schema in `message`.
        case publishedPostgres = "published_postgres"
        case notPublished = "not_published"
        /// What revalidation concluded when the run goes on to parse: which input changed, or
        /// that the code or the pipeline did.
        case revalidated
        /// Every input is byte-for-byte what the latest snapshot was built from: nothing to publish.
        case unchanged
        case runFinished = "run_finished"
    }

    public var event: Kind
    /// When it happened, ISO 8601 in UTC to the millisecond.
    public var time: String
    public var pipeline: String
    public var runId: String
    public var stage: StageName?
    public var source: String?
    public var partition: String?
    /// A `PartitionStatus` for partitions, a `RunStatus` when the run finishes, `passed` or
    /// `failed` for checks.
    public var status: String?
    public var message: String?
    public var seconds: Double?
    public var counts: [String: Int]?
    public var path: String?
    public var check: CheckOutcome?

    public init(_ event: Kind, at time: Date, pipeline: String, runId: String, stage: StageName? = nil,
                source: String? = nil, partition: String? = nil, status: String? = nil,
                message: String? = nil, seconds: Double? = nil, counts: [String: Int]? = nil,
                path: String? = nil, check: CheckOutcome? = nil) {
        self.event = event
        self.time = ISOTimestamp.millisecondString(from: time)
        self.pipeline = pipeline
        self.runId = runId
        self.stage = stage
        self.source = source
        self.partition = partition
        self.status = status
        self.message = message
        self.seconds = seconds
        self.counts = counts
        self.path = path
        self.check = check
    }
}

/// Receives a run's events; the command-line tool renders them, tests collect them.
public protocol RunObserver: Sendable {
    func observe(_ event: RunEvent)
}

/// An observer that ignores everything (library callers that only want the report).
public struct SilentObserver: RunObserver {
    public init() {}
    public func observe(_ event: RunEvent) {}
}
