import Foundation
import GRDB

/// The Datasette `metadata.json` published beside a snapshot (`<file>.metadata.json`).
///
/// Datasette keys its per-database settings by the file's name without `.sqlite`, so the same
/// settings are written under the file's stem and under `latest-<pipeline>`, the stable name
/// most people serve: `datasette <file or latest-link> --metadata <file>.metadata.json`. Titles,
/// licence and sources come from the snapshot's own `_meta` and `_sources`; the description of
/// every table and column from `SchemaDescription.current`, as plain text (Datasette prints
/// descriptions as they are, so Markdown's backticks would show). Housekeeping tables are
/// hidden; the views people start from get facets, and the database the questions of
/// docs/querying.md as canned queries. Keys Datasette does not know (`sources`, `documents`) are
/// ignored by it and kept for other readers.
public struct SnapshotMetadata: Hashable, Sendable, Codable {
    public struct TableEntry: Hashable, Sendable, Codable {
        public var description: String
        public var columns: [String: String]
        public var ftsTable: String?
        public var hidden: Bool?
        public var facets: [String]?

        enum CodingKeys: String, CodingKey {
            case description, columns, hidden, facets
            case ftsTable = "fts_table"
        }
    }

    /// A named query Datasette offers on the database's page; `:name` parameters become a form.
    public struct CannedQuery: Hashable, Sendable, Codable {
        public var title: String
        public var sql: String
    }

    public struct Database: Hashable, Sendable, Codable {
        public var title: String
        public var description: String
        public var license: String
        public var licenseURL: String?
        public var source: String
        public var sourceURL: String?
        public var sources: [String]
        public var documents: Int
        public var tables: [String: TableEntry]
        public var queries: [String: CannedQuery]?

        enum CodingKeys: String, CodingKey {
            case title, description, license, source, sources, documents, tables, queries
            case licenseURL = "license_url"
            case sourceURL = "source_url"
        }
    }

    public var title: String
    public var description: String
    public var license: String
    public var licenseURL: String?
    public var source: String
    public var sourceURL: String?
    public var databases: [String: Database]

    enum CodingKeys: String, CodingKey {
        case title, description, license, source, databases
        case licenseURL = "license_url"
        case sourceURL = "source_url"
    }

    /// Reads what the metadata needs from a snapshot (or a snapshot about to be published).
    static func read(_ db: GRDB.Database, fileName: String,
                     schema: SchemaDescription = .current) throws -> SnapshotMetadata {
        var meta: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM _meta") {
            try meta[row.decode(forColumn: "key")] = row.decode(forColumn: "value")
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
                description: plain(table.description),
                columns: Dictionary(table.columns.map { ($0.name, plain($0.description)) }, uniquingKeysWith: { a, _ in a }),
                ftsTable: table.searchTable, hidden: table.kind == .housekeeping ? true : nil,
                facets: facets[table.name])
        }
        let database = Database(title: title, description: description, license: licence,
                                licenseURL: meta["licence_url"], source: source, sourceURL: meta["source_url"],
                                sources: sources, documents: documents, tables: tables, queries: cannedQueries)
        let stem = fileName.hasSuffix(".sqlite") ? String(fileName.dropLast(".sqlite".count)) : fileName
        return SnapshotMetadata(title: title, description: description, license: licence,
                                licenseURL: meta["licence_url"], source: source, sourceURL: meta["source_url"],
                                databases: [stem: database, "latest-\(pipeline)": database])
    }

    /// Descriptions are written with Markdown's backticks for docs/schema.md; Datasette shows text.
    /// Removed byte by byte: a backtick's byte is never part of another character in UTF-8, and
    /// Foundation's `replacingOccurrences` took about 5 ms of every publication for the schema's
    /// few hundred descriptions.
    public static func plain(_ text: String) -> String {
        String(decoding: text.utf8.filter { $0 != UInt8(ascii: "`") }, as: UTF8.self)
    }

    /// What people narrow the menus by.
    static let facets: [String: [String]] = [
        "v_menu": ["restaurant", "meal", "date"],
        "v_menu_code": ["term", "restaurant", "meal"],
        "v_food_term": ["term", "kind"],
    ]

    /// The questions of docs/querying.md, made general: any day, any snapshot.
    static let cannedQueries: [String: CannedQuery] = [
        "menu_of_a_day": CannedQuery(title: "The menu of a day", sql: """
            SELECT meal, restaurant, section, item, codes FROM v_menu WHERE date = :date
            ORDER BY meal, restaurant, section, item
            """),
        "vegan_without_tree_nuts": CannedQuery(title: "Vegan dishes whose codes neither contain nor may contain tree nuts", sql: """
            SELECT food FROM v_food_term WHERE term = 'vegan'
            EXCEPT SELECT food FROM v_food_term WHERE term = 'tree_nuts' ORDER BY food
            """),
        "least_sodium": CannedQuery(
            title: "The 20 dishes with the least sodium per serving of their label (in mg; dishes with a flagged label, "
                + "or whose serving has no weight for a per-100 g label, left out)",
            sql: """
                SELECT food, serving_size, amount_per_serving AS sodium_mg_per_serving, basis FROM v_food_nutrition
                WHERE nutrient_key = 'sodium' AND amount_per_serving IS NOT NULL AND food_flags = 0
                ORDER BY amount_per_serving, food LIMIT 20
                """),
    ]

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
