import Basics
import Foundation

extension ChangeSet {
    /// One row's change, as PostgreSQL's change feed stores it (docs/postgres.md): the key and
    /// the values as JSON objects keyed by column.
    public struct RowChange: Sendable, Hashable {
        public var table: String
        /// `delete`, `update` or `insert`.
        public var operation: String
        /// The key's columns and values; the whole row where the whole row is the key.
        public var key: String
        /// For an insert the whole row, for an update only the columns that changed; nil for a delete.
        public var values: String?
    }

    /// Whether the change set holds row changes only: not a resync mark, no table replaced or
    /// dropped, no view, index or trigger changed (the same schema version on both sides).
    public var changesRowsOnly: Bool {
        resync == nil && schemaObjects.isEmpty && !tables.contains { $0.replaced || $0.dropped }
    }

    /// Every row change in the order a client applies them one by one: deletes (children
    /// first), then updates and inserts (parents first), as docs/changes.md applies a set.
    public var rowChanges: [RowChange] {
        var changes: [RowChange] = []
        for table in tables.reversed() {
            let keyColumns = table.key.isEmpty ? table.columns : table.key
            for deleted in table.deleted {
                changes.append(RowChange(table: table.name, operation: "delete", key: Self.object(keyColumns, deleted), values: nil))
            }
        }
        for table in tables {
            for update in table.updated {
                changes.append(RowChange(table: table.name, operation: "update", key: Self.object(table.key, update.key),
                                         values: Self.object(update.changed.map(\.column), update.changed.map(\.value))))
            }
            let keyIndexes = (table.key.isEmpty ? table.columns : table.key).compactMap { table.columns.firstIndex(of: $0) }
            for row in table.inserted {
                let keyColumns = keyIndexes.map { table.columns[$0] }
                changes.append(RowChange(table: table.name, operation: "insert",
                                         key: Self.object(keyColumns, keyIndexes.map { row[$0] }),
                                         values: Self.object(table.columns, row)))
            }
        }
        return changes
    }

    private static func object(_ columns: [String], _ values: [SQLValue]) -> String {
        var out = "{"
        for (index, (column, value)) in zip(columns, values).enumerated() {
            if index > 0 { out += ", " }
            out += jsonStringLiteral(column) + ": "
            QueryResult.appendJSON(value, to: &out)
        }
        return out + "}"
    }
}
