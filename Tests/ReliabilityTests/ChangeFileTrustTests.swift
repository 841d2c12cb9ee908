import Basics
import Foundation
import GRDB
import Pipeline
import Snapshot
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A change file is data from elsewhere, read by the reference client (`scripts/apply-changes`)
/// and by `commissary changes --since`, which composes the files published beside snapshots.
/// Neither runs SQL a file carries, and every file that cannot be used, however it is wrong,
/// ends in one line naming it and a non-zero status: for the client, with its copy untouched.
@Suite struct ChangeFileTrustTests {
    /// One day of the sample site published twice (the second with `force`), so a change file
    /// lies beside the second snapshot; and what a crafted change set needs to fit the first.
    struct TwoNights {
        let folder: URL
        let old: URL
        let new: URL
        /// The `old` and `new` members of the real change file, as its lines give them.
        let sides: String
        /// The food table's columns in the snapshot, and one of its foods' id.
        let foodColumns: [String]
        let foodId: String

        var changeFile: URL { URL(fileURLWithPath: new.path + SnapshotStore.changesSuffix) }

        static func publish() async throws -> TwoNights {
            let folder = try Paths.temporaryFolder("trust")
            let pipeline = folder.appendingPathComponent("trust.yml")
            try Data("""
                pipeline: trust
                sources:
                  - name: ucla-menu
                    adapter: ucla-menu-site
                    location: \(Paths.sampleSite.path)
                    dates: {from: 2026-10-10, to: 2026-10-10}
                """.utf8).write(to: pipeline)
            let spec = try SpecReader.read(pipeline)
            let old = URL(fileURLWithPath: try #require(try await runPipeline(spec, workspace: folder).snapshotPath))
            let new = URL(fileURLWithPath: try #require(try await runPipeline(spec, workspace: folder, force: true).snapshotPath))
            let file = new.path + SnapshotStore.changesSuffix
            let text = String(decoding: try Gzip.decompress(Data(contentsOf: URL(fileURLWithPath: file)), place: file), as: UTF8.self)
            let sides = text.split(separator: "\n").filter { $0.hasPrefix("  \"old\": ") || $0.hasPrefix("  \"new\": ") }
            #expect(sides.count == 2)
            let columns = try QueryResult.run("SELECT name FROM pragma_table_info('food')", on: old).rows.map { try #require($0[0].text) }
            let food = try #require(try QueryResult.run("SELECT id FROM food ORDER BY id LIMIT 1", on: old).rows.first?[0].text)
            return TwoNights(folder: folder, old: old, new: new, sides: sides.joined(separator: "\n"), foodColumns: columns, foodId: food)
        }

        /// A change set from `old` to `new` (as the copy's `_meta` says) holding `tables` and
        /// `objects`, the members of those arrays as JSON text.
        func changeSet(tables: String, objects: String = "") -> String {
            "{\"format\": \"commissary-changes\", \"format_version\": 1,\n\(sides)\n  \"tables\": [\(tables)],\n  \"schema_objects\": [\(objects)]}\n"
        }

        /// The food table's entry with `updated`, `inserted` and `deleted` as given.
        func food(updated: String = "", inserted: String = "", deleted: String = "", columns: [String]? = nil) -> String {
            let names = (columns ?? foodColumns).map(jsonStringLiteral).joined(separator: ", ")
            return "{\"name\": \"food\", \"key\": [\"id\"], \"columns\": [\(names)], \"replaced\": false, \"dropped\": false, "
                + "\"inserted\": [\(inserted)], \"updated\": [\(updated)], \"deleted\": [\(deleted)]}"
        }

        /// The food's name changed to `value` (JSON text): what a valid file does.
        func rename(to value: String) -> String {
            food(updated: "{\"key\": [\(jsonStringLiteral(foodId))], \"changed\": {\"name\": \(value)}}")
        }
    }

    /// What a program wrote and how it ended.
    struct Outcome {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs `program` with `arguments` to its end. A reader that waits on a FIFO would never end
    /// by itself: past 20 seconds it is killed, and its status is then SIGKILL's, which no
    /// expectation here accepts. (SIGKILL, since a child of the test runner starts with SIGTERM
    /// blocked, and such a reader waited through it.)
    static func run(_ program: URL, _ arguments: [String], in folder: URL) async throws -> Outcome {
        let out = folder.appendingPathComponent("stdout-\(UUID().uuidString)")
        let err = folder.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try CommissaryProcess.launch(process)
        let watchdog = Task {
            try await Task.sleep(for: .seconds(20))
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        let status = try await CommissaryProcess.exit(of: process)
        watchdog.cancel()
        return Outcome(status: status, output: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                       error: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    static let script = Paths.packageRoot.appendingPathComponent("scripts/apply-changes")

    /// Python, as the tests that replay change sets run it, without writing bytecode beside the script.
    static func python(_ arguments: [String], in folder: URL) async throws -> Outcome {
        try await run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-B"] + arguments, in: folder)
    }

    /// The reference client applying `file` to `copy`.
    static func apply(_ file: URL, to copy: URL, in folder: URL) async throws -> Outcome {
        try await python([script.path, file.path, copy.path], in: folder)
    }

    /// A writable copy of a (read-only) published snapshot.
    static func writableCopy(of snapshot: URL, in folder: URL, named name: String) throws -> URL {
        let copy = folder.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: snapshot, to: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
        return copy
    }

    /// `outcome` is a refusal: status 1, nothing on standard output, one line on standard error
    /// that names `file` and says `what`.
    static func expectRefusal(_ outcome: Outcome, of file: URL, saying what: String, _ label: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.status == 1, "\(label): status \(outcome.status): \(outcome.error)", sourceLocation: sourceLocation)
        #expect(outcome.output.isEmpty, "\(label): \(outcome.output)", sourceLocation: sourceLocation)
        let lines = outcome.error.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "\(label): \(outcome.error)", sourceLocation: sourceLocation)
        let line = String(lines[0])
        #expect(line.hasPrefix("error: \(file.path): "), "\(label): \(line)", sourceLocation: sourceLocation)
        #expect(line.contains(what), "\(label): \(line)", sourceLocation: sourceLocation)
    }

    /// One malformed or hostile change file for the reference client.
    struct Hostile {
        var label: String
        var bytes: Data
        /// Words the one line must hold.
        var saying: String

        init(_ label: String, _ text: String, saying: String) {
            self.init(label, Data(text.utf8), saying: saying)
        }

        init(_ label: String, _ bytes: Data, saying: String) {
            self.label = label
            self.bytes = bytes
            self.saying = saying
        }
    }

    /// Every case here was applied, or ended in a Python traceback or a line naming only the
    /// copy, before the client checked what it reads: SQL from `schema_objects[].sql` ran
    /// (`DELETE FROM menu_item`, exit 0), `type` went into SQL as it was (`DROP TABLE menu_item
    /// --`), 1e400 was stored as infinity, `true` as 1, NaN as NULL, and five files gave a
    /// traceback. Now each is refused in one line naming the change file, and the copy is byte
    /// for byte as it was; the same template with a valid rename applies.
    @Test func theClientRefusesEveryHostileOrMalformedFileAndAppliesNothing() async throws {
        let nights = try await TwoNights.publish()
        defer { try? FileManager.default.removeItem(at: nights.folder) }
        let folder = nights.folder
        let copy = try Self.writableCopy(of: nights.old, in: folder, named: "copy.sqlite")
        let file = folder.appendingPathComponent("changes.json")
        let untouched = sha256Hex(try Data(contentsOf: copy))

        let rename = nights.rename(to: "\"Renamed\"")
        let view = "{\"type\": \"view\", \"name\": \"v_menu\", \"sql\": \"DELETE FROM menu_item\"}"
        let replacedTag = "{\"name\": \"tag\", \"key\": [\"name\"], \"columns\": [\"name\"], \"replaced\": true, \"dropped\": false, "
            + "\"create\": \"DELETE FROM menu_item\", \"inserted\": [], \"updated\": [], \"deleted\": []}"
        let row = "[\"test:new\"" + String(repeating: ", null", count: nights.foodColumns.count - 1) + "]"
        let shortRow = "[\"test:new\"" + String(repeating: ", null", count: nights.foodColumns.count - 2) + "]"
        var notUTF8 = Data(nights.changeSet(tables: rename).utf8)
        let badByte = try #require(notUTF8.firstRange(of: Data("Renamed".utf8))).lowerBound
        notUTF8[badByte] = 0xFF
        let cases = [
            Hostile("SQL in a schema object", nights.changeSet(tables: rename, objects: view),
                    saying: "view v_menu: not a definition this client knows"),
            Hostile("a clause in a schema object's type",
                    nights.changeSet(tables: rename, objects: "{\"type\": \"TABLE menu_item --\", \"name\": \"x\", \"sql\": null}"),
                    saying: "schema object x: TABLE menu_item -- is not a view or an index"),
            Hostile("a replaced table's create that deletes", nights.changeSet(tables: replacedTag),
                    saying: "table tag: create is not one CREATE TABLE of tag alone"),
            Hostile("not JSON", "{\"format\": ", saying: "not JSON: Expecting value"),
            Hostile("tables not an array", nights.changeSet(tables: "").replacingOccurrences(of: "\"tables\": []", with: "\"tables\": 5"),
                    saying: "tables is not an array"),
            Hostile("no old side", "{\"format\": \"commissary-changes\", \"format_version\": 1, \"tables\": []}",
                    saying: "old is missing or not an object"),
            Hostile("a schema object that is a number", nights.changeSet(tables: rename, objects: "5"),
                    saying: "a member of schema_objects is not an object"),
            Hostile("true as a value", nights.changeSet(tables: nights.rename(to: "true")),
                    saying: "table food: an update holds true, not a value of SQLite's"),
            Hostile("an object as a value", nights.changeSet(tables: nights.rename(to: "{\"a\": 1}")),
                    saying: "table food: an update holds {\"a\": 1}, not a value of SQLite's"),
            Hostile("an unknown table", nights.changeSet(tables: rename.replacingOccurrences(of: "\"name\": \"food\"", with: "\"name\": \"fodo\"")),
                    saying: "table fodo is not a table of the copy"),
            Hostile("an unknown column",
                    nights.changeSet(tables: nights.food(inserted: row, columns: nights.foodColumns.dropLast() + ["nope"])),
                    saying: "table food: columns"),
            Hostile("an update of an unknown column",
                    nights.changeSet(tables: nights.food(updated: "{\"key\": [\(jsonStringLiteral(nights.foodId))], \"changed\": {\"nope\": 1}}")),
                    saying: "table food: an update changes nope, not one of its columns outside the key"),
            Hostile("a key of two values for a key of one",
                    nights.changeSet(tables: nights.food(updated: "{\"key\": [\(jsonStringLiteral(nights.foodId)), 2], \"changed\": {\"name\": \"x\"}}")),
                    saying: "table food: an updated row's key is not an array of 1 value(s)"),
            Hostile("a deleted key of two values", nights.changeSet(tables: nights.food(deleted: "[\"a\", \"b\"]")),
                    saying: "table food: a deleted row's key is not an array of 1 value(s)"),
            Hostile("a short row", nights.changeSet(tables: nights.food(inserted: shortRow)),
                    saying: "table food: an inserted row is not an array of \(nights.foodColumns.count) value(s)"),
            Hostile("1e400", nights.changeSet(tables: nights.rename(to: "1e400")), saying: "the number 1e400 is not finite"),
            Hostile("NaN", nights.changeSet(tables: nights.rename(to: "NaN")), saying: "NaN is not a JSON number"),
            Hostile("an integer past 64 bits", nights.changeSet(tables: nights.rename(to: "99999999999999999999999")),
                    saying: "the integer 99999999999999999999999 is out of SQLite's range"),
            Hostile("a lone surrogate", nights.changeSet(tables: nights.rename(to: "\"\\ud800\"")),
                    saying: "table food: an update holds a lone surrogate, not text"),
            Hostile("invalid UTF-8", notUTF8, saying: "not UTF-8 at byte \(badByte)"),
        ]
        for hostile in cases {
            try hostile.bytes.write(to: file)
            let outcome = try await Self.apply(file, to: copy, in: folder)
            Self.expectRefusal(outcome, of: file, saying: hostile.saying, hostile.label)
            #expect(!outcome.error.contains("Traceback"), "\(hostile.label)")
            #expect(sha256Hex(try Data(contentsOf: copy)) == untouched, "\(hostile.label): the copy changed")
        }

        // A folder or a FIFO in place of the file is named, not read, and never waited on.
        let folderInPlace = folder.appendingPathComponent("folder.json")
        try FileManager.default.createDirectory(at: folderInPlace, withIntermediateDirectories: false)
        Self.expectRefusal(try await Self.apply(folderInPlace, to: copy, in: folder), of: folderInPlace,
                           saying: "is a folder, not a change file", "a folder")
        let fifo = folder.appendingPathComponent("fifo.json")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        Self.expectRefusal(try await Self.apply(fifo, to: copy, in: folder), of: fifo, saying: "is a FIFO, not a change file", "a FIFO")
        #expect(sha256Hex(try Data(contentsOf: copy)) == untouched)

        // The same template with a valid rename applies.
        try Data(nights.changeSet(tables: rename).utf8).write(to: file)
        let applied = try await Self.apply(file, to: copy, in: folder)
        #expect(applied.status == 0 && applied.error.isEmpty, "\(applied.error)")
        let renamed = try QueryResult.run("SELECT name FROM food WHERE id = '\(nights.foodId)'", on: copy).rows
        #expect(renamed == [[.text("Renamed")]])
    }

    /// A view that differs between two snapshots is made from the client's own definition, the
    /// same as the new snapshot's, and the replay holds the new snapshot's view; a file that
    /// gives that view another definition, however harmless, is refused and the copy keeps its own.
    @Test func theClientMakesViewsFromItsOwnDefinitions() async throws {
        let nights = try await TwoNights.publish()
        defer { try? FileManager.default.removeItem(at: nights.folder) }
        let folder = nights.folder
        let old = try Self.writableCopy(of: nights.old, in: folder, named: "old.sqlite")
        let edited = try DatabaseQueue(path: old.path)
        try edited.inDatabase { db in try db.execute(sql: "DROP VIEW v_menu; CREATE VIEW v_menu AS SELECT 1 AS x") }
        try edited.close()
        let changes = try ChangeSet.between(old, nights.new)
        #expect(changes.schemaObjects.map(\.name) == ["v_menu"])
        let file = folder.appendingPathComponent("changes.json")
        try Data(changes.json().utf8).write(to: file)
        let view = "SELECT sql FROM sqlite_master WHERE name = 'v_menu'"

        let copy = try Self.writableCopy(of: old, in: folder, named: "copy.sqlite")
        let applied = try await Self.apply(file, to: copy, in: folder)
        #expect(applied.status == 0 && applied.error.isEmpty, "\(applied.error)")
        #expect(try QueryResult.run(view, on: copy) == QueryResult.run(view, on: nights.new))

        let other = try Self.writableCopy(of: old, in: folder, named: "other.sqlite")
        let definition = try #require(changes.schemaObjects.first?.sql)
        try Data(changes.json().replacingOccurrences(of: jsonStringLiteral(definition),
                                                     with: jsonStringLiteral("CREATE VIEW v_menu AS SELECT 2 AS x")).utf8).write(to: file)
        Self.expectRefusal(try await Self.apply(file, to: other, in: folder), of: file,
                           saying: "view v_menu: not a definition this client knows", "another definition")
        #expect(try QueryResult.run(view, on: other).rows == [[.text("CREATE VIEW v_menu AS SELECT 1 AS x")]])
    }

    /// The client's own list of views and indexes is a new snapshot's, definition for
    /// definition: a migration that adds or changes one fails here until the script knows it.
    @Test func theClientKnowsEveryViewAndIndexOfANewSnapshot() async throws {
        let nights = try await TwoNights.publish()
        defer { try? FileManager.default.removeItem(at: nights.folder) }
        let listing = try await Self.python(["-c", """
            import importlib.machinery, importlib.util, json, sys
            loader = importlib.machinery.SourceFileLoader("apply_changes", sys.argv[1])
            module = importlib.util.module_from_spec(importlib.util.spec_from_loader("apply_changes", loader))
            loader.exec_module(module)
            print(json.dumps(sorted([kind, name, sql] for (kind, name), sql in module.SCHEMA_OBJECTS.items())))
            """, Self.script.path], in: nights.folder)
        #expect(listing.status == 0, "\(listing.error)")
        let known = try #require(try JSONSerialization.jsonObject(with: Data(listing.output.utf8)) as? [[String]])
        let snapshot = try QueryResult.run("""
            SELECT type, name, sql FROM sqlite_master WHERE type IN ('view', 'index', 'trigger') AND sql IS NOT NULL
            ORDER BY type, name
            """, on: nights.new).rows.map { row in row.map { $0.text ?? "" } }
        #expect(known == snapshot)
        #expect(known.count > 20)
    }

    /// `changes --since` checks every change file it composes before it answers 0: tables,
    /// columns and keys must be the latest snapshot's and every row as wide as its key or its
    /// columns, the text UTF-8. Before, each of these files was composed and printed with
    /// status 0 (a short row, a key of two values, a misspelt table or column, bytes that are not
    /// UTF-8 mended into U+FFFD); a folder in the file's place was status 4 and a FIFO held the
    /// command for ever. Now each is one line naming the file, status 1, nothing printed.
    @Test func changesSinceRefusesAFileThatDoesNotFitTheSnapshot() async throws {
        let nights = try await TwoNights.publish()
        defer { try? FileManager.default.removeItem(at: nights.folder) }
        let runId = try #require(try SnapshotReader.meta(of: nights.old)["run_id"])
        let newRunId = try #require(try SnapshotReader.meta(of: nights.new)["run_id"])
        let file = nights.changeFile
        let real = try Gzip.decompress(Data(contentsOf: file), place: file.path)
        let text = String(decoding: real, as: UTF8.self)
        func changesSince() async throws -> Outcome {
            try await Self.run(CommissaryProcess.binary, ["changes", "--since", runId, "--workspace", nights.folder.path,
                                                          "--format", "json"], in: nights.folder)
        }
        func replace(with bytes: Data) throws {
            try? FileManager.default.removeItem(at: file)
            try Gzip.compress(bytes, place: file.path).write(to: file)
        }

        let valid = try await changesSince()
        #expect(valid.status == 0 && valid.output.contains("\"_runs\""), "\(valid.error)")

        // In a check's message, which the reader would have mended into U+FFFD.
        var notUTF8 = real
        let badByte = try #require(real.firstRange(of: Data("every partition was fetched".utf8))).lowerBound
        notUTF8[badByte] = 0xFF
        let cases: [(label: String, bytes: Data, saying: String)] = [
            ("an unknown table", Data(text.replacingOccurrences(of: "\"name\": \"_runs\"", with: "\"name\": \"_runz\"").utf8),
             "table _runz is not a table of \(nights.new.lastPathComponent)"),
            ("an unknown column", Data(text.replacingOccurrences(of: "[\"run_id\", \"pipeline\",", with: "[\"run_id\", \"pipelinez\",").utf8),
             "table _runs has columns run_id, pipelinez,"),
            ("another key", Data(text.replacingOccurrences(of: "\"key\": [\"run_id\"]", with: "\"key\": [\"pipeline\"]").utf8),
             "table _runs is keyed by [pipeline] where \(nights.new.lastPathComponent) keys it by [run_id]"),
            ("a key of two values", Data(text.replacingOccurrences(of: "[\"\(runId)\"]", with: "[\"\(runId)\", 2]").utf8),
             "not a change set: table _runs: a deleted row's key holds 2 value(s), not 1"),
            ("a short row", Data(text.replacingOccurrences(of: "[\"\(newRunId)\", \"trust\", ", with: "[\"trust\", ").utf8),
             "not a change set: table _runs: an inserted row holds 5 value(s), not 6"),
            ("invalid UTF-8", notUTF8, "not UTF-8 at byte \(badByte)"),
        ]
        for (label, bytes, saying) in cases {
            #expect(bytes != real, "\(label): the edit found nothing to change")
            try replace(with: bytes)
            Self.expectRefusal(try await changesSince(), of: file, saying: saying, label)
        }

        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        Self.expectRefusal(try await changesSince(), of: file, saying: "the change file is a folder, not a regular file", "a folder")
        try FileManager.default.removeItem(at: file)
        #expect(mkfifo(file.path, 0o644) == 0)
        Self.expectRefusal(try await changesSince(), of: file, saying: "the change file is a FIFO, not a regular file", "a FIFO")
    }
}

private extension SQLValue {
    var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}
