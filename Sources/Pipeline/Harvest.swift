import FoodModel
import Fetching
import Foundation

/// What one partition of work produced: its share of the dataset and the documents it read.
struct PartitionResult: Sendable {
    var dataset: Dataset
    var warnings: [String]
}

/// The per-adapter half of the fetch and parse stages: which partitions a source has and how
/// one partition turns documents into FoodModel values.
protocol Harvester: Sendable {
    var source: SourceSpec { get }
    /// The partition keys of this source for a run (dates as `YYYY-MM-DD`, or named singletons).
    var partitions: [String] { get }
    func harvest(partition: String, from documents: any DocumentSource, run: RunContext) async throws
        -> PartitionResult
}

/// What partitions of one run share: foods already read, so a dish served in five halls on
/// ten days has its page fetched once per run.
actor RunContext {
    private var foodsRead: Set<FoodID> = []

    /// Claims a food for this partition; false when another partition already read it.
    func claim(_ food: FoodID) -> Bool {
        foodsRead.insert(food).inserted
    }
}

/// Remembers every document a partition read, for the ledger, `_sources` and the manifest.
actor DocumentLog: DocumentSource {
    private let upstream: any DocumentSource
    private(set) var documents: [SourceDocument] = []
    /// Time spent waiting for documents, so the fetch stage can be timed apart from parsing.
    private(set) var fetchSeconds = 0.0

    init(upstream: any DocumentSource) {
        self.upstream = upstream
    }

    func fetch(_ url: String) async throws -> FetchedDocument {
        let started = Date()
        defer { fetchSeconds += Date().timeIntervalSince(started) }
        let document = try await upstream.fetch(url)
        documents.append(SourceDocument(
            url: document.url, fetchedAt: isoTimestamp(document.fetchedAt), status: document.status,
            sha256: document.sha256, charset: document.charset, byteCount: document.body.count))
        return document
    }
}

func isoTimestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
}
