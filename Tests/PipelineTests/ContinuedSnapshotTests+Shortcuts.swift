import FoodModel
import Foundation
import GRDB
import Logging
import Pipeline
import Snapshot
import SnapshotTestSupport
import Testing
import TestSupport

/// The shortcuts a change set takes so that a continued night's file stays cheap (docs/changes.md,
/// "Computing it"): tables empty on both sides are not read, a keyed table's new rows are read in
/// one pass that tells inserted from updated, and the old rows are not scanned for deletions
/// when counting shows every one was matched. Each test edits copies of the sample's snapshot so
/// that a shortcut taken where it must not be would lose a change.
extension ContinuedSnapshotTests {
    /// The sample pipeline's snapshot, in two writable copies for the test to edit.
    private func twoCopies(in workspace: URL) async throws -> (old: URL, new: URL) {
        let (spec, _) = try SampleCopy.make(in: workspace)
        let report = try await PipelineRunner(
            spec: try SpecReader.read(spec),
            options: RunOptions(workspace: Workspace(root: workspace), today: ServiceDate("2026-10-12")!),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        let published = URL(fileURLWithPath: try #require(report.snapshotPath))
        var copies: [URL] = []
        for name in ["old.sqlite", "new.sqlite"] {
            let copy = workspace.appendingPathComponent(name)
            try FileManager.default.copyItem(at: published, to: copy)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
            copies.append(copy)
        }
        return (copies[0], copies[1])
    }

    /// Runs `sql` on a copy, its foreign keys unchecked: a test's row may name a food that is not there.
    private func edit(_ url: URL, _ sql: String) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        try DatabaseQueue(path: url.path, configuration: configuration).write { db in try db.execute(sql: sql) }
    }

    /// Every `food_code` row removed (a table with rows on one side only); in `food_nutrient`, the
    /// first row by key given another food (one row deleted, one inserted: as many rows on both
    /// sides, so only counting the matched rows tells the deletion); each way round, the
    /// change set holds exactly these, and the reference client's replay gives the other copy.
    /// Then a column added to `food_component`, which the sample leaves empty: empty on both
    /// sides, but its columns differ, it is replaced, and its index, whose definition did not
    /// change, is named so that a client that drops the table creates the index again.
    @Test func theShortcutsKeepARemovedTableAMovedRowAndAnEmptyTableWithNewColumns() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (old, new) = try await twoCopies(in: folder)
        let codes = try QueryResult.run("SELECT food_id, code FROM food_code ORDER BY food_id, code", on: old).rows
        let first = try #require(try QueryResult.run("SELECT * FROM food_nutrient ORDER BY food_id, nutrient_key LIMIT 1", on: old)
            .rows.first)
        let components = try QueryResult.run("SELECT count(*) FROM food_component", on: old).rows
        let componentColumns = try QueryResult.run("SELECT name FROM pragma_table_info('food_component') ORDER BY cid", on: old)
            .rows.compactMap { $0.first?.text }
        #expect(!codes.isEmpty && first.count == 10 && components == [[.integer(0)]] && !componentColumns.isEmpty)
        try edit(new, """
            DELETE FROM food_code;
            UPDATE food_nutrient SET food_id = 'test:moved' WHERE food_id = '\(try #require(first[0].text))'
                AND nutrient_key = '\(try #require(first[1].text))';
            """)
        let moved = [SQLValue.text("test:moved")] + first.dropFirst()

        let forward = try await ChangeSetReplay.expectReplayGivesTheNew(old: old, new: new)
        let removedCodes = try #require(forward.tables.first { $0.name == "food_code" })
        #expect(removedCodes.deleted.count == codes.count && Set(removedCodes.deleted) == Set(codes))
        #expect(removedCodes.inserted.isEmpty && removedCodes.updated.isEmpty)
        let nutrients = try #require(forward.tables.first { $0.name == "food_nutrient" })
        #expect(nutrients.deleted == [Array(first[0...1])] && nutrients.inserted == [moved] && nutrients.updated.isEmpty)

        let backward = try await ChangeSetReplay.expectReplayGivesTheNew(old: new, new: old)
        let addedCodes = try #require(backward.tables.first { $0.name == "food_code" })
        #expect(addedCodes.inserted.count == codes.count && Set(addedCodes.inserted) == Set(codes) && addedCodes.deleted.isEmpty)
        let back = try #require(backward.tables.first { $0.name == "food_nutrient" })
        #expect(back.deleted == [[.text("test:moved"), first[1]]] && back.inserted == [first])
        // The tables that hold nothing on either side, and those unchanged, are not in the set.
        #expect(forward.tables.map(\.name) == ["food_nutrient", "food_code"])

        let componentIndexes = try QueryResult.run(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'food_component' AND sql IS NOT NULL",
            on: old).rows.compactMap { $0.first?.text }
        #expect(componentIndexes == ["food_component_by_component"])
        try edit(new, "ALTER TABLE food_component ADD COLUMN note TEXT")
        let altered = try await ChangeSetReplay.expectReplayGivesTheNew(old: old, new: new)
        let replaced = try #require(altered.tables.first { $0.name == "food_component" })
        #expect(replaced.replaced && replaced.columns == componentColumns + ["note"] && replaced.inserted.isEmpty)
        #expect(altered.schemaObjects.map(\.name) == componentIndexes)
    }

    /// `_meta`'s key is a primary key that SQLite lets hold NULL, twice over. Two NULL-keyed rows
    /// in the new copy against one in the old, and `licence` removed: as many rows on both sides,
    /// none inserted. The new row `(NULL, 'z')` matches the old `(NULL, 'x')` and is an update of
    /// its value (not an insert, though every key column of its match is NULL), and `licence` is
    /// found deleted: a key that may repeat gets no counting shortcut.
    @Test func aKeyThatCanHoldNullIsComparedRowByRow() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (old, new) = try await twoCopies(in: folder)
        try edit(old, "INSERT INTO _meta (key, value) VALUES (NULL, 'x')")
        try edit(new, """
            INSERT INTO _meta (key, value) VALUES (NULL, 'x'), (NULL, 'z');
            DELETE FROM _meta WHERE key = 'licence';
            """)
        let meta = try #require(try ChangeSet.between(old, new).tables.first { $0.name == "_meta" })
        #expect(meta.deleted == [[.text("licence")]])
        #expect(meta.inserted.isEmpty)
        #expect(meta.updated.map(\.key) == [[.null]])
        #expect(meta.updated.first?.changed.map(\.column) == ["value"] && meta.updated.first?.changed.map(\.value) == [.text("z")])
    }
}

private extension SQLValue {
    var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}
