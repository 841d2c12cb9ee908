import Basics
import Foundation

extension ChangeSet {
    /// A snapshot's tables as change sets name them: each one's key and columns, parents first.
    public struct Tables: Sendable {
        public var keys: [TableKey]
        var columns: [String: [String]]

        /// The tables' order, parents first: the order inserts are applied in.
        public var order: [String] { keys.map(\.table) }

        public init(of snapshot: URL) throws {
            (keys, columns) = try SnapshotReader.read(snapshot) { db in
                let keys = try TableKeys.read(db, schema: "main")
                return (keys, try shapes(of: keys.map(\.table), schema: "main", db).mapValues(\.columns))
            }
        }
    }

    /// Refuses, naming `place`, a change set that holds only row changes but names a table
    /// `tables` does not have, or gives one other columns or another key: its rows would be
    /// composed into a change set that no copy of the snapshot can take. (A change set that
    /// replaces or drops a table, or changes a view or an index, belongs to another schema:
    /// it is never composed, and the client resyncs.)
    public func validate(against tables: Tables, snapshot: String, place: String) throws {
        for table in self.tables {
            guard let key = tables.keys.first(where: { $0.table == table.name })?.columns,
                  let columns = tables.columns[table.name] else {
                throw Failure(.damagedBytes, "table \(table.name) is not a table of \(snapshot)", at: place)
            }
            guard table.columns == columns else {
                throw Failure(.damagedBytes, "table \(table.name) has columns \(table.columns.joined(separator: ", ")) "
                              + "where \(snapshot) has \(columns.joined(separator: ", "))", at: place)
            }
            guard table.key == key else {
                throw Failure(.damagedBytes, "table \(table.name) is keyed by [\(table.key.joined(separator: ", "))] "
                              + "where \(snapshot) keys it by [\(key.joined(separator: ", "))]", at: place)
            }
        }
    }
}
