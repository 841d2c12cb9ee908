import Basics

/// A schema of views across every pipeline published into one database with the same
/// `publish: postgres: across: NAME`: `NAME.menu_item`, `NAME.restaurant`, `NAME.v_menu`, … each
/// the union of that relation in every member pipeline's schema, with the schema's name as the
/// first column, `pipeline`, so that an app reads all campuses in one query. Ids are each
/// pipeline's own, so rows are told apart, and joined, by (`pipeline`, id).
///
/// PostgreSQL binds a view to the tables it reads, not to their names: after a night's swap, a
/// view made before it would read the night renamed aside, and retention would drop it with that
/// night. So every publish of a member makes the views again, inside its swap's transaction,
/// after its new night took the live name; an advisory lock on the schema's name makes members
/// publishing at the same moment take turns. The views are `security_invoker`: a reader sees
/// through them what the members' grants and row-level policies let it see, no more.
enum PostgresAcross {
    static let mark = "Commissary views across pipelines"

    /// The statements that make `target.across`'s views again with `live` among the members,
    /// whose new night is still `building` when this runs; empty when the target names none.
    /// Runs inside the swap's open transaction: the lock it takes is held until its commit.
    static func statements(for target: PostgresTarget, live: String, building: String,
                           _ connection: PostgresConnection) throws -> String {
        guard let across = target.across else { return "" }
        _ = try connection.query("SELECT pg_advisory_xact_lock(hashtext($1))", ["commissary across " + across], at: across)
        try claim(across, connection)
        let listed = try connection.query("""
            SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relname = '_pipelines'
            """, [across]).isEmpty ? [] : try connection.query("SELECT schema FROM \(across)._pipelines ORDER BY 1")
            .compactMap { $0.first ?? nil }
        // Members whose schema is gone (removed by hand) leave; each other member is read as it
        // is served, this one as it was built.
        var members: [(name: String, readFrom: String)] = [(live, building)]
        // A name is written into the views' SQL: one that is no schema name a publish takes is
        // not a member (the table is ours, but a hand may have written in it). A member must still
        // be a night of ours with its `_table_keys`, which say what its tables are.
        for member in listed where member != live && PostgresTarget.isValidSchema(member) {
            guard case .ours = try PostgresOwnership.standing(of: member, connection),
                  try !connection.query("""
                      SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = '_table_keys'
                      """, [member]).isEmpty
            else { continue }
            members.append((member, member))
        }
        members.sort { $0.name < $1.name }
        let relations = try commonRelations(members.map(\.readFrom), connection)
        let existing = try connection.query("""
            SELECT quote_ident(c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relkind = 'v' ORDER BY 1
            """, [across]).compactMap { $0.first ?? nil }
        var statements = [
            "CREATE SCHEMA IF NOT EXISTS \(across)",
            "COMMENT ON SCHEMA \(across) IS '\(mark): views across the pipelines listed in its _pipelines, made again by each of their publishes'",
            "CREATE TABLE IF NOT EXISTS \(across)._pipelines (schema text PRIMARY KEY)",
            "DELETE FROM \(across)._pipelines",
            "INSERT INTO \(across)._pipelines VALUES " + members.map { "('\($0.name)')" }.joined(separator: ", "),
        ]
        // Without CASCADE: a view an application built on one of these stops the publish rather
        // than being dropped with it.
        statements += existing.map { "DROP VIEW \(across).\($0)" }
        for (relation, columns) in relations {
            let list = columns.map(PostgresPublisher.quoted).joined(separator: ", ")
            let union = members.map { member in
                "SELECT '\(member.name)'::text AS pipeline, \(list) FROM \(member.name).\(PostgresPublisher.quoted(relation))"
            }.joined(separator: " UNION ALL ")
            statements.append("CREATE VIEW \(across).\(PostgresPublisher.quoted(relation)) WITH (security_invoker = true) AS \(union)")
        }
        let readers = target.readers.map(PostgresPublisher.quoted).joined(separator: ", ")
        if !readers.isEmpty {
            statements.append("GRANT USAGE ON SCHEMA \(across) TO \(readers)")
            statements.append("GRANT SELECT ON ALL TABLES IN SCHEMA \(across) TO \(readers)")
        }
        return statements.map { $0 + ";" }.joined(separator: " ")
    }

    /// The relations every member has (the tables its `_table_keys` lists and its `v_` views), each
    /// with the columns of one name and type in all of them, in the first member's order; a
    /// column named `pipeline` is left out, since the views' own first column has that name.
    private static func commonRelations(_ schemas: [String], _ connection: PostgresConnection) throws
        -> [(relation: String, columns: [String])] {
        var common: [String: [(name: String, type: String)]]?
        var order: [String] = []
        for schema in schemas {
            let rows = try connection.query("""
                SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
                WHERE c.table_schema = $1 AND c.column_name <> 'pipeline'
                  AND (c.table_name LIKE 'v\\_%' OR c.table_name IN (SELECT table_name FROM \(schema)._table_keys))
                ORDER BY c.table_name, c.ordinal_position
                """, [schema])
            var columns: [String: [(name: String, type: String)]] = [:]
            var tables: [String] = []
            for row in rows {
                guard let table = row[0] ?? nil, let name = row[1] ?? nil, let type = row[2] ?? nil else { continue }
                if columns[table] == nil { tables.append(table) }
                columns[table, default: []].append((name, type))
            }
            guard let kept = common else {
                common = columns
                order = tables
                continue
            }
            common = kept.reduce(into: [:]) { result, entry in
                guard let theirs = columns[entry.key] else { return }
                let shared = entry.value.filter { column in theirs.contains { $0.name == column.name && $0.type == column.type } }
                if !shared.isEmpty { result[entry.key] = shared }
            }
        }
        return order.compactMap { table in common?[table].map { (table, $0.map(\.name)) } }
    }

    /// Refuses a schema of that name that is not the views' own (an application's, or a
    /// pipeline's night): it is never written into.
    private static func claim(_ schema: String, _ connection: PostgresConnection) throws {
        let rows = try connection.query("""
            SELECT coalesce(obj_description(oid, 'pg_namespace'), '') FROM pg_namespace WHERE nspname = $1
            """, [schema])
        guard let comment = rows.first?.first ?? nil, !comment.hasPrefix(mark) else { return }
        throw Failure(.badInput, "schema \(schema) exists and is not Commissary's views across pipelines; it was left as "
                      + "it was. Choose another name in publish.postgres.across", at: "publish.postgres.across")
    }
}
