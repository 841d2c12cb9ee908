import Basics
import Foundation
import GRDB
import Snapshot
import Testing
import TestSupport

/// Input built to hurt (issue 52): names far longer than any real one, JSON nested thousands
/// deep, markup in a snapshot's values. Each is one clear line or a page that shows it as text,
/// against the real binary.
@Suite struct HostileTextTests {
    /// The sample's three days read from `site`, with no recipe pages or hours.
    private func pipeline(in folder: URL, site: URL = Paths.sampleSite) throws -> URL {
        let file = folder.appendingPathComponent("hostile.yml")
        try Data("""
            pipeline: hostile
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: \(site.path)
                dates: {from: 2026-10-10, to: 2026-10-12}
            """.utf8).write(to: file)
        return file
    }

    /// A copy of `snapshot` that the test may change.
    private func writableCopy(of snapshot: URL, in folder: URL) throws -> URL {
        let copy = folder.appendingPathComponent("crafted.sqlite")
        try FileManager.default.copyItem(at: snapshot, to: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
        return copy
    }

    private func publish(_ pipeline: URL, workspace: URL) async throws -> URL {
        let run = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", workspace.path, "--quiet",
                                                   "--force"])
        #expect(run.status == 0, "\(run.error)")
        let store = SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))
        return try #require(store.latest(pipeline: "hostile"))
    }

    /// `[` 20,000 times, then `]` as many: a JSON value nested 20,000 deep.
    private static let nested = Data((String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000)).utf8)

    /// A change file nested 20,000 deep beside `latest`: `changes --since` ran the reader out of
    /// stack (SIGSEGV, exit 139, nothing printed). Now it is one line naming the file and the
    /// byte where the 513th level opens (offset 512, counted from 0).
    @Test func aChangeFileNestedTwentyThousandDeepIsOneLine() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = try pipeline(in: folder)
        let first = try await publish(pipeline, workspace: folder)
        let latest = try await publish(pipeline, workspace: folder)
        let changes = URL(fileURLWithPath: latest.path + SnapshotStore.changesSuffix)
        #expect(FileManager.default.fileExists(atPath: changes.path), "the second run writes the change file")
        try FileManager.default.removeItem(at: changes)
        try Gzip.compress(Self.nested, place: changes.path).write(to: changes)

        let runId = try #require(try SnapshotReader.meta(of: first)["run_id"])
        let since = try await CommissaryProcess.run(["changes", "--since", runId, "--workspace", folder.path])
        #expect(since.status == 1, "\(since.status): \(since.error)")
        let lines = since.error.split(separator: "\n")
        #expect(lines == ["error: \(changes.path): not JSON: arrays and objects nested deeper than 512 at byte 512"],
                "\(since.error)")
    }

    /// A source's document nested 20,000 deep (a Nutrislice week, a UCLA dataset day, a Jamix
    /// recipe, a TheMealDB dump) is refused in one line that says so, by each reader; Foundation
    /// refused them as "not valid JSON (truncated or malformed)", which sent a reader looking for
    /// a cut download.
    @Test(arguments: [["nutrislice"], ["bonappetit"], ["dineoncampus"], ["mealdb-dump"],
                      ["ucla-jamix", "--page", "recipe", "--recipe-id", "R123"],
                      ["ucla-jamix", "--page", "menus", "--date", "2026-10-10"],
                      ["ucla-dataset", "--date", "2026-10-10"]])
    func aSourceDocumentNestedTwentyThousandDeepIsOneClearLine(adapter: [String]) async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("deep.json")
        try Self.nested.write(to: document)
        let parse = try await CommissaryProcess.run(["parse", "--adapter"] + adapter + [document.path])
        #expect(parse.status == 1, "\(adapter): \(parse.status) \(parse.error)")
        #expect(parse.error.split(separator: "\n") == [
            "error: \(document.absoluteString): arrays and objects nested deeper than 512 at byte 512: no real "
                + "document nests so deep",
        ], "\(adapter): \(parse.error)")
    }

    /// `_checks.severity` went into a `class` attribute as it was: a crafted snapshot put a
    /// `<script>` on the page `commissary report` writes. Every value is escaped now.
    @Test func aSeverityCannotInjectMarkupIntoTheReport() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let crafted = try writableCopy(of: try await publish(try pipeline(in: folder), workspace: folder), in: folder)
        let severity = "\"><script>alert(1)</script>"
        // The table's CHECK allows four severities; whoever crafts a file turns it off.
        try await DatabaseQueue(path: crafted.path).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "UPDATE _checks SET severity = ?, passed = 0 WHERE rowid = (SELECT min(rowid) FROM _checks)",
                           arguments: [severity])
        }
        let report = try await CommissaryProcess.run(["report", crafted.path])
        #expect(report.status == 0, "\(report.error)")
        #expect(!report.output.contains("<script"))
        #expect(report.output.contains("<span class=\"badge &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\">"))
    }

    /// A restaurant named with 200,000 characters: fitting its label measured every shorter
    /// beginning whole (minutes for 60,000); the page is written now, the label cut to the room
    /// and the whole name kept in its tooltip. Bounded so that the quadratic fitting fails it.
    @Test(.timeLimit(.minutes(2))) func aReportOfAHugeNameIsWritten() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let crafted = try writableCopy(of: try await publish(try pipeline(in: folder), workspace: folder), in: folder)
        let name = String(repeating: "café ", count: 40_000)
        try await DatabaseQueue(path: crafted.path).write { db in
            try db.execute(sql: "UPDATE restaurant SET name = ? WHERE name = 'Covel'", arguments: [name])
        }
        let report = try await CommissaryProcess.run(["report", crafted.path])
        #expect(report.status == 0, "\(report.error)")
        #expect(report.output.contains("<title>\(name)</title>"))
    }

    /// A café whose name is "Café " and 3,000 more é, each written as e and a combining acute
    /// (two scalars, one character): stored cut to 1,000 characters, "Café " (5), 994 é and the
    /// ellipsis, never between an e and its accent; said once for the run, though the name is
    /// cut in each of the 7 meals that print it (2 on 2026-10-10, 2 on 10-11, 3 on 10-12).
    @Test func aNameLongerThanAnyRealOneIsStoredShortAndReportedOnce() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        try FileManager.default.copyItem(at: Paths.sampleSite, to: site)
        let long = "Café " + String(repeating: "e\u{301}", count: 3_000)
        for day in ["2026-10-10", "2026-10-11", "2026-10-12"] {
            let page = site.appendingPathComponent("Menus/\(day).html")
            let text = try String(contentsOf: page, encoding: .utf8)
            try Data(text.replacingOccurrences(of: "<h3 class=\"col-header\">Covel</h3>",
                                               with: "<h3 class=\"col-header\">\(long)</h3>").utf8).write(to: page)
        }
        let pipeline = try pipeline(in: folder, site: site)
        let run = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path,
                                                   "--log-format", "json"])
        #expect(run.status == 0, "\(run.error)")
        let snapshot = try #require(SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
            .latest(pipeline: "hostile"))

        let names = try SnapshotReader.read(snapshot) { db in
            try String.fetchAll(db, sql: "SELECT name FROM restaurant WHERE name LIKE 'Caf%' ORDER BY name")
        }
        let expected = "Café " + String(repeating: "é", count: 994) + "…"
        #expect(names == [expected])
        #expect(names.first?.count == 1_000)
        // "Café " 5 scalars, each é two (e and its accent), the ellipsis one.
        let scalars: Int = 5 + 994 * 2 + 1
        #expect(names.first?.unicodeScalars.count == scalars, "each é kept as printed, e and its accent")

        let warning = "7 name(s) longer than 1000 characters, more than any menu prints, stored cut to 1000 with an "
            + "ellipsis; the first, from ucla-menu/2026-10-10, begins \"Café " + String(repeating: "é", count: 55) + "\""
        let checks = try SnapshotReader.read(snapshot) { db in
            try String.fetchAll(db, sql: "SELECT message FROM _checks WHERE message LIKE '%longer than 1000 characters%'")
        }
        #expect(checks == [warning])
        #expect(run.error.split(separator: "\n").filter { $0.contains("longer than 1000 characters") }.count == 1,
                "one event: \(run.error.suffix(2000))")
    }

    /// A snapshot a hand or a disk altered: a weekday of -8 made `watch` index out of its week
    /// (a trap, exit 132), an infinite calorie count made `report` convert infinity to an Int (a
    /// trap), and a date of `../../escaped` made `feeds` write a file outside its folder. Each
    /// now answers: the weekday read from the date (2026-10-12 is a Monday), the page written,
    /// the day that is no day left out of the feeds; `diff --format json` failed on the infinite
    /// number with the encoder's words, and now writes it as `null`, as the change file does.
    @Test func aDamagedRowIsNoTrapAndWritesNothingOutside() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let published = try await publish(try pipeline(in: folder), workspace: folder)
        let crafted = try writableCopy(of: published, in: folder)
        try await DatabaseQueue(path: crafted.path).write { db in
            try db.execute(sql: "UPDATE service_day SET weekday = -8")
            try db.execute(sql: "UPDATE food SET calories = 9e999 WHERE rowid = (SELECT min(rowid) FROM food)")
            try db.execute(sql: "UPDATE service_day SET date = '../../escaped' WHERE date = '2026-10-10'")
        }
        let watchFile = folder.appendingPathComponent("watch.yml")
        try Data("watch:\n  - item: \"*\"\n".utf8).write(to: watchFile)
        let watch = try await CommissaryProcess.run(["watch", watchFile.path, "--snapshot", crafted.path,
                                                     "--today", "2026-10-11"])
        #expect(watch.status == 0, "\(watch.status): \(watch.error)")
        #expect(watch.output.contains("2026-10-12 Mon "), "\(watch.output)")

        let report = try await CommissaryProcess.run(["report", crafted.path])
        #expect(report.status == 0, "\(report.status): \(report.error)")
        #expect(report.output.hasPrefix("<!DOCTYPE html>") || report.output.hasPrefix("<!doctype html>"))

        let out = folder.appendingPathComponent("deep/feeds")
        try FileManager.default.createDirectory(at: out.deletingLastPathComponent(), withIntermediateDirectories: true)
        let feeds = try await CommissaryProcess.run(["feeds", crafted.path, "--out", out.path])
        #expect(feeds.status == 0, "\(feeds.status): \(feeds.error)")
        let written = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        #expect(!written.contains { $0.contains("escaped") }, "\(written.filter { $0.contains("escaped") })")

        let diff = try await CommissaryProcess.run(["diff", published.path, crafted.path, "--format", "json"])
        #expect(diff.status == 0, "\(diff.status): \(diff.error)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(diff.output.utf8)) as? [String: Any])
        let changes = (answer["foods_changed"] as? [[String: Any]] ?? []).flatMap { $0["changes"] as? [[String: Any]] ?? [] }
        let calories = try #require(changes.first { $0["field"] as? String == "calories" }, "\(diff.output.prefix(2000))")
        #expect(calories["new"] is NSNull && calories["old"] is NSNumber, "\(calories)")
    }

    /// A value holding a carriage return or an escape sequence is shown escaped in `query`'s
    /// table, as everywhere a terminal reads: it went to the terminal as it was, moving the
    /// cursor back over the row (CR) or clearing the screen (ESC [2J).
    @Test func aQueryTableShowsControlCharactersEscaped() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let snapshot = try await publish(try pipeline(in: folder), workspace: folder)
        let query = try await CommissaryProcess.run(["query", snapshot.path, "SELECT 'a' || char(13) || 'b' AS x, char(27) || '[2J' AS y"])
        #expect(query.status == 0, "\(query.error)")
        #expect(!query.output.contains("\r") && !query.output.contains("\u{1B}"), "\(query.output.debugDescription)")
        #expect(query.output.contains("a\\rb") && query.output.contains("\\x1b[2J"), "\(query.output)")
    }

    /// `changes --since` with a day that does not exist, a day written short, or nothing, is a
    /// usage error (status 64, with the usage), not a resync (status 8) that tells a client to
    /// download everything again; a run id that is merely unknown is still a resync.
    @Test func aMistypedSincePointIsAnErrorNotAResync() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = try pipeline(in: folder)
        _ = try await publish(pipeline, workspace: folder)
        _ = try await publish(pipeline, workspace: folder)
        for since in ["2026-02-30", "2026-1-1", "", "run id"] {
            let answer = try await CommissaryProcess.run(["changes", "--since", since, "--workspace", folder.path])
            #expect(answer.status == 64, "\(since.debugDescription): \(answer.status) \(answer.error)")
            #expect(answer.error.contains("--since") && answer.error.contains("YYYY-MM-DD"), "\(answer.error)")
        }
        let unknown = try await CommissaryProcess.run(["changes", "--since", "zzz", "--workspace", folder.path])
        #expect(unknown.status == 8, "\(unknown.status): \(unknown.error)")
    }

    /// An empty file and a folder given as a snapshot are said to be what they are, in one line:
    /// they were "damaged: check it with `commissary check`" (said by `check` itself) and a
    /// "disk I/O error", which reads as the machine's fault.
    @Test func aFileThatIsNoSnapshotIsSaidPlainly() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.sqlite")
        try Data().write(to: empty)
        let notAFile = folder.appendingPathComponent("folder.sqlite")
        try FileManager.default.createDirectory(at: notAFile, withIntermediateDirectories: false)
        for command in ["check", "report"] {
            let onEmpty = try await CommissaryProcess.run([command, empty.path])
            #expect(onEmpty.status == 1, "\(command): \(onEmpty.error)")
            #expect(onEmpty.error.split(separator: "\n").count == 1 && onEmpty.error.contains("is no snapshot Commissary published"),
                    "\(command): \(onEmpty.error)")
            let onFolder = try await CommissaryProcess.run([command, notAFile.path])
            #expect(onFolder.status == 1, "\(command): \(onFolder.error)")
            #expect(onFolder.error == "error: \(notAFile.path): is a folder, not a snapshot file: give a .sqlite file, latest or "
                    + "latest-<pipeline>\n", "\(command): \(onFolder.error)")
        }
    }

    /// `snapshots` shows each snapshot on one line whatever its metadata holds: a `built_at`
    /// written with a line break and an escape sequence split the table and acted on the terminal.
    @Test func theSnapshotsTableKeepsEachSnapshotOnOneLine() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let snapshot = try await publish(try pipeline(in: folder), workspace: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: snapshot.path)
        try await DatabaseQueue(path: snapshot.path).write { db in
            try db.execute(sql: "UPDATE _meta SET value = ? WHERE key = 'built_at'",
                           arguments: ["2026-10-12\u{1B}[2J\nerror: forged"])
        }
        let listing = try await CommissaryProcess.run(["snapshots", "--workspace", folder.path])
        #expect(listing.status == 0, "\(listing.error)")
        #expect(!listing.output.contains("\u{1B}") && !listing.output.contains("\nerror: forged"), "\(listing.output)")
        #expect(listing.output.contains("2026-10-12\\x1b[2J\\nerror: forged"), "\(listing.output)")
    }
}
