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
/// through them what the members' grants and row-level policies let it see, no more. A member
/// whose pipeline no longer names the schema is taken out of it by its next publish.
enum PostgresAcross {
    static let mark = "Commissary views across pipelines"

    /// The statements that make `target.across`'s views again with `live` among the members,
    /// whose new night is still `building` when this runs, and that take `live` out of any other
    /// schema of views across pipelines that still lists it; empty when there is nothing to do.
    /// Runs inside the swap's open transaction: the locks it takes are held until its commit.
    static func statements(for target: PostgresTarget, live: String, building: String,
                           _ connection: PostgresConnection) throws -> String {
        var statements = try departures(of: live, staying: target.across, connection)
        guard let across = target.across else { return statements.map { $0 + ";" }.joined(separator: " ") }
        _ = try connection.query("SELECT pg_advisory_xact_lock(hashtext($1))", ["commissary across " + across], at: across)
        try claim(across, connection)
        // Members whose schema is gone (removed by hand) leave; each other member is read as it
        // is served, this one as it was built.
        let members = [(name: live, readFrom: building)] + (try listed(in: across, connection))
            .filter { $0 != live }.map { (name: $0, readFrom: $0) }
        statements += [
            "CREATE SCHEMA IF NOT EXISTS \(across)",
            "COMMENT ON SCHEMA \(across) IS '\(mark): views across the pipelines listed in its _pipelines, made again by each of their publishes'",
            "CREATE TABLE IF NOT EXISTS \(across)._pipelines (schema text PRIMARY KEY)",
        ]
        statements += try views(in: across, members: members, readers: target.readers, connection)
        return statements.map { $0 + ";" }.joined(separator: " ")
    }

    /// The statements that take `live` out of every schema of views across pipelines that lists
    /// it but is not `staying` (its pipeline no longer names it, or names another): their views
    /// are made again over the members that stay. Left there, they would read the night a swap
    /// renames aside, and be dropped with it.
    private static func departures(of live: String, staying: String?, _ connection: PostgresConnection) throws -> [String] {
        let schemas = try connection.query("""
            SELECT n.nspname FROM pg_namespace n JOIN pg_class c ON c.relnamespace = n.oid
            WHERE c.relname = '_pipelines' AND c.relkind = 'r'
              AND starts_with(coalesce(obj_description(n.oid, 'pg_namespace'), ''), $1)
            ORDER BY 1
            """, [mark]).compactMap { $0.first ?? nil }
        var statements: [String] = []
        for across in schemas where across != staying && PostgresTarget.isValidSchema(across) {
            // Locked only where this pipeline is still listed (read again under the lock): a
            // lock on every schema across pipelines would make two members of two of them,
            // publishing at once, wait on each other.
            guard try !connection.query("SELECT 1 FROM \(across)._pipelines WHERE schema = $1", [live]).isEmpty else { continue }
            _ = try connection.query("SELECT pg_advisory_xact_lock(hashtext($1))", ["commissary across " + across], at: across)
            let members = try listed(in: across, connection)
            guard members.contains(live) else { continue }
            statements += try views(in: across, members: members.filter { $0 != live }.map { (name: $0, readFrom: $0) },
                                    readers: [], connection)
        }
        return statements
    }

    /// The members `across._pipelines` lists that are still nights of ours with their
    /// `_table_keys`, which say what their tables are. A name is written into the views' SQL:
    /// one that is no schema name a publish takes is not a member (the table is ours, but a hand
    /// may have written in it).
    private static func listed(in across: String, _ connection: PostgresConnection) throws -> [String] {
        let listed = try connection.query("""
            SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relname = '_pipelines'
            """, [across]).isEmpty ? [] : try connection.query("SELECT schema FROM \(across)._pipelines ORDER BY 1")
            .compactMap { $0.first ?? nil }
        return try listed.filter { member in
            guard PostgresTarget.isValidSchema(member), case .ours = try PostgresOwnership.standing(of: member, connection)
            else { return false }
            return try !connection.query("""
                SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = '_table_keys'
                """, [member]).isEmpty
        }
    }

    /// The statements that make `across`'s views again over `members` (their columns read from
    /// each one's `readFrom` schema, the night a swap is about to give its name) and list them in
    /// `_pipelines`; `readers` are granted the views, and so
    /// again is every role the views were granted to before (another member's readers): the
    /// views are `security_invoker`, so what a role reads through them is still what the
    /// members' own grants let it read.
    private static func views(in across: String, members: [(name: String, readFrom: String)], readers: [String],
                              _ connection: PostgresConnection) throws -> [String] {
        let members = members.sorted { $0.name < $1.name }
        let relations = try commonRelations(members.map(\.readFrom), connection)
        let existing = try connection.query("""
            SELECT quote_ident(c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relkind = 'v' ORDER BY 1
            """, [across]).compactMap { $0.first ?? nil }
        let granted = try connection.query("""
            SELECT DISTINCT r.rolname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace,
                aclexplode(c.relacl) a JOIN pg_roles r ON r.oid = a.grantee
            WHERE n.nspname = $1 AND c.relkind = 'v' AND a.privilege_type = 'SELECT' AND a.grantee <> c.relowner
            ORDER BY 1
            """, [across]).compactMap { $0.first ?? nil }
        var statements = ["DELETE FROM \(across)._pipelines"]
        if !members.isEmpty {
            statements.append("INSERT INTO \(across)._pipelines VALUES " + members.map { "('\($0.name)')" }.joined(separator: ", "))
        }
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
        let grantees = Array(Set(readers + granted)).sorted().map(PostgresPublisher.quoted).joined(separator: ", ")
        if !grantees.isEmpty {
            statements.append("GRANT USAGE ON SCHEMA \(across) TO \(grantees)")
            statements.append("GRANT SELECT ON ALL TABLES IN SCHEMA \(across) TO \(grantees)")
        }
        return statements
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
