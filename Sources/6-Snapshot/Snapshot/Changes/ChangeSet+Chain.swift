import Basics
import Foundation

extension ChangeSet {
    /// The one change set that takes a copy of the first link's `old` to the last link's `new`:
    /// what a client several nights behind applies once instead of each night's in turn. Each
    /// link must start where the one before ended. Only row changes compose: a link that
    /// replaces or drops a table, or changes a view or an index (a new schema version), or a
    /// resync mark (more rows changed than a change file holds) is refused, and the client
    /// downloads the new snapshot instead. `tableOrder` is the tables'
    /// order in the newest snapshot (parents first), the order inserts are applied in.
    public static func composed(_ chain: [ChangeSet], tableOrder: [String]) throws -> ChangeSet {
        guard let first = chain.first, let last = chain.last else {
            throw Failure(.snapshot, "there is no change set to compose")
        }
        var tables: [String: TableChain] = [:]
        for (index, link) in chain.enumerated() {
            if index > 0, link.old != chain[index - 1].new {
                throw Failure(.snapshot, "the change set to \(link.new.snapshot) starts from \(link.old.snapshot), not from "
                              + chain[index - 1].new.snapshot, at: link.new.snapshot)
            }
            if let reason = link.resync {
                throw Failure(.snapshot, "the change set to \(link.new.snapshot) holds no rows (\(reason))", at: link.new.snapshot)
            }
            if let table = link.tables.first(where: { $0.replaced || $0.dropped }) {
                throw Failure(.snapshot, "the change set to \(link.new.snapshot) \(table.dropped ? "drops" : "replaces") "
                              + "table \(table.name) (schema \(link.old.schemaVersion) to \(link.new.schemaVersion))",
                              at: link.new.snapshot)
            }
            if let object = link.schemaObjects.first {
                throw Failure(.snapshot, "the change set to \(link.new.snapshot) changes \(object.type) \(object.name) "
                              + "(schema \(link.old.schemaVersion) to \(link.new.schemaVersion))", at: link.new.snapshot)
            }
            for table in link.tables {
                tables[table.name, default: TableChain(table)].append(table)
            }
        }
        let ordered = tables.values.sorted { a, b in
            (tableOrder.firstIndex(of: a.name) ?? .max, a.name) < (tableOrder.firstIndex(of: b.name) ?? .max, b.name)
        }
        return ChangeSet(old: first.old, new: last.new, tables: ordered.map { $0.table() }.filter { !$0.isEmpty },
                         schemaObjects: [])
    }
}

/// One table's changes over a chain of change sets, row by row.
private struct TableChain {
    /// What happened to the row with one key since the chain's start.
    enum RowChange {
        case inserted([SQLValue])
        case updated([ChangeSet.Change])
        case deleted
        /// Deleted, then inserted again (with this row): applied as a delete then an insert.
        case reinserted([SQLValue])
    }

    let name: String
    let key: [String]
    let columns: [String]
    private var rows: [[SQLValue]: RowChange] = [:]
    /// Keys in the order first seen, so the composed set lists rows as the links did.
    private var order: [[SQLValue]] = []
    private var seen: Set<[SQLValue]> = []
    /// For a table whose whole row is its key: copies added (positive) or removed, per row.
    private var copies: [[SQLValue]: Int] = [:]

    init(_ table: ChangeSet.Table) {
        name = table.name
        key = table.key
        columns = table.columns
    }

    mutating func append(_ link: ChangeSet.Table) {
        guard !key.isEmpty else {
            for row in link.inserted { count(row, by: 1) }
            for row in link.deleted { count(row, by: -1) }
            return
        }
        let keyIndexes = key.compactMap { columns.firstIndex(of: $0) }
        for deleted in link.deleted { record(deleted, after: rows[deleted].map(Self.deleting) ?? .deleted) }
        for update in link.updated { record(update.key, after: rows[update.key].map { updating($0, update.changed) } ?? .updated(update.changed)) }
        for row in link.inserted {
            let rowKey = keyIndexes.map { row[$0] }
            record(rowKey, after: rows[rowKey].map { Self.inserting(row, over: $0) } ?? .inserted(row))
        }
    }

    private mutating func count(_ row: [SQLValue], by change: Int) {
        if copies[row] == nil { order.append(row) }
        copies[row, default: 0] += change
    }

    /// Records `change` for `rowKey`; nil means the row is as it was at the chain's start.
    private mutating func record(_ rowKey: [SQLValue], after change: RowChange?) {
        if change != nil, seen.insert(rowKey).inserted { order.append(rowKey) }
        rows[rowKey] = change
    }

    private static func deleting(_ before: RowChange) -> RowChange? {
        if case .inserted = before { return nil }
        return .deleted
    }

    private func updating(_ before: RowChange, _ changed: [ChangeSet.Change]) -> RowChange {
        switch before {
        case .inserted(let row): return .inserted(applying(changed, to: row))
        case .reinserted(let row): return .reinserted(applying(changed, to: row))
        case .updated(let earlier):
            let later = Set(changed.map(\.column))
            let merged = earlier.filter { !later.contains($0.column) } + changed
            return .updated(merged.sorted { (columns.firstIndex(of: $0.column) ?? .max) < (columns.firstIndex(of: $1.column) ?? .max) })
        // A link that updates a row an earlier one deleted does not follow that link; the later word stands.
        case .deleted: return .updated(changed)
        }
    }

    private static func inserting(_ row: [SQLValue], over before: RowChange) -> RowChange {
        switch before {
        case .inserted: return .inserted(row)
        case .deleted, .updated, .reinserted: return .reinserted(row)
        }
    }

    private func applying(_ changed: [ChangeSet.Change], to row: [SQLValue]) -> [SQLValue] {
        var row = row
        for change in changed {
            if let index = columns.firstIndex(of: change.column), index < row.count { row[index] = change.value }
        }
        return row
    }

    func table() -> ChangeSet.Table {
        var table = ChangeSet.Table(name: name, key: key, columns: columns, replaced: false, dropped: false, create: nil,
                                    inserted: [], updated: [], deleted: [])
        for rowKey in order {
            if key.isEmpty {
                let net = copies[rowKey] ?? 0
                if net > 0 { table.inserted += Array(repeating: rowKey, count: net) }
                if net < 0 { table.deleted += Array(repeating: rowKey, count: -net) }
                continue
            }
            switch rows[rowKey] {
            case .inserted(let row): table.inserted.append(row)
            case .updated(let changed): table.updated.append(ChangeSet.Update(key: rowKey, changed: changed))
            case .deleted: table.deleted.append(rowKey)
            case .reinserted(let row):
                table.deleted.append(rowKey)
                table.inserted.append(row)
            case nil: break
            }
        }
        return table
    }
}
