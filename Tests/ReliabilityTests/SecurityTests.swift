import Basics
import Fetching
import FoodModel
import Foundation
import HTML
import Logging
import Pipeline
import Snapshot
import SourceAdapters
import Testing
import TestSupport
import YAMLConfig

/// Hostile input: entity bombs, compression bombs, paths that climb out of their folders, SQL
/// that tries to write. TLS verification is tested with an untrusted certificate in
/// `FetchingTests` (`HTTPSourceTests`: a clear `.tlsVerification` error).
@Suite struct SecurityTests {
    /// "Billion laughs": ten levels of ten entity references. libxml2's HTML parser reads no
    /// internal DTD subset and `HTML_PARSE_HUGE` is off, so the page parses quickly and nothing
    /// is expanded.
    @Test func anEntityExpansionBombIsHarmless() throws {
        var doctype = "<!DOCTYPE html [\n<!ENTITY lol0 \"lol\">\n"
        for level in 1...10 {
            doctype += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">\n"
        }
        doctype += "]>\n"
        let page = Data((doctype + """
            <html><body><div class="recipecontainer"><h2>Bomb &lol10;</h2></div></body></html>
            """).utf8)
        let clock = ContinuousClock()
        let started = clock.now
        let food = try UCLAMenuSite.parseRecipe(page, url: "https://bomb.example/Recipes/1", charset: nil,
                                                recipeId: "1")
        #expect(clock.now - started < .seconds(2))
        #expect(food.name.count < 100, "expanded to \(food.name.count) characters")
        #expect(!food.name.contains("lollol"))
    }

