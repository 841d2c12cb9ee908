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
///
/// A day the parse cache kept comes as the place of its bytes (`ServiceDayBytes`) in the cache's
/// entry, with its outline: most such days are kept as the continued snapshot holds them, which
/// needs only their digest and the names their rows are numbered by, so their bytes are read, and
/// their items decoded, only when they are written.
public struct DayToWrite: Sendable {
    private enum Rows: Sendable {
        case day(ServiceDay)
        /// Where the day's bytes lie, unread, with its meals, restaurants and sections without
        /// their items, and the sha256 the bytes are to be checked against when they are read.
        case kept(FileSpan, outline: ServiceDay, sha256: String)
        /// The day's bytes, read and checked, with its outline.
        case read(Data, outline: ServiceDay)
    }

    private let rows: Rows
    public let contentDigest: String

    public init(_ day: ServiceDay) {
        rows = .day(day)
        contentDigest = DayRows.contentDigest(of: day)
    }

    /// A day kept as bytes (`ServiceDayBytes` of the day alone) at `span`, with its `outline`
    /// (the day with every section's items left out) and the `contentDigest` it had when read.
    /// `bytesSHA256`: what the bytes hash to when they are the ones kept, checked when they are
    /// read (`checked()`); a day kept in the snapshot is never read.
    public init(keptAt span: FileSpan, outline: ServiceDay, contentDigest: String, bytesSHA256: String) {
        rows = .kept(span, outline: outline, sha256: bytesSHA256)
        self.contentDigest = contentDigest
    }

    private init(rows: Rows, contentDigest: String) {
        self.rows = rows
        self.contentDigest = contentDigest
    }

    /// Whether its bytes are still to be read and checked (`checked()`).
    public var awaitsCheck: Bool {
        if case .kept = rows { true } else { false }
    }

    /// The day with its bytes read and checked against the sha256 they were kept with: a
    /// `damagedBytes` failure when they cannot be read whole or no longer hash to it.
    public func checked() throws -> DayToWrite {
        guard case .kept(let span, let outline, let digest) = rows else { return self }
        guard let bytes = span.read(), sha256Hex(bytes) == digest else { throw Failure.damagedBytes }
        return DayToWrite(rows: .read(bytes, outline: outline), contentDigest: contentDigest)
    }

    public var date: ServiceDate { outline.date }

    /// Its meals, restaurants and sections, in order: what numbers a kept day's rows. A day not
    /// kept as bytes gives itself, items and all.
    public var outline: ServiceDay {
        switch rows {
        case .day(let day): day
        case .kept(_, let outline, _), .read(_, let outline): outline
        }
    }

    /// The whole day, decoded when it was kept as bytes: a `damagedBytes` failure for bytes
    /// `ServiceDayBytes` did not write for one day, or that cannot be read or fail their check.
    public func day() throws -> ServiceDay {
        switch rows {
        case .day(let day):
            return day
        case .kept:
            return try checked().day()
        case .read(let bytes, _):
            let days = try ServiceDayBytes.decode(bytes)
            guard days.count == 1, let day = days.first else { throw Failure.damagedBytes }
            return day
        }
    }

    /// The day's bytes (`ServiceDayBytes` of the day alone), as the parse cache keeps them: read
    /// and checked for a day kept as bytes (a `damagedBytes` failure as `checked()` says).
    public func bytes() throws -> Data {
        switch rows {
        case .day(let day): ServiceDayBytes.encode([day])
        case .kept: try checked().bytes()
        case .read(let bytes, _): bytes
        }
    }

    /// The digest of this append's rows with `labelVersions` (`DayRows.digest`).
    func rowsDigest(labelVersions: [Int?]) -> String {
        DayRows.digest(content: contentDigest, labelVersions: labelVersions)
    }
}

extension ServiceDay {
    /// The day with every section's items left out: its meals, restaurants and sections.
    public var outline: ServiceDay {
        var outline = self
        for meal in outline.meals.indices {
            for restaurant in outline.meals[meal].restaurants.indices {
                for section in outline.meals[meal].restaurants[restaurant].sections.indices {
                    outline.meals[meal].restaurants[restaurant].sections[section].foods = []
                }
            }
        }
        return outline
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
