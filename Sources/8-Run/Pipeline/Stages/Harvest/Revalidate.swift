import FoodModel
import Fetching
import SourceAdapters
import Foundation
import Snapshot

/// What revalidation found before anything was parsed.
struct Revalidation {
    /// The partitions, each carrying what was fetched for it, so that nothing is requested twice.
    var work: [PartitionWork]
    /// The latest snapshot, with what it was found current by, when every partition would read
    /// exactly what that snapshot was built from: then there is nothing to publish.
    var currentSnapshot: LatestSnapshot?
    /// By source, the stored tags of its partitions' folder files, when revalidation compared
    /// any (`SharedRevalidation.entityTags`): those it did not reach use them too.
    var entityTags: [String: StoredEntityTags] = [:]

    /// Documents compared again (asked for, or a folder's file by its stamp), over every partition revalidated.
    var documentsFetched: Int { work.reduce(0) { $0 + $1.refetched } }

    /// How the documents of a run that found every input unchanged were had: those compared
    /// were asked (a 304 or a body), the rest are the raw store's, fresh.
    var documentCounts: DocumentCounts {
        var counts = DocumentCounts()
        for item in work {
            counts.revalidated += item.notModified
            counts.refetched += item.refetched - item.notModified
            counts.fresh += (item.previous?.documents.count ?? 0) - item.refetched
        }
        return counts
    }
}

/// The first half of the fetch stage: fetches again only the documents that can change.
struct Revalidate {
    let context: StageContext

    /// Fetches again only the documents that can change (a day's menu page, a dump file, a
    /// catalogue letter) and compares their sha256 with what the ledger says each partition
    /// read. When nothing differs and the code and pipeline are those of the latest snapshot,
    /// that snapshot is current and the run stops before parsing.
    ///
    /// It stops at the first changed partition: from there the run is a normal run, and what
    /// was fetched so far is handed to the parse instead of being fetched again. A full refresh,
    /// `--only-missing` and resumed runs skip this, since they ask for something else. A subset
    /// run (`--partition`) compares its own partitions alone and takes the others as last done, as
    /// it replays them. It opens the fetch stage, of which it is the first half.
    func run(_ work: [PartitionWork], latest: LatestSnapshot?, resuming: Bool) async -> Revalidation {
        context.emit(.stageStarted, stage: .fetch)
        let started = context.clock.instant
        var result = Revalidation(work: work, currentSnapshot: nil)
        // A latest snapshot with stale days or labels is never current: what it carries from
        // earlier nights is tried again every night until a good fetch replaces it. So is a day
        // published without some parts, unless history keeps it (it is never asked again).
        guard !context.options.force, !context.options.onlyMissing, !resuming, !work.isEmpty, let latest,
              let fingerprint = latest.inputsSHA256, latest.stalePartitions?.isEmpty ?? false,
              work.allSatisfy({ $0.previous?.status == .done && !$0.documentsDue
                                   || $0.history && $0.previous?.publishedInPart == true })
        else { return result }

        let firstChanged = await compare(work, into: &result)
        context.times.add(context.clock.seconds(since: started), to: .fetch)
        if let firstChanged {
            context.emit(.revalidated, message: "\(firstChanged) changed since it was last read: building a new snapshot")
            return result
        }
        let current = InputFingerprint.of(spec: context.spec, partitions: work.map { item in
            InputFingerprint.Partition(source: item.harvester.source.name, key: item.key,
                                       documents: item.previous?.documents ?? [], failed: false)
        })
        if current == fingerprint {
            result.currentSnapshot = latest
        } else {
            context.emit(.revalidated, message: "every input is as last read, but the code or the pipeline is not what "
                 + "built \(latest.url.lastPathComponent): building a new snapshot")
        }
        return result
    }

    /// Revalidates the partitions a few at a time, each told as an event, stopping at the first
    /// that changed: its name, or nil when every one is unchanged.
    private func compare(_ work: [PartitionWork], into result: inout Revalidation) async -> String? {
        var allUnchanged = true
        var firstChanged: String?
        let shared = SharedRevalidation(work)
        result.entityTags = shared.entityTags
        await withTaskGroup(of: (PartitionWork, Bool).self) { group in
            var next = work.makeIterator()
            for _ in 0..<context.partitionConcurrency {
                guard let item = next.next() else { break }
                group.addTask { await Self.revalidate(item, shared: shared) }
            }
            while let (checked, unchanged) = await group.next() {
                result.work[checked.index] = checked
                context.emit(.partitionFinished, stage: .revalidate, source: checked.harvester.source.name,
                            partition: checked.key,
                            status: (unchanged ? PartitionStatus.unchanged : .changed).rawValue,
                            counts: ["documents": checked.refetched, "not_modified": checked.notModified])
                allUnchanged = allUnchanged && unchanged
                if !unchanged, firstChanged == nil { firstChanged = "\(checked.harvester.source.name)/\(checked.key)" }
                if allUnchanged, let item = next.next() {
                    group.addTask { await Self.revalidate(item, shared: shared) }
                }
            }
        }
        return firstChanged
    }

