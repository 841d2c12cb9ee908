import Basics
import Foundation
import GRDB
import Snapshot
import Testing

@Suite struct MetadataTests {
    /// Only the backticks go: the words around them, and characters beyond ASCII, stay as written.
    @Test func plainTextDropsMarkdownBackticksAndNothingElse() {
        #expect(SnapshotMetadata.plain("`food_id`: per 100 g (µg, `mcg`), Café `à la carte`")
                    == "food_id: per 100 g (µg, mcg), Café à la carte")
        #expect(SnapshotMetadata.plain("no code here") == "no code here")
        #expect(SnapshotMetadata.plain("``") == "")
    }

    @Test func everyPublishedSnapshotHasDatasetteMetadataFromItsOwnMeta() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let staging = try stage(smallDataset(), in: folder, runId: "r7")
        defer { staging.discard() }
        let file = try SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
            .publish(staging, fileName: "demo-2026-10-12-r7.sqlite", pipeline: "demo")
        let data = try Data(contentsOf: URL(fileURLWithPath: file.path + ".metadata.json"))
        let metadata = try JSONDecoder().decode(SnapshotMetadata.self, from: data)
        // Support.swift's run record: pipeline demo, licence CC0-1.0, one source "test".
        #expect(metadata.title == "Commissary snapshot: demo")
        #expect(metadata.license == "CC0-1.0")
        let database = try #require(metadata.databases["demo-2026-10-12-r7"], "Datasette keys databases by file stem")
        #expect(database.sources == ["test"])
        #expect(database.documents == 0)
        #expect(database.description.contains("run r7"))
        #expect(database.tables["food"]?.ftsTable == "food_fts")
        #expect(database.tables["recipe"]?.ftsTable == "recipe_fts")
        #expect(database.tables["food"]?.columns["recipe_id"]?.contains("leading zeros") == true)
        // The stable name people serve has the same settings.
        #expect(metadata.databases["latest-demo"] == database)
        // Housekeeping out of sight, facets on the menu, the README's questions as canned queries,
        // and no Markdown backticks in what Datasette prints.
        #expect(database.tables["_checks"]?.hidden == true && database.tables["_stale"]?.hidden == true)
        #expect(database.tables["grdb_migrations"]?.hidden == true)
        #expect(database.tables["food"]?.hidden == nil)
        #expect(database.tables["v_menu"]?.facets == ["restaurant", "meal", "date"])
        #expect(database.queries?["vegan_without_tree_nuts"]?.sql.contains("term = 'tree_nuts'") == true)
        #expect(!database.tables.values.contains { $0.description.contains("`") || $0.columns.values.contains { $0.contains("`") } })
        // Every canned query runs on this snapshot.
        for (name, query) in database.queries ?? [:] {
            #expect(throws: Never.self, "\(name)") {
                try QueryResult.run(query.sql.replacingOccurrences(of: ":date", with: "'2026-10-10'"), on: file)
            }
        }

        // Raw JSON: Datasette's own key names.
        let raw = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(raw["license"] as? String == "CC0-1.0")
        let tables = try #require(((raw["databases"] as? [String: Any])?["demo-2026-10-12-r7"] as? [String: Any])?["tables"]
                                  as? [String: Any])
        #expect((tables["recipe"] as? [String: Any])?["fts_table"] as? String == "recipe_fts")
    }
}

/// A published snapshot changed afterwards (bytes that are no UTF-8 in a text column) is refused with
/// the snapshot's failure and the column, where reading it stopped the process.
@Suite struct EditedSnapshotTests {
    @Test func aValueOfTheWrongTypeIsTheSnapshotsFailure() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("edited.sqlite")
        try DatabaseQueue(path: file.path).write { db in
            try db.execute(sql: """
                CREATE TABLE _stale (source TEXT, partition TEXT, kept_fetched_at TEXT, kept_run_id TEXT, reason TEXT);
                INSERT INTO _stale VALUES ('menus', '2026-10-10', '2026-10-09T02:00:00Z', 'r1', 'HTTP 500');
                """)
        }
        #expect(try SnapshotReader.stalePartitions(of: file).map(\.reason) == ["HTTP 500"])
        try DatabaseQueue(path: file.path).write { db in try db.execute(sql: "UPDATE _stale SET reason = x'ff'") }
        let refused = #expect(throws: Failure.self) { try SnapshotReader.stalePartitions(of: file) }
        #expect(refused?.code == .snapshot)
        #expect(refused?.message.contains("\"reason\"") == true, "\(refused.map { "\($0)" } ?? "")")
        // The column, not the row it is in: a row can hold a page of text.
        #expect(refused?.message.contains("kept_run_id") == false)
    }

    /// The same, when the changed snapshot is compared with another (the change file, `diff`).
    @Test func aValueOfTheWrongTypeIsRefusedWhenCompared() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let staging = try stage(smallDataset(), in: folder, runId: "r1")
        defer { staging.discard() }
        let published = try SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
            .publish(staging, fileName: "demo-r1.sqlite", pipeline: "demo")
        let edited = folder.appendingPathComponent("edited.sqlite")
        try FileManager.default.copyItem(at: published, to: edited)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: edited.path)
        try DatabaseQueue(path: edited.path).write { db in try db.execute(sql: "UPDATE _table_keys SET key_columns = x'ff'") }
        let refused = #expect(throws: Failure.self) { try ChangeSet.between(published, edited) }
        #expect(refused?.code == .snapshot)
        #expect(refused?.message.contains("\"key_columns\"") == true, "\(refused.map { "\($0)" } ?? "")")
    }
}
