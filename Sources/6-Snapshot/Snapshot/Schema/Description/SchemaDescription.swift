/// What every table, view and column of a snapshot means, written once.
///
/// Two things are generated from this one value so they cannot drift apart: the Datasette
/// `metadata.json` published beside every snapshot (`SnapshotMetadata`) and docs/schema.md's
/// "Snapshot schema" section (`markdown()`, printed by `commissary schema`). Tests compare it
/// with the migrated schema in both directions, so a table added by a later migration without
/// a description fails the build's tests rather than reaching analysts undocumented.
public struct SchemaDescription: Hashable, Sendable {
    public struct Column: Hashable, Sendable {
        public var name: String
        public var description: String
        /// For a truth value, what it says when it holds. SQLite has no boolean and stores
        /// 1 or 0; PostgreSQL is given `boolean` for exactly these columns.
        public var truthCondition: String?

        public var isFlag: Bool { truthCondition != nil }

        public init(_ name: String, _ description: String) {
            self.name = name
            self.description = description
        }

        /// A truth value, described as "1 when `condition`".
        public static func flag(_ name: String, when condition: String) -> Column {
            var column = Column(name, "1 when \(condition)")
            column.truthCondition = condition
            return column
        }
    }

    public struct Table: Hashable, Sendable {
        /// How docs/schema.md groups tables; `metadata.json` describes every kind alike.
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            case data, view, search, housekeeping

            var heading: String {
                switch self {
                case .data: "Tables"
                case .view: "Views"
                case .search: "Full-text search (FTS5)"
                case .housekeeping: "Housekeeping"
                }
            }
        }

        public var name: String
        public var kind: Kind
        public var description: String
        /// Columns in the order the schema declares them.
        public var columns: [Column]
        /// The FTS5 table Datasette should search this table with (its `fts_table` setting).
        public var searchTable: String?

        public init(_ name: String, _ kind: Kind, _ description: String, searchTable: String? = nil,
                    columns: [Column]) {
            self.name = name
            self.kind = kind
            self.description = description
            self.columns = columns
            self.searchTable = searchTable
        }
    }

    public var tables: [Table]

    public func table(named name: String) -> Table? {
        tables.first { $0.name == name }
    }
}
