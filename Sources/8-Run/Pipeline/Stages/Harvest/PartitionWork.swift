import Basics
import Fetching
import FoodModel
import Foundation
import Snapshot
import SourceAdapters

/// One partition's work, done in a child task.
struct PartitionWork: Sendable {
    var index: Int
    var harvester: any Harvester
    var live: any DocumentSource
    var key: String
    var previous: PartitionState?
    var reused: Bool
    /// What the revalidation already fetched for this partition, served instead of a second request.
    var prefetched: [String: Result<FetchedDocument, any Error>] = [:]
    /// Revalidation found every document the ledger lists unchanged: the partition is parsed
    /// from the raw store, by sha256, and nothing of it is held in memory meanwhile.
    var confirmed = false
    /// Documents fetched again by revalidation, and how many of those were 304s.
    var refetched = 0
    var notModified = 0
    /// A day outside the run's dates that the pipeline's `history:` keeps: replayed from the raw
    /// store as last done, never revalidated or fetched.
    var history = false
    /// The source's usual figures, for judging a partition that has no good version yet.
    var usual: PartitionSummary?
    /// Compared with what the ledger recorded, by the revalidation stage or by the harvest.
    var revalidated = false
    /// The source's documents known missing, by URL (the same for every partition of it).
    var missing: [String: MissingDocument] = [:]
    /// A food document of the partition is to be asked tonight (its stored copy is no longer
    /// fresh, or it was missing and its back-off is over): the partition is read, not taken from
    /// the parse cache, and the run is not "unchanged".
    var documentsDue = false
    /// Whether the run does this partition: false for those a subset run (`--partition`) leaves,
    /// which are replayed as last published (`reused`), or make the night wait (`awaited`).
    var selected = true

    /// A partition a subset run leaves that was never harvested, or failed when last harvested:
    /// the night cannot be published without it.
    var awaited: Bool { !selected && !reused }

    /// The partition as `--partition` and the plan name it: `source/partition`.
    var selectionKey: String { PartitionSelection.key(source: harvester.source.name, partition: key) }

    /// A partition done before that nothing has compared yet (the revalidation stage stops at
    /// the first change, or does not run when a day is new): the harvest revalidates it first,
    /// so that an unchanged one is taken from the parse cache.
    var awaitsRevalidation: Bool { !revalidated && !reused && !history && previous?.status == .done }

    /// The documents the partition will read, when they are known before it runs: those of
    /// its last version for a partition replayed or found unchanged.
    var knownDocuments: [SourceDocument]? {
        history ? previous?.lastGood?.documents : reused || confirmed ? previous?.documents : nil
    }

    /// What revalidation asked for a partition it found unchanged, whose documents it did not
    /// hand on (a changed partition's go to its log, which counts them).
    var confirmedCounts: DocumentCounts {
        var counts = DocumentCounts()
        guard confirmed else { return counts }
        counts.revalidated = notModified
        counts.refetched = refetched - notModified
        return counts
    }

    /// The parse cache's key for this partition built from `documents`, its source described by
    /// `source` (`ParseCache.sourceLine`) and prepared as `preparation` says
    /// (`PreparedDays.inputs`). A day is parsed from its documents alone; a partition that is not
    /// a day (a site's hours page) may read the run's days too (to place a weekday in its year),
    /// so its key holds them.
    func parseCacheKey(documents: [SourceDocument], source: String, preparedBy preparation: String) -> String {
        ParseCache.key(source: source, partition: key,
                       runPartitions: ServiceDate(key) == nil ? harvester.partitions : [], documents: documents,
                       preparedBy: preparation)
    }
}

extension StageContext {
    /// How many partitions are fetched and parsed at once: parsing is CPU-bound, so one per core;
    /// politeness towards a host is the fetch policy's job (per-host concurrency and delay).
    var partitionConcurrency: Int { Cores.active }

