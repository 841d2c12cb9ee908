import Basics
import FoodModel
import Foundation
import Snapshot
import SourceAdapters

/// The run manifest (JSON beside the snapshot): what ran, on what, how long each stage took,
/// and what the checks said — enough to reproduce or audit a publication.
public struct RunManifest: Hashable, Sendable, Codable {
    public struct Stage: Hashable, Sendable, Codable {
        public var name: StageName
        public var seconds: Double
        public var counts: [String: Int]
    }

    public struct Partition: Hashable, Sendable, Codable {
        public var source: String
        public var key: String
        public var status: PartitionStatus
        public var documents: Int
        /// Documents served from the raw store without a request (pages already known).
        public var documentsReused: Int
        /// Conditional requests answered 304 Not Modified.
        public var notModified: Int
        public var message: String?
        /// What the adapter counted besides the values (rows a source marked unpublished,
        /// documents it could not read); absent when it counted nothing.
        public var counts: [String: Int]? = nil
        /// For a failed or stale partition, the code of what failed (`Failure.Code`): whether the
        /// site could not be reached or its data was refused decides the run's exit status.
        public var failure: String? = nil

        /// `2026-10-11 (ucla-menu: why)`: the partition and what happened to it, for a list.
        public var brief: String { "\(key) (\(source): \(message ?? status.rawValue))" }
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
    public var status: RunStatus
    public var published: Bool { status == .published }
    /// True when every input was what the latest snapshot was built from, so none was published.
    public var unchanged: Bool { status == .unchanged }
    /// The fingerprint of the code, the pipeline and every input (`_meta.inputs_sha256`).
    public var inputsSHA256: String?
    public var partitions: [Partition]
    public var inputs: [SourceDocument]
    public var stages: [Stage]
    public var checks: [CheckOutcome]
    public var rowCounts: [String: Int]
    /// The process's peak resident memory when the manifest was assembled, in MB (VmHWM): what a
    /// night of this pipeline needs, when `commissary` runs it. Nil where the kernel does not say.
    public var peakMemoryMB: Int?
}

extension RunManifest {
    private enum CodingKeys: String, CodingKey {
        case pipeline, pipelineFile, runId, codeVersion, arguments, startedAt, finishedAt, today, snapshot,
             status, published, unchanged, partitions, inputs, stages, checks, rowCounts
        /// Spelt so that snake_case (`inputs_sha256`, `UserJSON`) turns back into it.
        case inputsSHA256 = "inputsSha256"
        case peakMemoryMB = "peakMemoryMb"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        pipeline = try container.decode(String.self, forKey: .pipeline)
        pipelineFile = try container.decode(String.self, forKey: .pipelineFile)
        runId = try container.decode(String.self, forKey: .runId)
        codeVersion = try container.decode(String.self, forKey: .codeVersion)
        arguments = try container.decode([String].self, forKey: .arguments)
        startedAt = try container.decode(String.self, forKey: .startedAt)
        finishedAt = try container.decode(String.self, forKey: .finishedAt)
        today = try container.decode(String.self, forKey: .today)
        snapshot = try container.decodeIfPresent(String.self, forKey: .snapshot)
        status = try container.decode(RunStatus.self, forKey: .status)
        inputsSHA256 = try container.decodeIfPresent(String.self, forKey: .inputsSHA256)
        partitions = try container.decode([Partition].self, forKey: .partitions)
        inputs = try container.decode([SourceDocument].self, forKey: .inputs)
        stages = try container.decode([Stage].self, forKey: .stages)
        checks = try container.decode([CheckOutcome].self, forKey: .checks)
        rowCounts = try container.decode([String: Int].self, forKey: .rowCounts)
        peakMemoryMB = try container.decodeIfPresent(Int.self, forKey: .peakMemoryMB)
    }

