import FoodModel
import Foundation
import Logging
import Pipeline
import SnapshotTestSupport
import SourceAdapters
import Snapshot
import Testing
import TestSupport

/// What analysts get from real runs of the sample pipeline: an empty diff between runs on the
/// same inputs, exactly the edits between runs on edited inputs, a description of every table
/// and column in `metadata.json`, the example queries of docs/querying.md, and retention.
@Suite struct AnalystSnapshotTests {
    private func run(_ spec: PipelineSpec, workspace: URL, force: Bool = false) async throws -> URL {
        let runner = PipelineRunner(
            spec: spec,
            options: RunOptions(workspace: Workspace(root: workspace), today: try #require(ServiceDate("2026-10-12")),
                                force: force, arguments: ["run", "sample.yml"]),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        return URL(fileURLWithPath: try #require(try await runner.run().snapshotPath))
    }

    /// The sample pipeline published once in `folder`.
    func sampleSnapshot(in folder: URL) async throws -> URL {
        try await run(try sampleSpec(), workspace: folder)
    }

    private func sampleSpec() throws -> PipelineSpec {
        try SpecReader.read(Paths.pipelines.appendingPathComponent("sample.yml"))
    }

    /// The sample pipeline reading a copy of SampleData in `folder`, after `edit` changed it.
    private func editedSampleSpec(in folder: URL, edit: (URL) throws -> Void) throws -> PipelineSpec {
        let copy = folder.appendingPathComponent("SampleData")
        try FileManager.default.copyItem(at: Paths.sampleData, to: copy)
        try edit(copy)
        var spec = try sampleSpec()
        spec.sources[0].location = .directory(copy.appendingPathComponent("menu.dining.ucla.edu"))
        spec.sources[1].location = .file(copy.appendingPathComponent("themealdb/meals.json"))
        spec.sources[1].settings = MealDBDumpAdapter.Settings(categories: copy.appendingPathComponent("themealdb/categories.json"))
        return spec
    }

    private func replace(_ old: String, with new: String, in file: URL, within range: (from: String, to: String)? = nil) throws {
        var text = try String(contentsOf: file, encoding: .utf8)
        var bounds = text.startIndex..<text.endIndex
        if let range {
            let start = try #require(text.range(of: range.from))
            let end = try #require(text.range(of: range.to, range: start.upperBound..<text.endIndex))
            bounds = start.upperBound..<end.lowerBound
        }
        let found = try #require(text.range(of: old, range: bounds), "\(old) not in \(file.lastPathComponent)")
        text.replaceSubrange(found, with: new)
        try Data(text.utf8).write(to: file)
    }

    @Test func twoRunsOnTheSameInputsDoNotDiffer() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await run(try sampleSpec(), workspace: folder.appendingPathComponent("a"))
        let second = try await run(try sampleSpec(), workspace: folder.appendingPathComponent("b"))
        #expect(try SnapshotReader.meta(of: first)["run_id"] != SnapshotReader.meta(of: second)["run_id"])
        let diff = try SnapshotDiff.between(first, second)
        #expect(diff.isEmpty, "\(diff.text())")
    }

    @Test func aDayWithOneItemGoneAndOneLabelEditedShowsExactlyThat() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let edited = try editedSampleSpec(in: folder) { copy in
            let site = copy.appendingPathComponent("menu.dining.ucla.edu")
            // 12 October, Lunch, De Neve, The Front Burner: the Quinoa Tabbouleh item (lines
            // 668–682 of the page) is taken off the menu. The dish stays on other menus.
            let menu = site.appendingPathComponent("Menus/2026-10-12.html")
            var text = try String(contentsOf: menu, encoding: .utf8)
            let lunch = try #require(text.range(of: "Lunch Menu for October 12, 2026"))
            let deNeve = try #require(text.range(of: "<h3 class=\"col-header\">De Neve</h3>", range: lunch.upperBound..<text.endIndex))
            let link = try #require(text.range(of: "Recipes/041180/1\">Quinoa Tabbouleh</a>", range: deNeve.upperBound..<text.endIndex))
            let itemStart = try #require(text.range(of: "<li class=\"menu-item\">", options: .backwards,
                                                    range: deNeve.upperBound..<link.lowerBound))
            let itemEnd = try #require(text.range(of: "</li>", range: link.upperBound..<text.endIndex))
            text.removeSubrange(itemStart.lowerBound..<itemEnd.upperBound)
            try Data(text.utf8).write(to: menu)
            // Its label: sodium 212.4 mg (9%) becomes 480 mg (20%): 480 / 2400 is exactly 20%.
            try replace("212.4mg <span class=\"nfdvval\"><span class=\"nfdvvalnum\">9</span>",
                        with: "480mg <span class=\"nfdvval\"><span class=\"nfdvvalnum\">20</span>",
                        in: site.appendingPathComponent("Recipes/041180/1.html"))
        }
        let before = try await run(try sampleSpec(), workspace: folder.appendingPathComponent("before"))
        let after = try await run(edited, workspace: folder.appendingPathComponent("after"))
        let diff = try SnapshotDiff.between(before, after)
        #expect(diff.text() == """
            Menu items removed (1):
              - 2026-10-12 Lunch, De Neve / The Front Burner: Quinoa Tabbouleh (ucla-menu:041180, portion 1)
            Nutrients changed (3):
              ~ ucla-menu:041180 Quinoa Tabbouleh: sodium amount "212.4" → "480"
              ~ ucla-menu:041180 Quinoa Tabbouleh: sodium printed_dv_percent "9" → "20"
              ~ ucla-menu:041180 Quinoa Tabbouleh: sodium computed_dv_percent "9" → "20"

            """)
        #expect(try SnapshotReader.rowCounts(of: after)["menu_item"] == 123)
    }

    @Test func metadataDescribesEveryTableAndColumnOfAPublishedSnapshot() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await run(try sampleSpec(), workspace: folder)
        let data = try Data(contentsOf: URL(fileURLWithPath: file.path + ".metadata.json"))
        let metadata = try JSONDecoder().decode(SnapshotMetadata.self, from: data)
        let database = try #require(metadata.databases[file.deletingPathExtension().lastPathComponent])
        #expect(metadata.license == "CC0-1.0 (fictional sample content written by the Commissary project)")
        // Pipelines/sample.yml's licence_url; its sources are folders, so no site to link.
        #expect(metadata.licenseURL == "https://creativecommons.org/publicdomain/zero/1.0/")
        #expect(database.licenseURL == metadata.licenseURL && database.sourceURL == nil)
        #expect(database.documents == 42)
        #expect(database.sources.count == 2)
        #expect(database.sources.first?.hasPrefix("ucla-menu (ucla-menu-site): ") == true)

        let tables = try QueryResult.run("""
            SELECT name FROM pragma_table_list WHERE schema = 'main' AND type <> 'shadow'
            AND name NOT LIKE 'sqlite_%' ORDER BY name
            """, on: file).rows.compactMap { row -> String? in
                if case .text(let name) = row.first { return name }
                return nil
            }
        #expect(tables.count >= 27)
        for table in tables {
            let entry = database.tables[table]
            #expect(entry?.description.isEmpty == false, "\(table) has no description")
            let columns = try QueryResult.run("SELECT name FROM pragma_table_info('\(table)')", on: file).rows
            #expect(!columns.isEmpty, "\(table)")
            for case .text(let column) in columns.compactMap(\.first) {
                #expect(entry?.columns[column]?.isEmpty == false, "\(table).\(column) has no description")
            }
        }
    }

    /// Every SQL block of docs/querying.md, on a fresh sample snapshot;
    /// the first two answers checked by hand against SampleData's pages.
    @Test func theReadmeQueriesRunOnTheSampleSnapshot() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await run(try sampleSpec(), workspace: folder)
        let document = try String(contentsOf: Paths.packageRoot.appendingPathComponent("docs/querying.md"), encoding: .utf8)
        let blocks = document.components(separatedBy: "```sql\n").dropFirst()
            .compactMap { $0.components(separatedBy: "```").first }
        #expect(blocks.count == 10)
        var answers: [[[SQLValue]]] = []
        for sql in blocks {
            let result = try QueryResult.run(sql, on: file)
            #expect(!result.rows.isEmpty, "no rows for: \(sql)")
            answers.append(result.rows)
        }
        // De Neve's lunch on 2026-10-12 prints VG beside two items only (Menus/2026-10-12.html).
        #expect(answers.first == [[.text("Grill"), .text("Thai Peanut Noodles")],
                                  [.text("The Front Burner"), .text("Quinoa Tabbouleh")]])
        // Quinoa Tabbouleh (041180) appears 7 times across the three days (SampleData/README.md).
        #expect(answers.count > 1 && answers[1].count == 7)
        // Ten dishes carry VG on their menu rows or pages and no ATNT; the Vegan Almond Brownie
        // carries both (Menus/*.html, Recipes/*/*.html).
        #expect(answers.count > 2 && answers[2] == [
            "Black Bean & Corn Soup", "Crispy Hash Browns", "Harissa Roasted Carrots", "Korean BBQ Tofu Bowl",
            "Quinoa Tabbouleh", "Seasonal Fruit Cup", "Steamed Jasmine Rice", "Steel-Cut Oatmeal",
            "Thai Peanut Noodles", "Tofu Scramble w/ Peppers & Onions",
        ].map { [SQLValue.text($0)] })
        // Per campus: the sample's places file says `campus: UCLA` (Pipelines/places/ucla.yml),
        // so the answer is the hall-per-day one with UCLA in front.
        #expect(answers.count == 10 && answers[6].allSatisfy { $0.first == .text("UCLA") })
        #expect(answers.count == 10 && answers[6].map { Array($0.dropFirst()) } == answers[5].map { [$0[0], $0[1], $0[2], $0[4]] })
        // The most sugar: ten items, most first, each with the portion its menu printed.
        let sugars = answers.count == 10 ? answers[4].compactMap { row -> Double? in
            switch row[4] { case .real(let x): x; case .integer(let x): Double(x); default: nil }
        } : []
        #expect(sugars.count == 10 && sugars == sugars.sorted(by: >), "\(sugars)")
        // Quinoa Tabbouleh's history: its 7 servings over the three days, at three halls.
        #expect(answers.count == 10 && answers[8].map { Array($0.prefix(5)) } == [[
            .text("Quinoa Tabbouleh"), .text("2026-10-10"), .text("2026-10-12"), .integer(7),
            .text("Bruin Plate (UCLA), De Neve (UCLA), Epicuria at Covel (UCLA)")]])
        // Six of the twelve recipes list Garlic (themealdb/meals.json).
        #expect(answers.last?.count == 6)
    }

    @Test func retentionAfterPublishKeepsTheLastOnes() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var spec = try sampleSpec()
        spec.retention = RetentionPolicy(keepLast: 2)
        var published: [URL] = []
        // Forced: the same inputs would otherwise publish once and then be found unchanged.
        for _ in 0..<3 {
            published.append(try await run(spec, workspace: folder, force: true))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("snapshots").path)
        let snapshots = names.filter { $0.hasSuffix(".sqlite") }.sorted()
        #expect(snapshots == published.dropFirst().map(\.lastPathComponent).sorted())
        #expect(!names.contains { $0.hasPrefix(published[0].lastPathComponent) })
        #expect(SnapshotStore(directory: folder.appendingPathComponent("snapshots")).latest(pipeline: "sample")
                == published[2])
    }
}

/// The tools analysts already use find what a snapshot offers without being told.
@Suite struct AnalystToolsTests {
    /// sqlite-utils (and Datasette) find a table's search index by this pattern in
    /// `sqlite_master`, the one `sqlite-utils enable-fts` writes; when sqlite-utils is installed,
    /// its own `search` command is run on the snapshot too.
    @Test func searchIsFoundTheWaySqliteUtilsLooksForIt() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await AnalystSnapshotTests().sampleSnapshot(in: folder)
        let found = try QueryResult.run("""
            SELECT name FROM sqlite_master WHERE rootpage = 0
            AND sql LIKE '%VIRTUAL TABLE%USING FTS%content="food"%'
            """, on: file)
        #expect(found.rows == [[.text("food_fts")]])
        // Weeks sort as numbers, and codes are rows to join on.
        let weeks = try QueryResult.run("SELECT DISTINCT week FROM v_swipe_table ORDER BY week LIMIT 3", on: file)
        #expect(weeks.rows == [[.integer(0)], [.integer(1)], [.integer(2)]])
        // The Chocolate Chip Cookie (Menus/2026-10-10.html) prints V, AWHT, AGTN, ASOY, AMLK, AEGG.
        let cookie = try QueryResult.run("""
            SELECT DISTINCT code, term FROM v_menu_code WHERE item = 'Chocolate Chip Cookie' ORDER BY code
            """, on: file)
        #expect(cookie.rows == [["AEGG", "eggs"], ["AGTN", "gluten"], ["AMLK", "milk"], ["ASOY", "soybeans"],
                                ["AWHT", "wheat"], ["V", "vegetarian"]].map { $0.map { SQLValue.text($0) } })

        guard let tool = Self.installed("sqlite-utils") else { return }
        let answer = try Self.output(of: tool, ["search", file.path, "food", "quinoa"])
        #expect(answer.contains("\"name\": \"Quinoa Tabbouleh\""), "\(answer)")
    }

    /// Recipes are searched as foods are: an index declared over `recipe` itself, found by the
    /// pattern sqlite-utils looks for, whose hits for "garlic" are the sample meals that say
    /// garlic in their name, ingredients, tags or steps, read from the dump here.
    @Test func recipesAreSearchedTheWayFoodsAre() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await AnalystSnapshotTests().sampleSnapshot(in: folder)
        let found = try QueryResult.run("""
            SELECT name FROM sqlite_master WHERE rootpage = 0
            AND sql LIKE '%VIRTUAL TABLE%USING FTS%content="recipe"%'
            """, on: file)
        #expect(found.rows == [[.text("recipe_fts")]])
        let dump = try JSONSerialization.jsonObject(with: Data(contentsOf: Paths.sampleData
            .appendingPathComponent("themealdb/meals.json"))) as? [String: Any]
        let meals = try #require(dump?["meals"] as? [[String: Any]])
        let garlic = try Regex("\\bgarlic\\b").ignoresCase()
        let expected = meals.filter { meal in
            meal.contains { key, value in
                ["strMeal", "strInstructions", "strTags"].contains(key) || key.hasPrefix("strIngredient")
                    ? ((value as? String)?.contains(garlic) ?? false) : false
            }
        }.compactMap { $0["strMeal"] as? String }.sorted()
        #expect(expected.count == 6)
        let hits = try QueryResult.run("""
            SELECT r.name FROM recipe r JOIN recipe_fts ON recipe_fts.rowid = r.rowid
            WHERE recipe_fts MATCH 'garlic' ORDER BY r.name
            """, on: file)
        #expect(hits.rows == expected.map { [SQLValue.text($0)] })

        guard let tool = Self.installed("sqlite-utils") else { return }
        let answer = try Self.output(of: tool, ["search", file.path, "recipe", "garlic"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [[String: Any]])
        #expect(rows.compactMap { $0["name"] as? String }.sorted() == expected, "\(answer)")
    }

    /// Datasette serving the stable name `latest-sample` with the real file's metadata shows
    /// the descriptions and searches (`--get` answers one request without starting a server).
    @Test func datasetteServesTheStableNameWithItsMetadata() async throws {
        guard let datasette = Self.installed("datasette") else { return }
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await AnalystSnapshotTests().sampleSnapshot(in: folder)
        let latest = folder.appendingPathComponent("snapshots/latest-sample").path
        let metadata = file.path + ".metadata.json"
        let search = try Self.output(of: datasette, [latest, "-m", metadata, "--get",
                                                      "/latest-sample/food.json?_search=quinoa&_shape=array"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(search.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["Quinoa Tabbouleh"])
        let page = try Self.output(of: datasette, [latest, "-m", metadata, "--get", "/latest-sample/food"])
        #expect(page.contains("A dish, once however often it is served"))
    }

    /// A tool on the PATH, if it is installed (the tests run it only then).
    static func installed(_ name: String) -> URL? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static func output(of tool: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.runWithSignalsUnblocked()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool.lastPathComponent) \(arguments)")
        return String(decoding: data, as: UTF8.self)
    }
}