    /// Every partition of every source, in the pipeline's order, with what the ledger knows of it.
    func partitionWork(_ harvesters: [(any Harvester, any DocumentSource)], ledger: StateLedger?,
                       interrupted: Set<String>) throws -> [PartitionWork] {
        var work: [PartitionWork] = []
        for (harvester, live) in harvesters {
            let own = harvester.partitions
            var kept: Set<String> = []
            if let history = spec.history, let ledger {
                kept = Set(try ledger.keptKeys(source: harvester.source.name).filter { key in
                    guard let date = ServiceDate(key), !own.contains(key) else { return false }
                    return history.keeps(date, today: options.today)
                })
            }
            let usual = try ledger.map {
                PartitionSummary.total(try $0.goodSummaries(source: harvester.source.name, limit: Self.usualWindow))
            }
            let states = try ledger?.states(source: harvester.source.name) ?? [:]
            let missing = try ledger?.missingDocuments(source: harvester.source.name) ?? [:]
            // Days in date order, kept ones among them; other partitions (`hours`) after, as listed.
            let days = (own.filter { ServiceDate($0) != nil } + kept).sorted()
            var items: [PartitionWork] = []
            for key in days + own.filter({ ServiceDate($0) == nil }) {
                let previous = states[key]
                let isHistory = kept.contains(key)
                let selected = options.partitions?.contains(source: harvester.source.name, partition: key) ?? true
                var item = PartitionWork(index: work.count + items.count, harvester: harvester, live: live, key: key,
                                         previous: previous,
                                         reused: isHistory || (selected ? reuses(previous, interrupted: interrupted)
                                                                        : previous.map(Self.published) ?? false))
                item.history = isHistory
                item.selected = selected
                item.usual = usual
                item.missing = missing
                items.append(item)
            }
            // Only a partition done before and fetched tonight can have a food document due.
            let judged = items.filter { !$0.history && !$0.reused && $0.previous != nil }
            let onTheWeb = if case .web = harvester.source.location { true } else { false }
            let due = FoodDocumentsDue(context: self, missing: missing, onTheWeb: onTheWeb,
                                       judged: judged.compactMap(\.previous))
            for item in judged {
                if let previous = item.previous { items[item.index - work.count].documentsDue = due.anyDue(previous) }
            }
            work += items
        }
        return work
    }

    /// Whether a partition a subset run leaves is replayed: it was published, whole or in part
    /// (the parts its last fetch lacked are then asked again by that replay).
    private static func published(_ previous: PartitionState) -> Bool {
        previous.status == .done || previous.publishedInPart
    }

    /// A partition done before is replayed, not fetched, by `--only-missing` and by the run
    /// that resumes the one that did it.
    func reuses(_ previous: PartitionState?, interrupted: Set<String>) -> Bool {
        guard !options.force, let previous, previous.status == .done else { return false }
        return options.onlyMissing || interrupted.contains(previous.runId)
    }

    /// How many of a source's newest good partitions make its usual figures.
    static let usualWindow = 28

    /// How far past the earliest unfinished partition new ones may start. Finished partitions
    /// wait in memory for their turn, so one stalled partition (a page timing out and retried)
    /// holds back the start of others rather than letting the whole run pile up behind it.
    var partitionLookahead: Int { partitionConcurrency * 4 }

    /// What a partition produced, for its progress line.
    func partitionCounts(of dataset: Dataset, documents: Int) -> [String: Int] {
        var counts = ["documents": documents]
        if !dataset.serviceDays.isEmpty {
            counts["menu_items"] = dataset.serviceDays.reduce(0) { $0 + $1.menuItemCount }
        }
        if !dataset.foods.isEmpty { counts["food_pages"] = dataset.foods.count }
        if !dataset.hours.isEmpty { counts["hours"] = dataset.hours.count }
        let recipes = dataset.recipes.count + dataset.recipeSpools.reduce(0) { $0 + $1.count }
        if recipes > 0 { counts["recipes"] = recipes }
        return counts
    }
}
