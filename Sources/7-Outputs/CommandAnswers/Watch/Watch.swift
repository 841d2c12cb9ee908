import Basics
import FoodModel
import Foundation
import Snapshot

/// What `commissary watch` answers: the items of a snapshot's days ahead that a watch list
/// matches, each marked when it is new tonight.
public enum Watch {
    /// One item that matched, with the rules it matched.
    public struct Match: Hashable, Sendable {
        public var item: UpcomingItem
        /// Absent from the previous snapshot's days ahead: it appeared tonight.
        public var isNew: Bool
        public var watches: [String]
        /// The meal's hours that day where the source prints them (`FeedOpening.hours(of:among:)`),
        /// else the row saying the meal is closed that day; both nil when nothing says.
        public var opening: FeedOpening?
        public var closure: FeedOpening?
    }

    /// The answer: what matched, and what "new" was measured against.
    public struct Answer: Hashable, Sendable {
        public var snapshot: String
        public var today: ServiceDate
        /// The snapshot the night's changes lead from; nil when none is known (the pipeline's
        /// first night), and then no item is new.
        public var comparedWith: String?
        public var matches: [Match]
    }

    /// The items of `snapshot` from `today` on (for `list.days` days, when it says) that some
    /// rule of `list` matches; with `newOnly`, only those new tonight.
    public static func run(_ list: WatchList, snapshot: URL, today: ServiceDate, newOnly: Bool = false) throws -> Answer {
        let (items, hours) = try WatchQueries.read(snapshot) { queries in
            try (queries.upcomingItems(from: today), queries.upcomingHours(from: today))
        }
        let last = list.days.map { today.adding(days: $0 - 1).description }
        let tonight = try Tonight.changes(of: snapshot, from: today)
        let matches = items.compactMap { item -> Match? in
            if let last, item.date > last { return nil }
            let watches = list.rules.filter { $0.matches(item) }.map(\.label)
            guard !watches.isEmpty else { return nil }
            let rows = hours.rows(of: item.restaurant, campus: item.campus, on: item.date)
            let meal = FeedOpening.hours(of: item.meal, among: rows)
            let match = Match(item: item, isNew: tonight.isNew(item.id), watches: watches, opening: meal.opening,
                              closure: meal.closure)
            return newOnly && !match.isNew ? nil : match
        }
        return Answer(snapshot: snapshot.lastPathComponent, today: today, comparedWith: tonight.comparedWith,
                      matches: matches)
    }
}

/// Which menu items of the days ahead appeared tonight: the change file beside the snapshot
/// names the rows it inserted; without one (a kill or a full disk between a publish and its
/// change file, a resync mark, a schema change that replaced `menu_item`), the previous snapshot
/// of the pipeline is read instead. Both rest on an item keeping its id from night to night.
struct Tonight {
    var comparedWith: String?
    /// With a change file, the items it inserted; otherwise the items the previous snapshot had.
    var ids: Set<Int64>
    var idsAreNew: Bool

    func isNew(_ id: Int64) -> Bool {
        guard comparedWith != nil else { return false }
        return ids.contains(id) == idsAreNew
    }

    static func changes(of snapshot: URL, from today: ServiceDate) throws -> Tonight {
        if let changes = try SnapshotStore.changes(beside: snapshot), changes.resync == nil,
           let inserted = insertedItems(changes) {
            return Tonight(comparedWith: changes.old.snapshot, ids: inserted, idsAreNew: true)
        }
        let store = SnapshotStore(directory: snapshot.deletingLastPathComponent())
        guard let previous = store.published(before: snapshot) else {
            return Tonight(comparedWith: nil, ids: [], idsAreNew: true)
        }
        let before = try WatchQueries.read(previous) { try $0.upcomingItemIDs(from: today) }
        return Tonight(comparedWith: previous.lastPathComponent, ids: before, idsAreNew: false)
    }

    /// The ids of the menu items a change set inserted, and of those it moved to another food,
    /// meal or section; nil when it replaced the table (every row is then "inserted").
    static func insertedItems(_ changes: ChangeSet) -> Set<Int64>? {
        guard let table = changes.tables.first(where: { $0.name == "menu_item" }) else { return [] }
        guard !table.replaced, let id = table.columns.firstIndex(of: "id"), table.key == ["id"] else { return nil }
        let moved: Set<String> = ["food_id", "meal_id", "section_id"]
        let inserted = table.inserted.compactMap { row in row.indices.contains(id) ? row[id].integer : nil }
        let updated = table.updated.filter { $0.changed.contains { moved.contains($0.column) } }
            .compactMap { $0.key.first?.integer }
        return Set(inserted + updated)
    }
}

extension SQLValue {
    /// The integer it holds, if it holds one.
    var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }
}
