import Basics

/// Who may read a night's schema (`publish: postgres: readers:` and `row_level_security:`).
/// Each night's schema is built new, so grants, row-level security and policies an operator
/// added by hand would leave with the night before; they are stated again on every publish,
/// inside the swap's transaction, so no reader ever finds the new night without them. A night
/// applied to the served schema states them again too, after taking back what the configuration
/// no longer says, so that its access is a swapped night's.
enum PostgresAccess {
    /// Refuses, before anything is built, readers the server has no role for: the grant would
    /// fail inside the swap otherwise, after the whole build.
    static func checkReaders(of target: PostgresTarget, _ connection: PostgresConnection) throws {
        guard !target.readers.isEmpty else { return }
        let existing = Set(try connection.query("SELECT rolname FROM pg_roles WHERE rolname = ANY (string_to_array($1, ','))",
                                                [target.readers.joined(separator: ",")]).compactMap { $0.first ?? nil })
        if let missing = target.readers.first(where: { !existing.contains($0) }) {
            throw Failure(.postgres, "the server has no role \(missing); create it (CREATE ROLE \(missing) NOLOGIN) "
                          + "or remove it from readers; PostgreSQL was left as it was", at: "publish.postgres.readers")
        }
    }

    /// The statements that give `schema` (whose tables are `tables`) the access `target`
    /// configures; empty when it configures none.
    static func statements(for target: PostgresTarget, schema: String, tables: [String]) -> String {
        let readers = target.readers.map(PostgresPublisher.quoted).joined(separator: ", ")
        var statements: [String] = []
        if !readers.isEmpty {
            statements.append("GRANT USAGE ON SCHEMA \(schema) TO \(readers)")
            // ALL TABLES takes in the views too.
            statements.append("GRANT SELECT ON ALL TABLES IN SCHEMA \(schema) TO \(readers)")
        }
        if target.rowLevelSecurity {
            for table in tables.map({ "\(schema).\(PostgresPublisher.quoted($0))" }) {
                statements.append("ALTER TABLE \(table) ENABLE ROW LEVEL SECURITY")
                if !readers.isEmpty {
                    statements.append("CREATE POLICY commissary_read ON \(table) FOR SELECT TO \(readers) USING (true)")
                }
            }
        }
        return statements.map { $0 + ";" }.joined(separator: " ")
    }

    /// The statements that take back every privilege on `schema` and its tables and views a role
    /// holds beyond what `readers` are given (`USAGE` on the schema, `SELECT` on its tables, no
    /// grant option): all of another role's, PUBLIC's included, and what a reader holds beyond
    /// reading. A new table's privileges come from the server's default privileges too, and
    /// `ALTER DEFAULT PRIVILEGES … GRANT ALL ON TABLES TO anon` (Supabase's, for one) would give
    /// each night's readers `INSERT`, `UPDATE`, `DELETE` and `TRUNCATE`. Only what goes beyond is
    /// named, so these may run before or after the readers' grants. The owner is left alone.
    static func revocations(on schema: String, readers: [String], _ connection: PostgresConnection) throws -> [String] {
        // PUBLIC is grantee 0 in an ACL, and no role.
        let rows = try connection.query("""
            SELECT DISTINCT coalesce(r.rolname, 'PUBLIC'), g.kind, g.privilege_type, g.is_grantable FROM (
                SELECT a.grantee, 'SCHEMA' AS kind, a.privilege_type, a.is_grantable
                FROM pg_namespace n, aclexplode(n.nspacl) a WHERE n.nspname = $1 AND a.grantee <> n.nspowner
                UNION ALL
                SELECT a.grantee, 'ALL TABLES IN SCHEMA', a.privilege_type, a.is_grantable
                FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace, aclexplode(c.relacl) a
                WHERE n.nspname = $1 AND a.grantee <> c.relowner
            ) g LEFT JOIN pg_roles r ON r.oid = g.grantee
            ORDER BY 1, 2, 3
            """, [schema], at: schema)
        var statements: [String] = []
        var revokedWhole: Set<String> = []
        for row in rows {
            guard let grantee = row[0] ?? nil, let kind = row[1] ?? nil, let privilege = row[2] ?? nil,
                  privilege.allSatisfy({ $0.isASCII && ($0.isUppercase || $0 == " ") }) else { continue }
            let role = grantee == "PUBLIC" ? "PUBLIC" : PostgresPublisher.quoted(grantee)
            guard grantee != "PUBLIC", readers.contains(grantee) else {
                if revokedWhole.insert(grantee).inserted {
                    statements += ["REVOKE ALL ON ALL TABLES IN SCHEMA \(schema) FROM \(role)", "REVOKE ALL ON SCHEMA \(schema) FROM \(role)"]
                }
                continue
            }
            let read = kind == "SCHEMA" ? "USAGE" : "SELECT"
            if privilege != read {
                statements.append("REVOKE \(privilege) ON \(kind) \(schema) FROM \(role)")
            } else if row[3] == "t" {
                statements.append("REVOKE GRANT OPTION FOR \(privilege) ON \(kind) \(schema) FROM \(role)")
            }
        }
        return statements
    }

    /// The statements that give the existing `schema` exactly the access `target` configures:
    /// every privilege beyond it revoked (`revocations`), the readers' grants given,
    /// and each table whose row-level security or policies are not what the configuration says
    /// (`commissary_read` for the readers, nothing else) set so, its other policies dropped. A
    /// table already so is left as it is: restating forty tables' policies every night would
    /// cost a night applied in place more than its rows. Empty when there is nothing to state.
    static func restatement(for target: PostgresTarget, schema: String, _ connection: PostgresConnection) throws -> String {
        let quoted = PostgresPublisher.quoted
        // Each table with its row-level security and its policies as `name:command:roles:using`,
        // compared whole with what the configuration gives.
        let tables = try connection.query("""
            SELECT c.relname, c.relrowsecurity, coalesce((
                SELECT string_agg(p.policyname || ':' || p.cmd || ':'
                    || array_to_string(ARRAY(SELECT unnest(p.roles) ORDER BY 1), ',') || ':' || coalesce(p.qual, ''),
                    ' ' ORDER BY p.policyname)
                FROM pg_policies p WHERE p.schemaname = n.nspname AND p.tablename = c.relname), '')
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY 1
            """, [schema], at: schema)
        // Policy names as rows: a name made by hand may hold any character.
        var policies: [String: [String]] = [:]
        for row in try connection.query("SELECT tablename, policyname FROM pg_policies WHERE schemaname = $1 ORDER BY 1, 2",
                                         [schema], at: schema) {
            guard let table = row[0] ?? nil, let name = row[1] ?? nil else { continue }
            policies[table, default: []].append(name)
        }
        var statements = try revocations(on: schema, readers: target.readers, connection)
        let policy = target.rowLevelSecurity && !target.readers.isEmpty
            ? "commissary_read:SELECT:\(target.readers.sorted().joined(separator: ",")):true" : ""
        var restated: [String] = []
        for row in tables {
            guard let table = row[0] ?? nil else { continue }
            guard row[1] != (target.rowLevelSecurity ? "t" : "f") || (row[2] ?? "") != policy else { continue }
            statements += (policies[table] ?? []).map { "DROP POLICY \(quoted($0)) ON \(schema).\(quoted(table))" }
            if !target.rowLevelSecurity { statements.append("ALTER TABLE \(schema).\(quoted(table)) DISABLE ROW LEVEL SECURITY") }
            restated.append(table)
        }
        // The grants, and for the tables restated with row-level security, its policy.
        return statements.map { $0 + "; " }.joined() + Self.statements(for: target, schema: schema, tables: restated)
    }
}
