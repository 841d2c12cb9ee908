import FoodModel
import GRDB

/// The days, and the tables, a staging snapshot kept from the snapshot it continued, row for
/// row (`StagingSnapshot.unchangedDays`): a change set against that snapshot compares only the
/// menu rows of the other days, and not those tables at all, since these can hold no change
/// (docs/changes.md, "Computing it").
public struct UnchangedDays: Sendable, Hashable {
    /// The file name of the snapshot whose rows were kept.
    public var snapshot: String
    public var dates: Set<ServiceDate>
    /// Tables kept whole (the food tables, when the night's foods were the night before's).
    public var tables: Set<String>

    public init(snapshot: String, dates: Set<ServiceDate>, tables: Set<String> = []) {
        self.snapshot = snapshot
        self.dates = dates
        self.tables = tables
    }

    /// The day ids (`MenuWriter.dayId`) of every day either snapshot holds that is not
    /// unchanged, as ranges that hold no unchanged day, ascending.
    func changedDays(_ db: Database) throws -> [ClosedRange<Int>] {
        let unchanged = Set(dates.map(MenuWriter.dayId))
        var ranges: [ClosedRange<Int>] = []
        var extendsLast = false
        for day in try Int.fetchAll(db, sql: "SELECT id FROM main.service_day UNION SELECT id FROM prev.service_day ORDER BY 1") {
            guard !unchanged.contains(day) else {
                extendsLast = false
                continue
            }
            if extendsLast, let last = ranges.popLast() {
                ranges.append(last.lowerBound...day)
            } else {
                ranges.append(day...day)
            }
            extendsLast = true
        }
        return ranges
    }
}

/// Which rows of a table a change set compares: all, or only those whose `id` falls in one of
/// `ranges`, range after range in ascending order, which is the order one scan of the table by
/// its integer key gives them, so the set is the same, byte for byte, as the whole table's.
struct RowScope {
    /// nil: the whole table.
    let ranges: [ClosedRange<Int>]?
    /// What every row read counts against.
    let budget: RowBudget

    /// A menu table's rows of the days in `changedDays` (nil: every day); any other table whole.
    init(_ key: TableKey, changedDays: [ClosedRange<Int>]?, budget: RowBudget) {
        self.budget = budget
        guard let changedDays, key.columns == ["id"], MenuWriter.dayTables.contains(key.table) else {
            ranges = nil
            return
        }
        ranges = changedDays.compactMap { MenuWriter.ids(in: key.table, days: $0) }
    }

    /// How many rows of `table` in `schema` (`main` or `prev`) are in scope.
    func count(of table: String, in schema: String, _ db: Database) throws -> Int {
        let from = "SELECT count(*) FROM \(schema).\(ChangeSet.quoted(table))"
        guard let ranges else { return try Int.fetchOne(db, sql: from) ?? 0 }
        var count = 0
        for range in ranges {
            count += try Int.fetchOne(db, sql: from + " WHERE id BETWEEN ? AND ?", arguments: [range.lowerBound, range.upperBound]) ?? 0
        }
        return count
    }

    /// The rows `query` selects, handed the condition on the rows of an alias it names.
    func rows(_ db: Database, _ query: (_ within: (String) -> String) -> String) throws -> [[SQLValue]] {
        guard let ranges else { return try ChangeSet.rows(query { _ in "1" }, db, budget) }
        var rows: [[SQLValue]] = []
        for range in ranges {
            rows += try ChangeSet.rows(query { "\($0).id BETWEEN \(range.lowerBound) AND \(range.upperBound)" }, db, budget)
        }
        return rows
    }
}

/// How many rows a change set may hold: counted as they are read, so that a comparison of two
/// snapshots that differ in a million rows stops at the limit instead of holding them all.
final class RowBudget {
    struct Exceeded: Error {}

    /// nil: no limit.
    let limit: Int?
    private(set) var held = 0

    init(limit: Int?) {
        self.limit = limit
    }

    func take(_ rows: Int) throws {
        held += rows
        if let limit, held > limit { throw Exceeded() }
    }
}
