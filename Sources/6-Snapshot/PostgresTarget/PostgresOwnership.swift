import Basics
import Snapshot

/// Which schemas are Commissary's to rename and drop. A publish renames the served schema aside,
/// drops a building schema a killed run left, and retention drops old nights: done to a schema
/// an application made (`public`, or one that happens to share the configured name), each of
/// those destroys data that is not ours. So every schema Commissary creates carries a mark, a
/// comment that starts with `mark`, and nothing is renamed or dropped without it.
///
/// Schemas published by versions before the mark carry none; one is taken as ours, and marked,
/// only when it holds no function or type and is empty or every table in it is one a publish makes (those its own
/// `_table_keys` lists, and the search tables; for a change feed, `run` and `change` both), so
/// an application's table in it keeps it out of our hands.
enum PostgresOwnership {
    static let mark = "Commissary snapshot schema"
    static let feedMark = "Commissary change feed"

    /// The comment a schema Commissary creates is given.
    static func comment(on schema: String, feed: Bool = false) -> String {
        let text = feed
            ? "\(feedMark): what changed each night in the schema beside it; made and kept by Commissary"
            : "\(mark): a published night, renamed aside and dropped by Commissary alone"
        return "COMMENT ON SCHEMA \(schema) IS '\(text)'"
    }

    enum Standing: Equatable {
        case absent
        case ours
        /// Made by a version before the mark, and holding nothing else.
        case oursUnmarked
        /// Someone else's: holds `foreign`, a relation a publish does not make (or has no
        /// relation that shows it is ours).
        case foreign(String)
    }

    /// Whether `schema` exists and, if so, whether it is ours.
    static func standing(of schema: String, feed: Bool = false, _ connection: PostgresConnection) throws -> Standing {
        let rows = try connection.query("""
            SELECT coalesce(obj_description(oid, 'pg_namespace'), '') FROM pg_namespace WHERE nspname = $1
            """, [schema])
        guard let row = rows.first else { return .absent }
        if (row.first ?? nil)?.hasPrefix(feed ? feedMark : mark) == true { return .ours }
        let relations = try connection.query("""
            SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relkind IN ('r', 'v', 'm', 'p', 'f', 'S') ORDER BY 1
            """, [schema]).compactMap { $0.first ?? nil }
        // Functions and types are no relations, and a publish makes one function only (the
        // views' `real_text`): a schema that holds another is an application's, whatever else
        // it holds.
        let routinesAndTypes = try connection.query("""
            SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1
            UNION ALL
            SELECT t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
            WHERE n.nspname = $1 AND t.typrelid = 0 AND t.typelem = 0
            """, [schema]).compactMap { $0.first ?? nil }
        let ownRoutines: Set<String> = feed ? [] : [SQLDialect.realTextFunction]
        if let stranger = routinesAndTypes.first(where: { !ownRoutines.contains($0) }) {
            return .foreign("the function or type \(stranger)")
        }
        // An empty schema holds nothing to lose (one made ahead of the first night, to expose it).
        if relations.isEmpty { return .oursUnmarked }
        let known: Set<String>
        if feed {
            guard relations == ["change", "run"] else {
                return .foreign(relations.first { $0 != "run" && $0 != "change" } ?? "a feed's tables, not both")
            }
            known = ["run", "change"]
        } else {
            guard relations.contains("_table_keys"), relations.contains("_meta") else {
                return .foreign(relations.first ?? "no table of a snapshot")
            }
            // A `_table_keys` of another shape is someone else's.
            guard let listed = try? connection.query("SELECT DISTINCT table_name FROM \(PostgresPublisher.quoted(schema))._table_keys")
                .compactMap({ $0.first ?? nil }) else { return .foreign("_table_keys") }
            let views = try connection.query("""
                SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = $1 AND c.relkind = 'v' AND c.relname LIKE 'v\\_%'
                """, [schema]).compactMap { $0.first ?? nil }
            known = Set(listed + views + ["_table_keys", "_meta", "food_search", "recipe_search"])
        }
        if let stranger = relations.first(where: { !known.contains($0) }) { return .foreign(stranger) }
        return .oursUnmarked
    }

    /// Refuses to go on when `schema` exists and is not ours; marks one a version before the
    /// mark made, so that the check after this one need not look inside it again.
    static func claim(_ schema: String, feed: Bool = false, _ connection: PostgresConnection) throws {
        switch try standing(of: schema, feed: feed, connection) {
        case .absent, .ours: return
        case .oursUnmarked: try connection.execute(comment(on: schema, feed: feed), at: schema)
        case .foreign(let relation):
            throw Failure(.badInput, "schema \(schema) exists and was not made by Commissary (it holds \(relation)); "
                          + "it was left as it was. Choose a schema of Commissary's own in publish.postgres.schema",
                          at: "publish.postgres.schema")
        }
    }
}
