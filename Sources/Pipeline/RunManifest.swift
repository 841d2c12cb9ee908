import FoodModel
import Snapshot

/// The run manifest (JSON beside the snapshot): what ran, on what, how long each stage took,
/// and what the checks said — enough to reproduce or audit a publication.
public struct RunManifest: Hashable, Sendable, Codable {
    public struct Stage: Hashable, Sendable, Codable {
        public var name: String
        public var seconds: Double
        public var counts: [String: Int]
    }

    public struct Partition: Hashable, Sendable, Codable {
        public var source: String
        public var key: String
        /// `fetched`, `reused` (replayed from the raw store), `failed`, or `unchanged` (revalidated:
        /// the same bytes as the latest snapshot's, so not parsed).
        public var status: String
        public var documents: Int
        /// Documents served from the raw store without a request (pages already known).
        public var documentsReused: Int
        /// Conditional requests answered 304 Not Modified.
        public var notModified: Int
        public var message: String?
    }

    public var pipeline: String
    public var pipelineFile: String
    public var runId: String
    public var codeVersion: String
    public var arguments: [String]
    public var startedAt: String
    public var finishedAt: String
    public var today: String
    /// The snapshot published, or when `unchanged` the one that is still current.
    public var snapshot: String?
    public var published: Bool
    /// True when every input was what the latest snapshot was built from, so none was published.
    public var unchanged: Bool
    /// The fingerprint of the code, the pipeline and every input (`_meta.inputs_sha256`).
    public var inputsSHA256: String?
    public var partitions: [Partition]
    public var inputs: [SourceDocument]
    public var stages: [Stage]
    public var checks: [CheckOutcome]
    public var rowCounts: [String: Int]
}

/// What `run` returns to its caller: the manifest, plus where the snapshot went.
public struct RunReport: Hashable, Sendable {
    public var manifest: RunManifest
    /// The published file; when the inputs were unchanged, the latest snapshot, which is still
    /// current; nil when a check blocked publishing.
    public var snapshotPath: String?
    public var manifestPath: String
    public var seconds: Double

    public var published: Bool { snapshotPath != nil && !manifest.unchanged }
    public var unchanged: Bool { manifest.unchanged }
    public var blockingChecks: [CheckOutcome] { manifest.checks.filter(\.blocksPublishing) }
}

/// The `--dry-run` answer: what a run would do, touching nothing.
public struct RunPlan: Hashable, Sendable, Codable {
    public struct Step: Hashable, Sendable, Codable {
        public var source: String
        public var adapter: String
        public var location: String
        public var partition: String
        /// `fetch` or `reuse` (replay from the raw store).
        public var action: String
    }

    public var pipeline: String
    public var pipelineFile: String
    public var today: String
    public var steps: [Step]
    public var snapshotsFolder: String
    public var latest: String?
}

/// The version recorded in `_meta` and manifests.
public enum CommissaryVersion {
    public static let current = "0.1.0"
}