    /// `published` and `unchanged` are written beside `status` for readers of older manifests.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pipeline, forKey: .pipeline)
        try container.encode(pipelineFile, forKey: .pipelineFile)
        try container.encode(runId, forKey: .runId)
        try container.encode(codeVersion, forKey: .codeVersion)
        try container.encode(arguments, forKey: .arguments)
        try container.encode(startedAt, forKey: .startedAt)
        try container.encode(finishedAt, forKey: .finishedAt)
        try container.encode(today, forKey: .today)
        try container.encodeIfPresent(snapshot, forKey: .snapshot)
        try container.encode(status, forKey: .status)
        try container.encode(published, forKey: .published)
        try container.encode(unchanged, forKey: .unchanged)
        try container.encodeIfPresent(inputsSHA256, forKey: .inputsSHA256)
        try container.encode(partitions, forKey: .partitions)
        try container.encode(inputs, forKey: .inputs)
        try container.encode(stages, forKey: .stages)
        try container.encode(checks, forKey: .checks)
        try container.encode(rowCounts, forKey: .rowCounts)
        try container.encodeIfPresent(peakMemoryMB, forKey: .peakMemoryMB)
    }
}

/// Assembles a run's manifest, once, when the run has done everything it will do (published
/// or not), so that the file and the report are the same.
struct ManifestBuilder {
    let context: StageContext

    func manifest(status: RunStatus, snapshot: String?, inputsSHA256: String?, partitions: [RunManifest.Partition],
                  inputs: [SourceDocument], stages: [RunManifest.Stage], checks: [CheckOutcome],
                  rowCounts: [String: Int]) -> RunManifest {
        RunManifest(
            pipeline: context.spec.name, pipelineFile: context.spec.file.path, runId: context.runId,
            codeVersion: CommissaryVersion.current, arguments: context.options.arguments,
            startedAt: ISOTimestamp.string(from: context.started), finishedAt: ISOTimestamp.string(from: context.clock.now()),
            today: context.options.today.description,
            snapshot: snapshot, status: status, inputsSHA256: inputsSHA256, partitions: partitions, inputs: inputs,
            stages: stages, checks: checks, rowCounts: rowCounts,
            peakMemoryMB: ProcessResources.peakResidentKB().map { ($0 + 1023) / 1024 })
    }
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
    /// One line per partition published from its last good version.
    public var stale: [String] { manifest.checks.filter { $0.severity == .stale }.map(\.message) }
    /// The partitions that failed, and those published from their last good version.
    public var failedPartitions: [RunManifest.Partition] { manifest.partitions.filter { $0.status == .failed } }
    public var stalePartitions: [RunManifest.Partition] { manifest.partitions.filter { $0.status == .stale } }

    /// Some partitions failed or are stale, each because its site could not be reached, and no
    /// partition failed for another reason: the run's trouble is the network's, not the data's.
    public var unreachable: Bool {
        let troubled = failedPartitions + stalePartitions
        let codes = Set(Failure.Code.unreachableCodes.map(\.name))
        return !troubled.isEmpty && troubled.allSatisfy { $0.failure.map(codes.contains) ?? false }
    }
}

/// The `--dry-run` answer: what a run would do, touching nothing.
public struct RunPlan: Hashable, Sendable, Codable {
    public struct Step: Hashable, Sendable, Codable {
        public var source: String
        public var adapter: String
        public var location: String
        public var partition: String
        /// `source/partition`, as `run --partition` takes it.
        public var key: String
        public var action: Action
    }

    public enum Action: String, Hashable, Sendable, Codable {
        /// Fetched and parsed.
        case fetch
        /// Replayed from the raw store, as the ledger recorded it (a resumed run, `--only-missing`).
        case reuse
        /// Revalidated: every document that can change is what the ledger recorded, so it is
        /// taken from the parse cache (parsed from the raw store when the cache lacks it), or
        /// not read at all when every partition is unchanged.
        case unchanged
        /// Left by a subset run (`--partition`), and never harvested or failed when last
        /// harvested: the night waits for it, and
        /// the subset run publishes nothing.
        case awaited
    }

