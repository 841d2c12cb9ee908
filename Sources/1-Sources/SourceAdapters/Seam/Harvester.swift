import Basics
import Fetching
import FoodModel
import Foundation

/// What one partition of work produced: its share of the dataset and the documents it read.
public struct PartitionResult: Sendable, Codable {
    public var dataset: Dataset
    public var warnings: [String]
    /// What the adapter counted that the values do not show (rows the source marked
    /// unpublished, documents it could not read), for the manifest and the progress line.
    public var counts: [String: Int]
    /// The label each food printed on this partition's day, for sources that print labels with
    /// each day's menu (the dataset, Nutrislice, DineOnCampus): the run keeps each different label
    /// of a food as a version and each item points at its day's. Nil for sources whose labels are
    /// pages read once per run, which have one label per run.
    public var labels: [Food]?
    /// The parts of the partition that could not be read (one location's answer of a day's
    /// several). A partition whose last good version has a part this fetch lacks keeps that
    /// version instead, whole; one without a last good version, or whose last good version
    /// lacked the same parts, is published without them, with a warning: one location that errs
    /// costs neither the others nor a day already published, and one that errs night after
    /// night does not hold the day's other menus at their first version.
    public var incomplete: [PartNotRead]

    public init(dataset: Dataset, warnings: [String] = [], counts: [String: Int] = [:], labels: [Food]? = nil,
                incomplete: [PartNotRead] = []) {
        self.dataset = dataset
        self.warnings = warnings
        self.counts = counts
        self.labels = labels
        self.incomplete = incomplete
    }
}

extension PartitionResult {
    /// The `counts` key of the menu items an adapter placed under a section name it made up
    /// because the source named none ("Station 3"): a day where many are has lost a key of its
    /// source's structure, which validation notices (`checks.degraded_day`).
    public static let itemsInUnnamedSections = "items_in_unnamed_sections"
}

/// A part of a partition that could not be read: which, named the same way every night (a
/// location's menu of the day), and why.
public struct PartNotRead: Sendable, Codable, Hashable {
    /// The part, as the adapter names it on every night (`2019-07-08: McNair's menu`).
    public var part: String
    /// The larger part this one belongs to, named as the adapter names it when it cannot be read
    /// at all (`2019-07-08: McNair's menu` for `2019-07-08: McNair's Dinner menu`): a version
    /// that lacked the whole lacked this part too, and more.
    public var within: String?
    public var reason: String

    public init(_ part: String, within: String? = nil, because error: any Error) {
        self.part = part
        self.within = within
        reason = "\(error)"
    }

    /// The part and why it was not read, in one line.
    public var line: String { "\(part) (\(reason))" }
}

/// The per-adapter half of the fetch and parse stages: which partitions a source has and how
/// one partition turns documents into FoodModel values.
public protocol Harvester: Sendable {
    var source: SourceSpec { get }
    /// The partition keys of this source for a run (dates as `YYYY-MM-DD`, or named singletons).
    var partitions: [String] { get }
    func harvest(partition: String, from documents: any DocumentReader, run: RunContext) async throws
        -> PartitionResult
    /// Whether the harvester reads a page per food (a recipe or label page), so that a food
    /// without one is worth a warning.
    var readsFoodPages: Bool { get }
    /// Whether a partition's values are worth keeping between runs (the run's parse cache):
    /// true for many small partitions (days), of which a night changes a few.
    var cachesPartitions: Bool { get }
}

extension Harvester {
    public var readsFoodPages: Bool { false }
    public var cachesPartitions: Bool { true }
}

/// What partitions of one run share: foods already read, so a dish served in five halls on
/// ten days has its page fetched once per run.
public actor RunContext {
    private var foodsRead: Set<FoodID> = []
    /// What several partitions read (a week of menus serves seven days, and so does its
    /// decoding), each made once per run, with how many partitions have yet to read it: the last
    /// one lets it go.
    private var shared: [String: (value: Task<any Sendable, any Error>, readers: Int)] = [:]
    /// Where partitions set aside what is too large to hold (`RecipeSpool`): files named from
    /// this path, which go when the run's staging database does.
    private let scratch: URL
    private var scratchFiles = 0

    public init(scratch: URL) {
        self.scratch = scratch
    }

    /// A new scratch file's path, unique in the run (`<scratch>-<purpose>-<n>`).
    public func scratchFile(_ purpose: String) -> URL {
        scratchFiles += 1
        return URL(fileURLWithPath: "\(scratch.path)-\(purpose)-\(scratchFiles)")
    }

    /// The value under `key`, made by the first of the `readers` partitions that ask and handed
    /// to the others (a failure too); released once all of them have read it. Keys say what the
    /// value is (a document's URL; "decoded", what it was decoded as, and the URL).
    public func shared<Value: Sendable>(_ key: String, readers: Int,
                                        make: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let entry = shared[key] ?? (Task { try await make() as any Sendable }, max(readers, 1))
        if entry.readers <= 1 {
            shared[key] = nil
        } else {
            shared[key] = (entry.value, entry.readers - 1)
        }
        guard let value = try await entry.value.value as? Value else {
            throw Failure(.badInput, "two kinds of value were shared under one name in a run; name each kind apart",
                          at: key)
        }
        return value
    }

    /// Claims a food for this partition; false when another partition already read it.
    public func claim(_ food: FoodID) -> Bool {
        foodsRead.insert(food).inserted
    }

    /// Claims foods a partition read in an earlier run, whose parse is used again (the run's
    /// parse cache), so other partitions do not read them a second time.
    public func claim(foods: some Sequence<FoodID>) {
        foodsRead.formUnion(foods)
    }

    /// Those of `foods` no partition of the run has claimed.
    public func unclaimed(_ foods: Set<FoodID>) -> Set<FoodID> {
        foods.subtracting(foodsRead)
    }

    /// Claims every food on a day's menu at once (one call, not one per item): the first item
    /// of each food no other partition has read yet, in page order.
    public func claimFoods(of day: ServiceDay) -> [MenuItem] {
        var claimed: [MenuItem] = []
        day.forEachMenuItem { item in
            if foodsRead.insert(item.food).inserted { claimed.append(item) }
        }
        return claimed
    }
}
