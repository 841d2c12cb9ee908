import Basics
import FoodModel
import Foundation
import Logging
import Pipeline
import Snapshot
import SnapshotTestSupport
import Testing
import TestSupport

/// `commissary changes`: the rows that changed between two snapshots, by each table's stable
/// key, which the reference client applies to the old snapshot to get exactly the new one.
@Suite struct ChangeSetTests {
    private func publish(_ spec: URL, workspace: URL) async throws -> URL {
        let report = try await PipelineRunner(
            spec: try SpecReader.read(spec),
            options: RunOptions(workspace: Workspace(root: workspace), today: ServiceDate("2026-10-12")!),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        return URL(fileURLWithPath: try #require(report.snapshotPath))
    }

    /// One dish renamed on one day's page: the change set holds that one menu item (2026-10-11's
    /// first meal, first place: Brunch's Greek Yogurt Parfait at Covel, the page's first item;
    /// its id starts with that meal's) with its new name, no other data row, and replays to the
    /// new snapshot.
    @Test func oneRenamedItemIsOneUpdatedRowAndTheReplayIsTheNewSnapshot() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, site) = try SampleCopy.make(in: workspace)
        let old = try await publish(spec, workspace: workspace)

        let page = site.appendingPathComponent("Menus/2026-10-11.html")
        let html = try String(contentsOf: page, encoding: .utf8)
        let renamed = html.replacingOccurrences(of: ">Greek Yogurt Parfait</a>", with: ">Greek Yogurt Parfait Cup</a>")
        #expect(renamed != html)
        try Data(renamed.utf8).write(to: page)
        let new = try await publish(spec, workspace: workspace)

        let changes = try await ChangeSetReplay.expectReplayGivesTheNew(old: old, new: new)
        #expect(changes.old.snapshot == old.lastPathComponent && changes.new.snapshot == new.lastPathComponent)
        #expect(changes.old.schemaVersion == SnapshotSchema.version && changes.new.schemaVersion == SnapshotSchema.version)
        let data = changes.tables.filter { !$0.name.hasPrefix("_") }
        #expect(data.map(\.name) == ["menu_item"], "\(changes.text())")
        let items = try #require(data.first)
        #expect(items.key == ["id"])
        #expect(items.inserted.isEmpty && items.deleted.isEmpty)
        let renamedId = try QueryResult.run("SELECT id FROM menu_item WHERE meal_id = 2026101101 AND position = 1", on: new).rows
        #expect(items.updated.map(\.key) == renamedId)
        #expect(renamedId.first.map { row in if case .integer(let id) = row[0] { id / 100_000 == 2_026_101_101 } else { false } } == true)
        #expect(items.updated.first?.changed.map(\.column) == ["name"])
        #expect(items.updated.first?.changed.map(\.value) == [.text("Greek Yogurt Parfait Cup")])
        #expect(changes.schemaObjects.isEmpty)
        #expect(changes.text().contains("  menu_item: 0 inserted, 1 updated, 0 deleted\n"), "\(changes.text())")
        // Read back from its JSON, as `changes --since` reads change files, it is the same set.
        #expect(try ChangeSet(json: Data(changes.json().utf8), place: "changes.json").json() == changes.json())

        // Each table's key is recorded in the snapshot, parents before the tables pointing at them.
        let keys = try QueryResult.run("SELECT table_name, key_columns FROM _table_keys ORDER BY position", on: new).rows
        let order = keys.compactMap { row -> String? in if case .text(let name) = row[0] { return name } else { return nil } }
        #expect(keys.contains([.text("food_nutrient"), .text("[\"food_id\",\"nutrient_key\"]")]))
        #expect(keys.contains([.text("food_flag"), .text("[]")]))
        for (child, parent) in [("menu_item", "meal"), ("menu_item", "food"), ("restaurant", "place"), ("code_term", "term")] {
            #expect(try #require(order.firstIndex(of: parent)) < #require(order.firstIndex(of: child)), "\(parent) before \(child)")
        }
        #expect(!order.contains { $0.hasPrefix("food_fts") || $0.hasPrefix("recipe_fts") })
    }