    /// One partition: true when every document that can change has the bytes and status the
    /// ledger recorded. A changed partition keeps what was fetched (a failed fetch as its
    /// failure, for the parse to report); an unchanged one keeps nothing, since the raw store
    /// has those bytes under the same sha256.
    static func revalidate(_ work: PartitionWork, shared: SharedRevalidation) async -> (PartitionWork, Bool) {
        var work = work
        work.revalidated = true
        guard let previous = work.previous, previous.status == .done || work.history && previous.publishedInPart
        else { return (work, false) }
        // A kept day is what it last was, and so is a partition a subset run leaves: nothing of
        // it is asked for again.
        if work.history || !work.selected { return (work, true) }
        let storing = work.live as? StoringSource
        // By URL, once: a partition may list hundreds of documents, each looked up here.
        let recordedByURL = Dictionary(previous.documents.map { ($0.url, $0) }) { first, _ in first }
        for url in previous.revalidate ?? previous.documents.map(\.url) {
            let recorded = recordedByURL[url]
            // A folder's file still as it was stored, large or not, is compared by its recorded
            // digest, unread; counted as a conditional request answered 304 is.
            if let recorded,
               let stored = storing?.unchangedRecord(of: url, readAhead: shared.entityTags[work.harvester.source.name]),
               recorded.sha256 == stored.sha256, recorded.status == stored.status {
                work.refetched += 1
                work.notModified += 1
                continue
            }
            if let recorded, recorded.byteCount >= largeDocumentBytes {
                // Too large to hold twice (a dump of a million recipes): only its digest is
                // compared, read past the raw store (storing it would write it all again to
                // learn it is known), and a changed one is streamed again, and stored, by the parse.
                work.refetched += 1
                let upstream = storing?.upstream ?? work.live
                guard let record = try? await upstream.stream(url, into: { _ in }),
                      record.sha256 == recorded.sha256, record.status == recorded.status,
                      record.charset == recorded.charset
                else { return (work, false) }
                continue
            }
            let (fetched, requested) = await shared.fetch(url, source: work.harvester.source.name, from: work.live)
            work.prefetched[url] = fetched
            if requested { work.refetched += 1 }
            guard case .success(let document) = fetched,
                  // The same bytes under another declared charset read as other text.
                  previous.documents.contains(where: {
                      $0.url == url && $0.sha256 == document.sha256 && $0.status == document.status
                          && $0.charset == document.charset
                  })
            else { return (work, false) }
            if document.notModified && requested { work.notModified += 1 }
        }
        work.prefetched = [:]
        work.confirmed = true
        return (work, true)
    }
}

/// From this size on a document is revalidated by its digest alone, read in pieces and not
/// kept for the parse: a dump, read whole, would be held twice.
let largeDocumentBytes = 64 << 20

/// What the partitions revalidated together share. Documents that several partitions
/// revalidate (a Nutrislice week serves seven days), each asked for once in the stage and let go
/// once every partition that lists it has compared it, so that no body is held longer than its
/// readers need it; and the raw store's tags of every folder file they compare by its stamp,
/// read at once.
actor SharedRevalidation {
    private struct Key: Hashable {
        var source: String
        var url: String
    }

    private var readers: [Key: Int] = [:]
    private var fetches: [Key: Task<FetchedDocument, any Error>] = [:]
    /// By source, the stored tags of the URLs its partitions revalidate, where its upstream is a
    /// folder (`StoringSource.readEntityTags`).
    nonisolated let entityTags: [String: StoredEntityTags]

    /// `work`: the partitions that will revalidate through this instance. `entityTags`: those
    /// read for them before (`Revalidation.entityTags`), by source; a source missing there has
    /// its tags read here.
    init(_ work: [PartitionWork], entityTags known: [String: StoredEntityTags] = [:]) {
        var counts: [Key: Int] = [:]
        var urlsBySource: [String: (source: StoringSource, urls: Set<String>)] = [:]
        for item in work where !item.history {
            guard let previous = item.previous else { continue }
            let name = item.harvester.source.name
            let urls = Set(previous.revalidate ?? previous.documents.map(\.url))
            for url in urls {
                counts[Key(source: name, url: url), default: 0] += 1
            }
            if item.selected, known[name] == nil, let storing = item.live as? StoringSource {
                urlsBySource[name, default: (storing, [])].urls.formUnion(urls)
            }
        }
        readers = counts.filter { $0.value > 1 }
        entityTags = known.merging(urlsBySource.compactMapValues { $0.source.readEntityTags(of: $0.urls) }) { kept, _ in kept }
    }

    /// The document at `url` as `source` serves it; `requested` is true for the one partition
    /// whose call sent the request. A document no other partition lists is fetched in the
    /// caller's task; a shared one in a task of its own, which a stop cancels like the caller.
    func fetch(_ url: String, source name: String, from source: any DocumentSource) async
        -> (Result<FetchedDocument, any Error>, requested: Bool) {
        let key = Key(source: name, url: url)
        guard let remaining = readers[key] else {
            return (await Self.outcome { try await source.fetch(url) }, true)
        }
        let task = fetches[key] ?? Task { try await source.fetch(url) }
        let requested = fetches[key] == nil
        if remaining <= 1 {
            readers[key] = nil
            fetches[key] = nil
        } else {
            readers[key] = remaining - 1
            fetches[key] = task
        }
        let result = await withTaskCancellationHandler {
            await Self.outcome { try await task.value }
        } onCancel: {
            task.cancel()
        }
        return (result, requested)
    }

    private static func outcome(_ fetch: () async throws -> FetchedDocument) async -> Result<FetchedDocument, any Error> {
        do {
            return .success(try await fetch())
        } catch {
            return .failure(error)
        }
    }
}
