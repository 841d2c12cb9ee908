import Foundation
import GRDB

/// The Datasette `metadata.json` published beside a snapshot (`<file>.metadata.json`).
///
/// Datasette keys its per-database settings by the file's name without `.sqlite`, so one file
/// describes one snapshot: `datasette <file> --metadata <file>.metadata.json`. Titles,
/// licence and sources come from the snapshot's own `_meta` and `_sources`; the description of
/// every table and column from `SchemaDescription.current`. Keys Datasette does not know
/// (`sources`, `documents`) are ignored by it and kept for other readers.
public struct SnapshotMetadata: Hashable, Sendable, Codable {
    public struct TableEntry: Hashable, Sendable, Codable {
        public var description: String
        public var columns: [String: String]
        public var ftsTable: String?

        enum CodingKeys: String, CodingKey {
            case description, columns
            case ftsTable = "fts_table"
        }
    }

    public struct Database: Hashable, Sendable, Codable {
        public var title: String
        public var description: String
        public var license: String
        public var source: String
        public var sources: [String]
        public var documents: Int
        public var tables: [String: TableEntry]
    }

    public var title: String
    public var description: String
    public var license: String
    public var source: String
    public var databases: [String: Database]

    /// Reads what the metadata needs from a snapshot (or a snapshot about to be published).
    static func read(_ db: GRDB.Database, fileName: String,
                     schema: SchemaDescription = .current) throws -> SnapshotMetadata {
        var meta: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM _meta") {
            meta[row["key"]] = row["value"]
        }
        let documents = try Int.fetchOne(db, sql: "SELECT count(*) FROM _sources") ?? 0
        let pipeline = meta["pipeline"] ?? "unknown"
        let sources = (meta["sources"] ?? "").split(separator: "\n").map(String.init)
        let title = "Commissary snapshot: \(pipeline)"
        let description = """
            Pipeline \(pipeline), run \(meta["run_id"] ?? "?") built \(meta["built_at"] ?? "?") by \
            Commissary \(meta["code_version"] ?? "?") (schema version \(meta["schema_version"] ?? "?")) \
            from \(documents) input document(s) listed in _sources.
            """
        let licence = meta["licence"] ?? "unknown"
        let source = sources.joined(separator: "; ")
        var tables: [String: TableEntry] = [:]
        for table in schema.tables {
            tables[table.name] = TableEntry(
                description: table.description,
                columns: Dictionary(table.columns.map { ($0.name, $0.description) }, uniquingKeysWith: { a, _ in a }),
                ftsTable: table.searchTable)
        }
        let databaseName = fileName.hasSuffix(".sqlite") ? String(fileName.dropLast(".sqlite".count)) : fileName
        return SnapshotMetadata(
            title: title, description: description, license: licence, source: source,
            databases: [databaseName: Database(
                title: title, description: description, license: licence, source: source,
                sources: sources, documents: documents, tables: tables)])
    }

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
