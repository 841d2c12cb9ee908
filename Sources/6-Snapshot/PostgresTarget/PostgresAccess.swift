import Basics

/// Who may read a night's schema (`publish: postgres: readers:` and `row_level_security:`).
/// Each night's schema is built new, so grants, row-level security and policies an operator
/// added by hand would leave with the night before; they are stated again on every publish,
/// inside the swap's transaction, so no reader ever finds the new night without them.
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
}