    public var pipeline: String
    public var pipelineFile: String
    public var today: String
    public var steps: [Step]
    public var snapshotsFolder: String
    public var latest: String?
    /// The latest snapshot when every input is what it was built from: the run would publish
    /// nothing and say so.
    public var current: String?
    /// Whether the run would publish: false for a subset run while a partition is `awaited`.
    public var publishes: Bool
}

extension RunManifest {
    /// The manifest as `UserJSON.encoder()` writes it, its `inputs` and `partitions` written
    /// directly: a year of local pages lists 2,486 documents and 365 partitions, three years 3,216
    /// and 1,095, and the encoder's boxing and snake_case conversion of each key of each cost more
    /// than the rest of a night that found nothing changed. The rest is encoded with both lists
    /// empty and each put in its place: a member's key can appear nowhere else unescaped, as no
    /// other member has its name. `ManifestJSONTests` compares both ways. Both places are found
    /// in the small shell and filled from the last, so neither search reads a list already put in.
    public func json() throws -> Data {
        var shell = self
        shell.inputs = []
        shell.partitions = []
        let encoder = UserJSON.encoder()
        let skeleton = try encoder.encode(shell)
        let lists = [("inputs", Self.list(inputs, roomEach: 200, Self.append)),
                     ("partitions", try Self.list(partitions, roomEach: 160) { try Self.append($0, encoder, to: &$1) })]
        var places: [(range: Range<Data.Index>, text: String)] = []
        for (name, list) in lists {
            guard let place = skeleton.firstRange(of: Data("\"\(name)\":[]".utf8)) else { return try encoder.encode(self) }
            places.append((place, "\"\(name)\":[" + list + "]"))
        }
        var json = skeleton
        for place in places.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            json.replaceSubrange(place.range, with: Data(place.text.utf8))
        }
        return json
    }

    /// The members of a list, each written by `write` into one string whose room is made first: a
    /// string made for each member, and for each value in it, then joined, cost as much as the
    /// writing.
    private static func list<Element>(_ elements: [Element], roomEach: Int,
                                      _ write: (Element, inout String) throws -> Void) rethrows -> String {
        var text = ""
        text.reserveCapacity(elements.count * roomEach)
        for (index, element) in elements.enumerated() {
            if index > 0 { text += "," }
            try write(element, &text)
        }
        return text
    }

    /// A document as the encoder writes it (keys sorted, an absent charset left out), appended.
    private static func append(_ input: SourceDocument, to text: inout String) {
        text += #"{"byte_count":"#
        text += String(input.byteCount)
        member("charset", input.charset, to: &text)
        member("fetched_at", input.fetchedAt, to: &text)
        member("sha256", input.sha256, to: &text)
        member("status", number: input.status, to: &text)
        member("url", input.url, to: &text)
        text += "}"
    }

    /// A partition as the encoder writes it (keys sorted, absent members left out), appended. One
    /// with an adapter's counts (rare) is left to the encoder, which sorts the dictionary's keys.
    private static func append(_ partition: Partition, _ encoder: JSONEncoder, to text: inout String) throws {
        guard partition.counts == nil else {
            text += String(decoding: try encoder.encode(partition), as: UTF8.self)
            return
        }
        text += #"{"documents":"#
        text += String(partition.documents)
        member("documents_reused", number: partition.documentsReused, to: &text)
        member("failure", partition.failure, to: &text)
        member("key", partition.key, to: &text)
        member("message", partition.message, to: &text)
        member("not_modified", number: partition.notModified, to: &text)
        member("source", partition.source, to: &text)
        member("status", partition.status.rawValue, to: &text)
        text += "}"
    }

    /// `,"key":` and `value` as a JSON string after an object's first member; nothing for nil.
    /// `key` is one of the manifest's own, which need no escaping.
    private static func member(_ key: String, _ value: String?, to text: inout String) {
        guard let value else { return }
        text += #",""#
        text += key
        text += #"":"#
        appendJSONStringLiteral(value, to: &text)
    }

    /// `,"key":` and `number` after an object's first member.
    private static func member(_ key: String, number: Int, to text: inout String) {
        text += #",""#
        text += key
        text += #"":"#
        text += String(number)
    }
}
