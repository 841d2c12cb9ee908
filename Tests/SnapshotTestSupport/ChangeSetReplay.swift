import Foundation
import Snapshot
import Testing
import TestSupport

/// Replays a change set as an app would: the JSON of `ChangeSet.between(old, new)` (or a change
/// file) applied by the reference client (`scripts/apply-changes`, Python's own sqlite3) to a
/// writable copy of `old`, then every table of the copy compared with `new`, row for row.
public enum ChangeSetReplay {
    /// Applies and compares; returns the change set for the caller's own expectations.
    @discardableResult
    public static func expectReplayGivesTheNew(old: URL, new: URL, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> ChangeSet {
        let changes = try ChangeSet.between(old, new)
        let folder = try Paths.temporaryFolder("replay")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("changes.json")
        try Data(changes.json().utf8).write(to: file)
        try await expectReplay(of: file, onto: old, gives: new, sourceLocation: sourceLocation)
        return changes
    }

    /// `changes` (a change set's JSON, gzipped or not) applied by the reference client to a copy
    /// of `old` gives `new`, table by table.
    public static func expectReplay(of changes: URL, onto old: URL, gives new: URL, sourceLocation: SourceLocation = #_sourceLocation)
        async throws {
        let copy = try writableCopy(of: old)
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        let status = try await run(["python3", Paths.packageRoot.appendingPathComponent("scripts/apply-changes").path,
                                    changes.path, copy.path])
        #expect(status == 0, "apply-changes failed", sourceLocation: sourceLocation)
        try expectSame(copy, as: new, sourceLocation: sourceLocation)
    }

    /// A copy of a (read-only) published snapshot that a client may write, in a folder of its own.
    public static func writableCopy(of snapshot: URL) throws -> URL {
        let copy = try Paths.temporaryFolder("replay").appendingPathComponent("copy.sqlite")
        try FileManager.default.copyItem(at: snapshot, to: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
        return copy
    }

    /// Every table of `copy` holds what `new`'s does, with the same schema; its search answers alike.
    public static func expectSame(_ copy: URL, as new: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        func everything(_ url: URL) throws -> [String: QueryResult] {
            var tables: [String: QueryResult] = [:]
            let names = try QueryResult.run("SELECT table_name FROM _table_keys", on: url).rows.compactMap { row -> String? in
                if case .text(let name) = row[0] { return name }
                return nil
            }
            for name in names {
                let columns = try QueryResult.run("SELECT count(*) FROM pragma_table_info('\(name)')", on: url).rows
                guard case .integer(let count) = columns.first?.first else { continue }
                let order = (1...max(1, Int(count))).map(String.init).joined(separator: ", ")
                tables[name] = try QueryResult.run("SELECT * FROM \"\(name)\" ORDER BY \(order)", on: url)
            }
            tables["user_version"] = try QueryResult.run("PRAGMA user_version", on: url)
            tables["schema"] = try QueryResult.run("""
                SELECT type, name, sql FROM sqlite_master WHERE type IN ('view', 'index', 'trigger') ORDER BY name
                """, on: url)
            return tables
        }
        let replayed = try everything(copy)
        let expected = try everything(new)
        #expect(replayed.keys.sorted() == expected.keys.sorted(), sourceLocation: sourceLocation)
        for (name, rows) in expected.sorted(by: { $0.key < $1.key }) {
            let same = replayed[name] == rows
            #expect(same, "table \(name) differs after the replay", sourceLocation: sourceLocation)
        }
        // The search index, rebuilt by the client, answers as the new snapshot's does.
        let search = "SELECT f.id FROM food_fts JOIN food f ON f.rowid = food_fts.rowid WHERE food_fts MATCH 'chicken OR yogurt' ORDER BY 1"
        let found = try QueryResult.run(search, on: copy) == QueryResult.run(search, on: new)
        #expect(found, "the search answers differently after the replay", sourceLocation: sourceLocation)
    }

    private static func run(_ arguments: [String]) async throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        try CommissaryProcess.launch(process)
        return try await CommissaryProcess.exit(of: process)
    }
}
