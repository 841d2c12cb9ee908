import Snapshot

/// COMMENT ON every table, view and column of a night's schema that the snapshot's schema
/// description (`SchemaDescription.current`, the source of docs/schema.md) describes, so a
/// reader's tools (psql's `\d+`, Supabase's table editor) show what each one means.
enum PostgresComments {
    static func add(in schema: String, _ connection: PostgresConnection) throws {
        let kinds = Dictionary(try connection.query("""
            SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relkind IN ('r', 'v')
            """, [schema]).compactMap { row in row[0].flatMap { name in row[1].map { (name, $0) } } },
            uniquingKeysWith: { first, _ in first })
        let columns = Set(try connection.query("""
            SELECT table_name || '.' || column_name FROM information_schema.columns WHERE table_schema = $1
            """, [schema]).compactMap { $0.first ?? nil })
        var statements: [String] = []
        for table in SchemaDescription.current.tables {
            guard let kind = kinds[table.name] else { continue }
            let name = "\(schema).\(PostgresPublisher.quoted(table.name))"
            statements.append("COMMENT ON \(kind == "v" ? "VIEW" : "TABLE") \(name) IS \(literal(table.description))")
            for column in table.columns where columns.contains("\(table.name).\(column.name)") {
                // A flag is `boolean` here: said as true, not as SQLite's 1.
                let description = column.truthCondition.map { "True when \($0)" } ?? column.description
                statements.append("COMMENT ON COLUMN \(name).\(PostgresPublisher.quoted(column.name)) IS \(literal(description))")
            }
        }
        guard !statements.isEmpty else { return }
        try connection.execute(statements.joined(separator: "; "), at: schema)
    }

    /// Descriptions as plain text (docs/schema.md's backticks dropped) in a string literal.
    private static func literal(_ description: String) -> String {
        "'" + SnapshotMetadata.plain(description).replacingOccurrences(of: "'", with: "''") + "'"
    }
}
