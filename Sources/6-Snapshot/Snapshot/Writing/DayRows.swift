import Basics
import FoodModel
import Foundation
import GRDB

/// The digest of what a service day's rows are made of: its meals, restaurants, sections and
/// items as the writer reads them, and the label version printed with each item (which stands
/// for the label, `MenuItem.label` or its food's: the versions' labels are written in full). The
/// rows are a function of these, of the build that writes them (recorded beside the digests)
/// and of the section ids, which the writer settles once every day is in. Two appends with one
/// digest are the same rows, so the next run keeps a day whose digest it finds in the previous
/// snapshot's `_day_rows` instead of writing it again; hashing the inputs costs a fraction of
/// numbering the rows. The fields go in a fixed order (`FieldWriter`: lengths and counts first,
/// absent values marked), so no two different days give the same bytes.
enum DayRows {
    /// The digest of one append of `day` (a source's day), its items' label versions in page
    /// order, from the digest of the rest (`contentDigest`): the versions are numbered on the
    /// run's task in partition order, the rest is hashed on the partition's own. A day without
    /// versions has its content's digest; one with versions, the digest of both.
    static func digest(content: String, labelVersions: [Int?]) -> String {
        guard labelVersions.contains(where: { $0 != nil }) else { return content }
        var bytes = FieldWriter()
        bytes.put("versions 1")
        bytes.put(content)
        bytes.put(labelVersions.count)
        for version in labelVersions { bytes.put(version) }
        return sha256Hex(Data(bytes.bytes))
    }

    /// The digest of what a day's rows are made of but its label versions.
    static func contentDigest(of day: ServiceDay) -> String {
        var bytes = FieldWriter()
        bytes.put(day.date.description)
        bytes.put(day.meals.count)
        for meal in day.meals {
            bytes.put(meal.name)
            bytes.put(meal.restaurants.count)
            for restaurant in meal.restaurants {
                bytes.put(restaurant.key)
                bytes.put(restaurant.sections.count)
                for section in restaurant.sections {
                    bytes.put(section.name)
                    bytes.put(section.foods.count)
                    for item in section.foods {
                        // The food's id as its two parts, not joined into a new text per item.
                        bytes.put(item.source)
                        bytes.put(item.recipeId)
                        bytes.put(item.name)
                        bytes.put(item.portion)
                        bytes.put(item.description)
                        bytes.put(item.plannedPortions)
                        bytes.put(item.servedWith)
                    }
                }
            }
        }
        return sha256Hex(Data(bytes.bytes))
    }

    /// A date's digest as `_day_rows` records it: of its appends in order (one, unless several
    /// sources served the date).
    static func digest(ofAppends appends: [String]) -> String {
        sha256Hex(Data(appends.joined(separator: "\n").utf8))
    }

    /// The digest of one append of `day` as readers name its items (`_day_rows.items_sha256`):
    /// each item's meal, restaurant, section, food id and name, in page order. Unlike the rows'
    /// digest it leaves out what a build decides (ids, positions, label versions), so two builds
    /// that served a day the same items give it one digest, and a comparison of two snapshots
    /// passes over it (`ReportQueries.changes`). A date served by one append records this digest
    /// itself; one served by several, `digest(ofAppends:)` of theirs, so a kept first append's
    /// recorded digest is the one its later appends join.
    static func itemsDigest(of day: ServiceDay) -> String {
        var bytes = FieldWriter()
        bytes.put("items 1")
        for meal in day.meals {
            for restaurant in meal.restaurants {
                for section in restaurant.sections {
                    for item in section.foods {
                        bytes.put(meal.name)
                        bytes.put(restaurant.name)
                        bytes.put(section.name)
                        bytes.put(item.source)
                        bytes.put(item.recipeId)
                        bytes.put(item.name)
                    }
                }
            }
        }
        return sha256Hex(Data(bytes.bytes))
    }
}

/// A service day ready to append (`StagingSnapshot.append`): with the digest of its rows but
/// their label versions, made where the day was read (a partition's own task) rather than on
/// the run's task, which appends the days one after another.
public struct DayToWrite: Sendable {
    public let day: ServiceDay
    let contentDigest: String

    public init(_ day: ServiceDay) {
        self.day = day
        contentDigest = DayRows.contentDigest(of: day)
    }

    /// The digest of this append's rows with `labelVersions` (`DayRows.digest`).
    func rowsDigest(labelVersions: [Int?]) -> String {
        DayRows.digest(content: contentDigest, labelVersions: labelVersions)
    }
}

/// What a run needs from the previous snapshot to continue it (`StagingSnapshot`): the digest
/// of each day's rows and the section ids its rows carry.
struct PreviousMenus {
    var days: [ServiceDate: String]
    /// Each day's items digest (`DayRows.itemsDigest`), where the snapshot recorded one.
    var items: [ServiceDate: String]
    var sectionIds: [MenuWriter.SectionKey: Int]

    /// What `db` holds, or nil when its digests do not cover exactly its days: rows that no
    /// digest describes could never be matched, nor removed, by the next run.
    static func read(_ db: Database) throws -> PreviousMenus? {
        var days: [ServiceDate: String] = [:]
        var items: [ServiceDate: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT date, rows_sha256, items_sha256 FROM _day_rows") {
            guard let date = try ServiceDate(row.decode(String.self, atIndex: 0)) else { return nil }
            days[date] = try row.decode(atIndex: 1)
            items[date] = try row.decode(String?.self, atIndex: 2)
        }
        let described = try Int.fetchOne(db, sql: """
            SELECT count(*) FROM service_day WHERE date IN (SELECT date FROM _day_rows)
            """) ?? 0
        guard try Int.fetchOne(db, sql: "SELECT count(*) FROM service_day") == described, described == days.count
        else { return nil }
        var sections: [MenuWriter.SectionKey: Int] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT s.id, r.name, r.campus, s.name FROM section s JOIN restaurant r ON r.id = s.restaurant_id
            """) {
            let key = try MenuWriter.SectionKey(restaurant: Restaurant.key(name: row.decode(atIndex: 1),
                                                                           campus: row.decode(atIndex: 2)),
                                                name: row.decode(atIndex: 3))
            sections[key] = try row.decode(atIndex: 0)
        }
        return PreviousMenus(days: days, items: items, sectionIds: sections)
    }
}