    /// Nesting far past libxml2's default depth limit (which stays on without `HTML_PARSE_HUGE`)
    /// is cut, not followed into a stack overflow.
    @Test func deeplyNestedMarkupIsCutQuickly() throws {
        let depth = 200_000
        let page = Data((String(repeating: "<div>", count: depth) + "x" + String(repeating: "</div>", count: depth)).utf8)
        let clock = ContinuousClock()
        let started = clock.now
        #expect(throws: Failure.self) {
            _ = try UCLAMenuSite.parseOverview(page, url: "https://deep.example/Menus/2026-10-10", charset: nil)
        }
        #expect(clock.now - started < .seconds(5))
    }

    /// A small gzip body that inflates to 40 MB is cut at the size cap, which counts decoded bytes.
    @Test func aCompressionBombIsCutAtTheCap() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("zeros")
        try Data(count: 40_000_000).write(to: plain)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gzip.arguments = ["gzip", "-9", plain.path]
        try gzip.runWithSignalsUnblocked()
        gzip.waitUntilExit()
        let bomb = try Data(contentsOf: folder.appendingPathComponent("zeros.gz"))
        #expect(bomb.count < 100_000)
        let server = try TestHTTPServer { _, _ in
            Reply(headers: [("Content-Encoding", "gzip"), ("Content-Type", "text/html")], body: bomb)
        }
        defer { server.stop() }
        let source = HTTPSource(policy: HTTPPolicy(totalTimeout: .seconds(10), maxBodyBytes: 1_000_000, maxAttempts: 1,
                                                   minDelayPerHost: .zero), logger: Logger(label: "security", factory: { _ in SwiftLogNoOpLogHandler() }))
        let error = await #expect(throws: Failure.self) { try await source.fetch(server.url("/bomb")) }
        #expect(error?.code == .tooLarge)
    }

    /// A menu page from a folder whose recipe link climbs out of `/Recipes/`: the link is refused
    /// (the day fails with an error naming the page) and no file outside the site is read.
    @Test func aRecipeLinkThatClimbsOutIsRefused() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site.appendingPathComponent("Menus"), withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: folder.appendingPathComponent("x.html"))
        let page = try #require(SampleSite.page("/Menus/2026-10-10"))
        let hostile = String(decoding: page, as: UTF8.self)
            .replacingOccurrences(of: "/Recipes/211045/1", with: "/Recipes/../../x")
        #expect(hostile != String(decoding: page, as: UTF8.self))
        try Data(hostile.utf8).write(to: site.appendingPathComponent("Menus/2026-10-10.html"))
        let pipeline = folder.appendingPathComponent("climb.yml")
        try Data("""
            pipeline: climb
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: site
                dates: {from: 2026-10-10, to: 2026-10-10}
                hours: false
            """.utf8).write(to: pipeline)
        let report = try await runPipeline(try SpecReader.read(pipeline), workspace: folder)
        #expect(!report.published)
        let failure = report.manifest.partitions.first { $0.key == "2026-10-10" }
        #expect(failure?.status == .failed)
        #expect(failure?.message?.contains("Menus/2026-10-10") == true, "\(failure?.message ?? "")")
        #expect(!report.manifest.inputs.contains { $0.url.hasSuffix("/x") || $0.url.contains("..") })
        // Also encoded, and from the overview parser directly.
        for link in ["/Recipes/../../x", "/Recipes/%2E%2E/x", "/Recipes/211045/../../x"] {
            let variant = String(decoding: page, as: UTF8.self).replacingOccurrences(of: "/Recipes/211045/1", with: link)
            #expect(throws: Failure.self, "\(link)") {
                _ = try UCLAMenuSite.parseOverview(Data(variant.utf8), url: "https://x.example/Menus/2026-10-10",
                                                   charset: nil)
            }
        }
    }

    /// A pipeline name names snapshot files: one with `..` or `/` is refused where it is written.
    @Test func aPipelineNameCannotNameAPathOutsideTheSnapshots() throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("evil.yml")
        for name in ["../../etc/evil", "a/b", ".hidden", "Evil"] {
            try Data("pipeline: \"\(name)\"\nsources: []\n".utf8).write(to: file)
            let error = #expect(throws: Failure.self) { try SpecReader.read(file) }
            #expect(error?.place?.key == "pipeline")
            #expect(error?.place?.line == 1)
        }
    }

    /// `query` opens snapshots read-only and immutable and refuses statements that write: the
    /// file stays byte for byte what was published, and no new file appears.
    @Test func queryCannotWriteAnything() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = folder.appendingPathComponent("ro.yml")
        try Data("""
            pipeline: ro
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: \(Paths.sampleSite.path)
                dates: {from: 2026-10-10, to: 2026-10-10}
            """.utf8).write(to: pipeline)
        let report = try await runPipeline(try SpecReader.read(pipeline), workspace: folder)
        let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))
        let bytes = sha256Hex(try Data(contentsOf: snapshot))
        let outside = folder.appendingPathComponent("copy.sqlite")
        let statements = [
            "DELETE FROM menu_item", "DROP TABLE food", "UPDATE food SET name = 'x'",
            "INSERT INTO tag (name) VALUES ('x')", "CREATE TABLE t (x)", "PRAGMA user_version = 99",
            "VACUUM INTO '\(outside.path)'", "ATTACH DATABASE '\(outside.path)' AS other",
            "ATTACH DATABASE 'file:\(outside.path)?mode=rwc' AS other", "SELECT 1; DELETE FROM menu_item",
        ]
        for sql in statements {
            #expect(throws: (any Error).self, "\(sql)") { _ = try QueryResult.run(sql, on: snapshot) }
        }
        #expect(sha256Hex(try Data(contentsOf: snapshot)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: outside.path))
        #expect(try QueryResult.run("SELECT count(*) FROM menu_item", on: snapshot).rows == [[.integer(37)]])
    }

    /// SQL is built only with bound parameters. The sources hold exactly fifteen single-line
    /// interpolations into SQL text, none of data: table names from the schema's own list (counted,
    /// and emptied in a staging database that continues the previous snapshot, quoted), the names
    /// of a new snapshot's own tables (from its `sqlite_master`, quoted) checked one by one (their
    /// indexes, and their references by the pragma or, planned first, by a walk of the referencing
    /// column whose table, column, parent and key are the snapshot's own, quoted), the
    /// migration count, the two search tables' names (in their rebuild and its buffer setting),
    /// the diff's fixed list of nutrient columns, the names of the schema's own indexes (read
    /// from `sqlite_master` of the staging file, and quoted as identifiers) that staging drops
    /// until the rows are in, the schema name (`main` or `prev`, quoted) of the two snapshots a
    /// change set compares, and the names of a snapshot's own tables (from its `_table_keys`,
    /// quoted as identifiers) read into PostgreSQL, and counted there for a night applied in place.
    @Test func sqlInterpolatesNoData() throws {
        var found: [String] = []
        for (module, folder) in try Paths.moduleFolders() {
            let files = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                // `sql:` as an argument label, not the end of `.postgresql:` in SQLDialect's cases.
                for line in text.split(separator: "\n") where line.contains(/[^A-Za-z]sql:/) && line.contains("\\(") {
                    found.append(module + "/" + file + ": " + line.trimmingCharacters(in: .whitespaces))
                }
            }
        }
        #expect(found.sorted() == [
            "PostgresTarget/PostgresApply.swift: counts[key.table] = try Int.fetchOne(db, sql: \"SELECT count(*) FROM \\(quoted(key.table))\") ?? 0",
            "PostgresTarget/PostgresPublisher.swift: let cursor = try Row.fetchCursor(db, sql: \"SELECT * FROM \\(quoted(columns.table))\")",
            "Snapshot/Changes/ChangeSet.swift: let builtAt = try String.fetchOne(db, sql: \"SELECT value FROM \\\"\\(schema)\\\"._meta WHERE key = 'built_at'\")",
            "Snapshot/Changes/ChangeSet.swift: let version = try Int.fetchOne(db, sql: \"PRAGMA \\\"\\(schema)\\\".user_version\") ?? 0",
            "Snapshot/Changes/SnapshotDiff.swift: for row in try Row.fetchAll(db, sql: \"SELECT food_id, nutrient_key, \\(fields.joined(separator: \", \")) FROM food_nutrient\") {",
            "Snapshot/Reading/ForeignKeyCheck.swift: let plan = try Row.fetchAll(db, sql: \"EXPLAIN QUERY PLAN \\(sql)\", arguments: arguments)",
            "Snapshot/Reading/ForeignKeyCheck.swift: try Row.fetchAll(db, sql: \"PRAGMA foreign_key_check(\\(table.quotedDatabaseIdentifier))\").map { row in",
            "Snapshot/Reading/SnapshotReader.swift: counts[table] = try Int.fetchOne(db, sql: \"SELECT count(*) FROM \\(table)\") ?? 0",
            "Snapshot/Reading/SnapshotReader.swift: problems += try String.fetchAll(db, sql: \"PRAGMA integrity_check(\\(table.quotedDatabaseIdentifier))\")",
            "Snapshot/Schema/Migrations/Schema+Search.swift: try db.execute(sql: \"INSERT INTO \\(table)(\\(table)) VALUES('rebuild')\")",
            "Snapshot/Schema/Migrations/Schema+Search.swift: try db.execute(sql: \"INSERT INTO \\(table)(\\(table), rank) VALUES('hashsize', ?), ('automerge', ?)\",",
            "Snapshot/Schema/Schema.swift: try db.execute(sql: \"PRAGMA user_version = \\(index + 1)\")",
            "Snapshot/Schema/TableKeys.swift: return try Row.fetchAll(db, sql: \"SELECT table_name, key_columns FROM \\\"\\(schema)\\\"._table_keys ORDER BY position\")",
            "Snapshot/Writing/StagingSnapshot.swift: try db.execute(sql: \"DELETE FROM \\(table.quotedDatabaseIdentifier)\")",
            "Snapshot/Writing/StagingSnapshot.swift: try db.execute(sql: \"DROP INDEX \\(name.quotedDatabaseIdentifier)\")",
        ], "\(found)")
    }
}