    /// The same snapshot twice: nothing in the data changes; only what records the run does.
    @Test func aSnapshotAgainstItselfHasNoChanges() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, _) = try SampleCopy.make(in: workspace)
        let snapshot = try await publish(spec, workspace: workspace)
        let changes = try ChangeSet.between(snapshot, snapshot)
        #expect(changes.isEmpty)
        #expect(changes.text().hasSuffix(":\n  none\n"))

        let outcome = try await CommissaryProcess.run(["changes", snapshot.path, snapshot.path, "--format", "json", "--exit-code"])
        #expect(outcome.status == 0, "\(outcome.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        #expect(json["format"] as? String == "commissary-changes")
        #expect((json["tables"] as? [Any])?.isEmpty == true)
    }

    /// A dish removed from a day's page: that item is deleted, and the items after it on the
    /// meal's page keep their ids and change only their place; the days before and after are
    /// untouched. The command line says so and exits 7 with --exit-code.
    @Test func aRemovedItemTouchesOnlyItsMeal() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, site) = try SampleCopy.make(in: workspace)
        let old = try await publish(spec, workspace: workspace)
        try SampleCopy.removeFirstMenuItem(on: "2026-10-11", of: site)
        let new = try await publish(spec, workspace: workspace)

        let changes = try await ChangeSetReplay.expectReplayGivesTheNew(old: old, new: new)
        let items = try #require(changes.tables.first { $0.name == "menu_item" })
        let removed = try QueryResult.run("SELECT id FROM menu_item WHERE meal_id = 2026101101 AND position = 1", on: old).rows
        let brunch = try QueryResult.run("SELECT count(*) FROM menu_item WHERE meal_id = 2026101101", on: old).rows
        let count = try #require(brunch.first?.first.flatMap { value -> Int? in if case .integer(let n) = value { Int(n) } else { nil } })
        #expect(items.deleted == removed)
        #expect(items.inserted.isEmpty)
        #expect(items.updated.count == count - 1)
        #expect(items.updated.allSatisfy { update in
            guard case .integer(let id) = update.key.first else { return false }
            return id / 100_000 == 2_026_101_101 && update.changed.map(\.column) == ["position"]
        })
        let outcome = try await CommissaryProcess.run(["changes", old.path, new.path, "--exit-code"])
        #expect(outcome.status == 7, "\(outcome.error)")
        #expect(outcome.output.contains("  menu_item: 0 inserted, \(count - 1) updated, 1 deleted\n"), "\(outcome.output)")

        // The same set from the change file beside the new snapshot, through --since; a change
        // file cut short is refused in one line naming it, and nothing is printed on the output.
        let runId = try #require(try SnapshotReader.meta(of: old)["run_id"])
        let since = try await CommissaryProcess.run(["changes", "--since", runId, "--workspace", workspace.path])
        #expect(since.status == 0 && since.output == changes.text(), "\(since.error)")
        let file = new.path + SnapshotStore.changesSuffix
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: file))
        let damaged = try await CommissaryProcess.run(["changes", "--since", runId, "--workspace", workspace.path])
        #expect(damaged.status == 1 && damaged.output.isEmpty, "\(damaged.error)")
        #expect(damaged.error == "error: \(file): the gzip data is cut short\n", "\(damaged.error)")
    }

    /// Past the pipeline's `publish: changes: max_rows` (3 here), a night's change file is a
    /// resync mark that holds no rows: `changes --since` exits 8 saying why, and the reference
    /// client refuses it. The comparison counts rows as it reads them and stops at the limit: a
    /// limit one row short of the whole set gives the mark, the set's own size gives the set.
    @Test func aChangeSetOverTheLimitIsAResyncMark() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, site) = try SampleCopy.make(in: workspace, adding: "\npublish:\n  changes:\n    max_rows: 3\n")
        let old = try await publish(spec, workspace: workspace)
        try SampleCopy.removeFirstMenuItem(on: "2026-10-11", of: site)
        let new = try await publish(spec, workspace: workspace)

        let mark = try #require(try SnapshotStore.changes(beside: new))
        #expect(mark.resync == "more than 3 rows changed, more than a change file holds")
        #expect(mark.tables.isEmpty && mark.schemaObjects.isEmpty && !mark.changesRowsOnly)
        #expect(mark.old.snapshot == old.lastPathComponent && mark.new.snapshot == new.lastPathComponent)
        // The file itself has no rows to apply: a client unaware of the mark fails on `tables`.
        let file = new.path + SnapshotStore.changesSuffix
        let members = try #require(try JSONSerialization.jsonObject(
            with: Gzip.decompress(Data(contentsOf: URL(fileURLWithPath: file)), place: file)) as? [String: Any])
        #expect(Set(members.keys) == ["format", "format_version", "old", "new", "resync"])

        let full = try ChangeSet.between(old, new)
        let rows = full.tables.reduce(0) { $0 + $1.inserted.count + $1.updated.count + $1.deleted.count }
        #expect(rows > 3 && full.resync == nil)
        #expect(try ChangeSet.between(old, new, rowLimit: rows).json() == full.json())
        #expect(try ChangeSet.between(old, new, rowLimit: rows - 1).resync == "more than \(rows - 1) rows changed, more than a change file holds")

        let runId = try #require(try SnapshotReader.meta(of: old)["run_id"])
        let since = try await CommissaryProcess.run(["changes", "--since", runId, "--workspace", workspace.path, "--format", "json"])
        #expect(since.status == 8 && since.output.isEmpty, "\(since.error)")
        #expect(since.error.hasPrefix("resync: the change set to \(new.lastPathComponent) holds no rows (more than 3 rows changed")
                && since.error.split(separator: "\n").count == 1, "\(since.error)")

        let copy = try ChangeSetReplay.writableCopy(of: old)
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        let applied = try ExternalProgram.run(URL(fileURLWithPath: "/usr/bin/env"), [
            "python3", Paths.packageRoot.appendingPathComponent("scripts/apply-changes").path,
            new.path + SnapshotStore.changesSuffix, copy.path,
        ])
        #expect(applied.status == 1, "\(applied.output)")
        #expect(applied.output == "resync: more than 3 rows changed, more than a change file holds; download \(new.lastPathComponent) whole\n")
        #expect(try QueryResult.run("SELECT count(*) FROM menu_item", on: copy) == QueryResult.run("SELECT count(*) FROM menu_item", on: old))
    }
}
