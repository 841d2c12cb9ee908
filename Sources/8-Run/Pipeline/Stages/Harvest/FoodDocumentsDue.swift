import Basics
import Fetching
import FoodModel
import Foundation
import SourceAdapters

/// Which partitions done before have a food document to ask tonight, decided before anything
/// is asked: a stored copy no longer fresh (`fetch.revalidate`), or a missing one whose back-off
/// is over (`fetch.missing_documents`). Such a partition is read rather than taken from the parse
/// cache, since the cache would never ask for its documents.
struct FoodDocumentsDue {
    let context: StageContext
    /// The source's missing documents, by the partition that last asked for them.
    private let missingByPartition: [String: [MissingDocument]]
    /// The raw store's newest record of each stored food document of the partitions judged, by
    /// URL, read in one query; nil for a folder. A server's stored answers may carry their own
    /// lifetime (`Cache-Control`, `Expires`), which only the record holds. A folder's records
    /// carry no headers, so the time a document was read, which the partition's state holds,
    /// decides alone (an unchanged night over a folder of 710 pages paid ~25 ms for the look-ups).
    private let storedRecords: [String: FetchRecord]?

    /// `judged` are the states `anyDue` will be asked about: their records are looked up at once.
    init(context: StageContext, missing: [String: MissingDocument], onTheWeb: Bool, judged: [PartitionState]) {
        self.context = context
        missingByPartition = Dictionary(grouping: missing.values, by: \.partition)
        guard onTheWeb, !context.options.force else {
            storedRecords = nil
            return
        }
        let urls = Set(judged.flatMap { previous in
            let changing = Self.changing(previous)
            return previous.documents.filter { $0.status == 200 && !changing.contains($0.url) }.map(\.url)
        })
        // A store that cannot be read judges nothing due, as a document it cannot find.
        storedRecords = (try? RawStore(root: context.options.workspace.raw).latestRecords(for: urls)) ?? [:]
    }

    /// True when `previous`'s partition has a food document to ask tonight. A `--force` run asks
    /// everything anyway, and a run of given dates asks every missing document it covers.
    func anyDue(_ previous: PartitionState) -> Bool {
        guard !context.options.force else { return false }
        let now = context.started
        let backOff = context.spec.fetch.missingDocuments
        if let missing = missingByPartition[previous.key],
           context.options.dates != nil || missing.contains(where: { backOff.isDue($0, now: now) }) {
            return true
        }
        let changing = Self.changing(previous)
        let freshness = Freshness(period: context.spec.fetch.foodDocuments)
        return previous.documents.contains { document in
            guard document.status == 200, !changing.contains(document.url),
                  let record = storedRecords.map({ $0[document.url] }) ?? Self.record(of: document)
            else { return false }
            return !freshness.isFresh(record, now: now)
        }
    }

    /// The partition's documents read afresh each run (its menus): not food documents.
    private static func changing(_ previous: PartitionState) -> Set<String> {
        Set(previous.revalidate ?? previous.documents.map(\.url))
    }

    /// A folder document's record as the raw store holds it: no headers, read at `fetchedAt`.
    private static func record(of document: SourceDocument) -> FetchRecord? {
        ISOTimestamp.date(fromString: document.fetchedAt).map { fetchedAt in
            FetchRecord(url: document.url, status: document.status, headers: [:], charset: document.charset,
                        sha256: document.sha256, size: document.byteCount, fetchedAt: fetchedAt)
        }
    }
}

extension StageContext {
    /// How the partition's log treats its food documents. `--force` reads no stored copy at all,
    /// and it and `run --date` ask every missing document they cover; only a web source's misses
    /// are remembered.
    func foodDocumentPolicy(for work: PartitionWork) -> FoodDocumentPolicy {
        let onTheWeb = if case .web = work.harvester.source.location { true } else { false }
        return FoodDocumentPolicy(
            freshness: Freshness(period: spec.fetch.foodDocuments), backOff: spec.fetch.missingDocuments,
            missing: work.missing, asksEveryMissing: options.force || options.dates != nil,
            remembersMissing: onTheWeb, now: started, partition: work.key, live: work.live)
    }
}
