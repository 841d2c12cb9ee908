import Basics
import Foundation
import Snapshot

/// The change feed in PostgreSQL: `<schema>_changes`, a schema beside the served one that the
/// nightly swap never replaces, with a row per published night (`run`) and a row per changed row
/// (`change`), so a client several nights behind asks for everything since its run in one query
/// (docs/postgres.md). Filled in the swap's transaction: a reader sees the new night and its
/// changes together, or neither. Kept for as many nights as the served schemas are.
struct PostgresChangeFeed {
    let schema: String
    /// The change set from the night served until now; nil when there is none to take (the
    /// first night, or that night's snapshot is no longer on disk).
    let changes: ChangeSet?
    let runId: String
    let servedRunId: String?
    let snapshot: String
    let builtAt: String?
    let schemaVersion: Int

    /// The change set from the snapshot of the night served (found by its run id beside
    /// `snapshot`) to `snapshot`: `handedOver` (what the publish stage wrote beside it) or the
    /// change file beside it when it starts from that night, as it does unless PostgreSQL missed
    /// a night; otherwise the two snapshots compared, at most `rowLimit` rows.
    init(target: PostgresTarget, snapshot: URL, servedRunId: String?, handedOver: ChangeSet?, rowLimit: Int?) throws {
        schema = target.schema + "_changes"
        let meta = try SnapshotReader.meta(of: snapshot)
        runId = meta["run_id"] ?? ""
        builtAt = meta["built_at"]
        schemaVersion = Int(meta["schema_version"] ?? "") ?? 0
        self.snapshot = snapshot.lastPathComponent
        self.servedRunId = servedRunId
        let folder = snapshot.deletingLastPathComponent()
        guard let served = servedRunId.flatMap({ runId in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .compactMap { SnapshotFileName($0, pipeline: meta["pipeline"] ?? "") }
                .first { $0.runId == runId }
        }) else {
            changes = nil
            return
        }
        if let handedOver, handedOver.old.snapshot == served.fileName, handedOver.new.snapshot == snapshot.lastPathComponent {
            changes = handedOver
        } else if let written = (try? SnapshotStore.changes(beside: snapshot)) ?? nil, written.old.snapshot == served.fileName {
            // A change file that cannot be read is not this publish's failure: the snapshots are compared below.
            changes = written
        } else {
            changes = try ChangeSet.between(folder.appendingPathComponent(served.fileName), snapshot, rowLimit: rowLimit)
        }
    }

    /// The schema and its tables, made on the first night; the statements are no-ops after it
    /// and take no lock a reader's waits on.
    var creation: String {
        let statements = [
            "CREATE SCHEMA IF NOT EXISTS \(schema)",
            PostgresOwnership.comment(on: schema, feed: true),
            """
            CREATE TABLE IF NOT EXISTS \(schema).run (number bigint PRIMARY KEY, run_id text NOT NULL UNIQUE,
                previous_run_id text, published_at timestamptz NOT NULL, built_at timestamptz, snapshot text NOT NULL,
                schema_version integer NOT NULL, resync boolean NOT NULL)
            """,
            """
            CREATE TABLE IF NOT EXISTS \(schema).change (run_number bigint NOT NULL REFERENCES \(schema).run (number)
                ON DELETE CASCADE, position integer NOT NULL, run_id text NOT NULL, table_name text NOT NULL,
                operation text NOT NULL CHECK (operation IN ('delete', 'update', 'insert')), key jsonb NOT NULL,
                "values" jsonb, PRIMARY KEY (run_number, position))
            """,
            // A night applied in place reads its rows a table and an operation at a time.
            "CREATE INDEX IF NOT EXISTS change_by_table ON \(schema).change (run_number, table_name, operation)",
        ]
        return statements.map { $0 + ";" }.joined(separator: " ")
    }

    /// After `creation`, in its transaction: the readers' access as the configuration says
    /// (`PostgresAccess.restatement`): a reader added reads the feed from this night on, one
    /// removed no longer does, what a role holds beyond reading is taken back, and row-level
    /// security and its policy are set where they are not so already. A feed already so is left
    /// as it is: restating its policies takes each table's `ACCESS EXCLUSIVE` lock, and every
    /// client reading the feed would wait on it.
    func restateAccess(_ target: PostgresTarget, _ connection: PostgresConnection) throws {
        let statements = try PostgresAccess.restatement(for: target, schema: schema, connection)
        if !statements.isEmpty { try connection.execute(statements, at: schema) }
    }

    /// Inside the swap's (or the apply's) transaction: the night's `run` row, its changes through
    /// COPY, and the nights beyond the `keep` newest removed with their changes. Returns the
    /// night's `number`.
    @discardableResult
    func record(keep: Int, _ connection: PostgresConnection) throws -> String? {
        let resync = changes.map { !$0.changesRowsOnly } ?? true
        let number = try connection.query("""
            INSERT INTO \(schema).run (number, run_id, previous_run_id, published_at, built_at, snapshot, schema_version, resync)
            SELECT coalesce(max(number), 0) + 1, $1, $2, now(), $3::timestamptz, $4, $5::integer, $6::boolean FROM \(schema).run
            RETURNING number
            """, [runId, servedRunId, builtAt, snapshot, String(schemaVersion), resync ? "true" : "false"],
            at: "\(schema).run").first?.first ?? nil
        if let changes, !resync, let number {
            var position = 0
            try connection.copy(into: "\(schema).change", columns: ["run_number", "position", "run_id", "table_name", "operation",
                                                                    "key", "\"values\""], at: "\(schema).change") { row in
                for change in changes.rowChanges {
                    position += 1
                    try row([number, String(position), runId, change.table, change.operation, change.key, change.values])
                }
            }
        }
        try connection.execute("DELETE FROM \(schema).run WHERE number <= (SELECT max(number) FROM \(schema).run) - \(max(1, keep))",
                               at: "\(schema).run")
        return number
    }
}
