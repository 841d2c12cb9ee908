import Basics
import FoodModel
import Foundation
import GRDB
import Logging
import Pipeline
import Snapshot
import SourceAdapters
import Testing
import TestSupport

/// A run starts from the latest snapshot's menus and keeps the days whose rows come out the
/// same. Every test here holds the continued snapshot against a full write of the same run: the
/// same pipeline with `--force` (everything fetched, parsed and written again) in a copy of the
/// workspace taken before the run, and every table compared row for row, rowids included.
@Suite struct ContinuedSnapshotTests {
    private static let days = ["2026-10-10", "2026-10-11", "2026-10-12"]

    /// The sample site in a folder of the test's own, which the test changes between nights.
    private func site(in folder: URL) throws -> URL {
        let site = folder.appendingPathComponent("site")
        try FileManager.default.copyItem(at: Paths.sampleSite, to: site)
        return site
    }

    private func siteSpec(_ site: URL, workspace: URL) -> PipelineSpec {
        PipelineSpec(
            name: "continued", description: nil, file: workspace.appendingPathComponent("continued.yml"),
            licence: "test",
            sources: [SourceSpec(name: "ucla-menu", adapter: UCLAMenuSiteAdapter(), location: .directory(site),
                                 dates: .range(from: ServiceDate(Self.days[0])!, to: ServiceDate(Self.days[2])!),
                                 settings: UCLAMenuSiteAdapter.Settings())],
            checks: CheckPolicy(minMenuItems: 100), fetch: FetchSettings())
    }

    private func run(_ spec: PipelineSpec, workspace: URL, dates: DateSelection? = nil, today: String,
                     force: Bool = false) async throws -> RunReport {
        try await PipelineRunner(
            spec: spec,
            options: RunOptions(workspace: Workspace(root: workspace), dates: dates, today: ServiceDate(today)!,
                                force: force),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
    }

    /// Runs `spec` as the night's run in `workspace`, and the same with `--force` in a copy of
    /// the workspace as it was before; expects the two snapshots to hold the same rows, and the
    /// night's change file, which compares only the days that were not kept, to be the change set
    /// of every row. Returns the night's report and how many days it kept.
    private func runAndCompare(_ spec: PipelineSpec, workspace: URL, dates: DateSelection? = nil, today: String,
                               sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws
        -> (report: RunReport, kept: Int?) {
        let full = workspace.deletingLastPathComponent().appendingPathComponent("full-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: workspace, to: full)
        defer { try? FileManager.default.removeItem(at: full) }
        let previous = SnapshotStore(directory: Workspace(root: workspace).snapshots).latest(pipeline: spec.name)
        let night = try await run(spec, workspace: workspace, dates: dates, today: today)
        let rebuilt = try await run(spec, workspace: full, dates: dates, today: today, force: true)
        let continued = URL(fileURLWithPath: try #require(night.snapshotPath, sourceLocation: sourceLocation))
        let written = URL(fileURLWithPath: try #require(rebuilt.snapshotPath, sourceLocation: sourceLocation))
        #expect(rebuilt.manifest.stages.first { $0.name == .write }?.counts["days_kept"] == nil,
                "a forced run writes every day", sourceLocation: sourceLocation)
        try expectSameRows(continued, written, sourceLocation: sourceLocation)
        if let previous {
            let file = continued.path + SnapshotStore.changesSuffix
            let published = String(decoding: try Gzip.decompress(try Data(contentsOf: URL(fileURLWithPath: file)), place: file),
                                   as: UTF8.self)
            let full = try ChangeSet.between(previous, continued).json()
            let difference = zip(published.split(separator: "\n"), full.split(separator: "\n")).first { $0 != $1 }
            #expect(published == full, "the change file is the change set of every row; first difference: \(String(describing: difference))",
                    sourceLocation: sourceLocation)
        }
        return (night, night.manifest.stages.first { $0.name == .write }?.counts["days_kept"])
    }

    /// Every table of the snapshot schema, the schema itself and the menus' build, row for row.
    private func expectSameRows(_ continued: URL, _ written: URL, sourceLocation: Testing.SourceLocation) throws {
        func everything(_ url: URL) throws -> [String: QueryResult] {
            var tables: [String: QueryResult] = [:]
            let listed = try QueryResult.run("""
                SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table'
                """, on: url).rows
            for row in listed {
                guard case .text(let name) = row[0], case .integer(let withoutRowid) = row[1],
                      SnapshotSchema.dataTables.contains(name) || ["_day_rows", "_table_keys"].contains(name)
                else { continue }
                let columns = try QueryResult.run("SELECT * FROM \"\(name)\" LIMIT 0", on: url).columns.count
                let order = (1...max(1, columns)).map(String.init).joined(separator: ", ")
                tables[name] = try QueryResult.run(
                    withoutRowid == 1 ? "SELECT * FROM \"\(name)\" ORDER BY \(order)"
                        : "SELECT rowid, * FROM \"\(name)\" ORDER BY rowid", on: url)
            }
            tables["schema"] = try QueryResult.run("SELECT type, name, sql FROM sqlite_master ORDER BY name", on: url)
            tables["meta"] = try QueryResult.run("""
                SELECT key, value FROM _meta WHERE key IN ('day_rows_code', 'schema_version', 'pipeline') ORDER BY key
                """, on: url)
            // Every check's outcome, the review's among them, which a night whose foods are the
            // last night's takes from the latest snapshot rather than reviewing every label again
            // (partitions' warnings apart: their order is not held to a full write's).
            tables["checks"] = try QueryResult.run("""
                SELECT name, severity, passed, value, message FROM _checks WHERE name <> 'partition_warning' ORDER BY rowid
                """, on: url)
            tables["search"] = try QueryResult.run("""
                SELECT f.id FROM food_fts JOIN food f ON f.rowid = food_fts.rowid
                WHERE food_fts MATCH 'chicken OR rice OR salad' ORDER BY 1
                """, on: url)
            return tables
        }
        let got = try everything(continued)
        let expected = try everything(written)
        #expect(got.keys.sorted() == expected.keys.sorted(), sourceLocation: sourceLocation)
        #expect((expected["menu_item"]?.rows.count ?? 0) > 0, sourceLocation: sourceLocation)
        for (name, rows) in expected.sorted(by: { $0.key < $1.key }) where got[name] != rows {
            let first = zip(got[name]?.rows ?? [], rows.rows).first { $0 != $1 }
            let difference = first.map { "\($0.0) instead of \($0.1)" } ?? "-"
            let counts = "\(got[name]?.rows.count ?? 0) rows against \(rows.rows.count)"
            Issue.record("table \(name) differs from a full write: \(counts); first difference: \(difference)",
                         sourceLocation: sourceLocation)
        }
    }

    private func removeLastItem(of day: String, in site: URL) throws {
        try MenuPageEdits.removeLastItem(of: site.appendingPathComponent("Menus/\(day).html"))
    }

    /// The 2016 dataset's pipeline, its checks loosened for windows of a few days that move.
    private func historySpec() throws -> PipelineSpec {
        var spec = try SpecReader.read(Paths.pipelines.appendingPathComponent("ucla-history-2016.yml"))
        spec.checks.minMenuItems = 100
        spec.checks.maxDropFromPrevious = 1
        return spec
    }

    /// The site's first night published in a workspace of its own, the snapshot made writable so
    /// that a test can alter it before the next night.
    private func firstNight(in folder: URL) async throws -> (site: URL, workspace: URL, spec: PipelineSpec, snapshot: URL) {
        let site = try site(in: folder)
        let workspace = folder.appendingPathComponent("workspace")
        let spec = siteSpec(site, workspace: workspace)
        let snapshot = URL(fileURLWithPath: try #require(try await run(spec, workspace: workspace, today: Self.days[0]).snapshotPath))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: snapshot.path)
        return (site, workspace, spec, snapshot)
    }

    @Test func aNightWithOneDayChangedKeepsTheOthersAndEqualsAFullWrite() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = try site(in: folder)
        let workspace = folder.appendingPathComponent("workspace")
        let spec = siteSpec(site, workspace: workspace)
        let first = try await run(spec, workspace: workspace, today: Self.days[0])
        let firstFile = URL(fileURLWithPath: try #require(first.snapshotPath))
        #expect(first.manifest.stages.first { $0.name == .write }?.counts["days_kept"] == nil)
        #expect(first.manifest.stages.first { $0.name == .check }?.counts["review_tables_kept"] == nil)
        // Each day's digest is recorded: 2026-10-10, -11 and -12.
        let digests = try QueryResult.run("SELECT date FROM _day_rows ORDER BY date", on: firstFile).rows
        #expect(digests == Self.days.map { [.text($0)] })

        let ledger = try StateLedger(url: Workspace(root: workspace).ledger(pipeline: "continued"))
        let firstNight = try ledger.states(source: "ucla-menu")

        try removeLastItem(of: Self.days[1], in: site)
        let (second, kept) = try await runAndCompare(spec, workspace: workspace, today: Self.days[0])
        #expect(kept == 2)
        // No food changed: the food tables were kept as they were, without their rows being made
        // (nothing they or the review are made from changed), and still equal a full write's, as
        // do the review's rows and outcomes.
        #expect(second.manifest.stages.first { $0.name == .write }?.counts["food_tables_kept"] == 1)
        #expect(second.manifest.stages.first { $0.name == .write }?.counts["food_inputs_kept"] == 1)
        #expect(second.manifest.stages.first { $0.name == .check }?.counts["review_tables_kept"] == 1)
        let reviewChecks = "SELECT count(*) FROM _checks WHERE name IN ('dv_agreement', 'energy_sanity')"
        #expect(try QueryResult.run(reviewChecks, on: URL(fileURLWithPath: try #require(second.snapshotPath))).rows
                != [[.integer(0)]])
        let secondFile = URL(fileURLWithPath: try #require(second.snapshotPath))
        let items = { (url: URL, day: String) in
            try QueryResult.run("SELECT count(*) FROM v_menu WHERE date = '\(day)'", on: url).rows
        }
        // The changed day lost one item; the kept days are as they were.
        guard case .integer(let before) = try items(firstFile, Self.days[1]).first?.first,
              case .integer(let after) = try items(secondFile, Self.days[1]).first?.first
        else { Issue.record("no item counts"); return }
        #expect(after == before - 1)
        #expect(try items(secondFile, Self.days[0]) == items(firstFile, Self.days[0]))
        // The ledger says the second night saw every day; the days it took from the parse cache
        // keep what they read (their run and time alone updated).
        let seen = try ledger.states(source: "ucla-menu")
        #expect(Self.days.allSatisfy { seen[$0]?.runId == second.manifest.runId })
        for day in [Self.days[0], Self.days[2]] {
            #expect(seen[day]?.documents == firstNight[day]?.documents && seen[day]?.lastGood == firstNight[day]?.lastGood)
        }
        let changedDigest = "SELECT rows_sha256 FROM _day_rows WHERE date = '\(Self.days[1])'"
        #expect(try QueryResult.run(changedDigest, on: secondFile) != QueryResult.run(changedDigest, on: firstFile))

        // A day whose items cannot be read is carried from its last good version, marked stale:
        // kept rows and the replayed day together still make the same snapshot as a full write.
        let page = site.appendingPathComponent("Menus/\(Self.days[2]).html")
        let text = try String(contentsOf: page, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "class=\"menu-item\"", with: "class=\"menu-entry\"").utf8).write(to: page)
        let (third, keptThird) = try await runAndCompare(spec, workspace: workspace, today: Self.days[0])
        #expect(third.manifest.partitions.first { $0.key == Self.days[2] }?.status == .stale)
        #expect(keptThird == 3)
    }

    /// A night in which one day's page lost an item and one food's label changed (the sample's
    /// 041172, served every day: Total Fat 17.4 g printed as 18.4 g, 242 calories as 42). The
    /// change file compares the menu rows of the changed day alone and the other tables whole, and
    /// is the full change set (`runAndCompare`): the item's meal changed on 2026-10-11 only, the
    /// food's fat is an updated `food_nutrient` row, the review's flag of its calories a new
    /// `food_flag` row. Told that every day was kept, the comparison would miss the item: proof
    /// that the kept days' rows are indeed not compared.
    @Test func theChangeFileComparesTheChangedDaysAndEveryOtherTable() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = try site(in: folder)
        let workspace = folder.appendingPathComponent("workspace")
        var spec = siteSpec(site, workspace: workspace)
        spec.fetch.foodDocuments = .always
        let first = URL(fileURLWithPath: try #require(try await run(spec, workspace: workspace, today: Self.days[0]).snapshotPath))
        try removeLastItem(of: Self.days[1], in: site)
        let label = site.appendingPathComponent("Recipes/041172/1.html")
        let page = try String(contentsOf: label, encoding: .utf8)
        // Its fat from 17.4 to 18.4 g, its calories from 242 to 42: the fat alone is 166 kcal, so
        // the review flags the label (`energy_sanity`) and its rows are not last night's.
        let edited = page.replacingOccurrences(of: "Total Fat</span> 17.4g", with: "Total Fat</span> 18.4g")
            .replacingOccurrences(of: "Calories</span> 242 ", with: "Calories</span> 42 ")
        #expect(edited.contains("18.4g") && edited.contains("Calories</span> 42 "))
        try Data(edited.utf8).write(to: label)

        let (night, kept) = try await runAndCompare(spec, workspace: workspace, today: Self.days[0])
        #expect(kept == 2)
        // A label changed: the food tables were written again, as a full write writes them.
        #expect(night.manifest.stages.first { $0.name == .write }?.counts["food_tables_kept"] == 0)
        #expect(night.manifest.stages.first { $0.name == .write }?.counts["food_inputs_kept"] == 0)
        // So was the review, which now flags the label.
        #expect(night.manifest.stages.first { $0.name == .check }?.counts["review_tables_kept"] == 0)
        let second = URL(fileURLWithPath: try #require(night.snapshotPath))
        let full = try ChangeSet.between(first, second)
        let items = try #require(full.tables.first { $0.name == "menu_item" })
        let keys = items.deleted.map(\.first) + items.updated.map(\.key.first) + items.inserted.map(\.first)
        #expect(!keys.isEmpty && keys.allSatisfy { key in
            guard case .integer(let id) = key else { return false }
            return id / 10_000_000 == 20_261_011
        }, "only 2026-10-11's items changed: \(keys)")
        let fat = try #require(full.tables.first { $0.name == "food_nutrient" }?.updated.first {
            guard case .text(let food) = $0.key.first else { return false }
            return food.hasSuffix("041172") && $0.key.last == .text("total_fat")
        })
        #expect(fat.changed.contains { $0.column == "amount" && $0.value == .real(18.4) }, "\(fat.changed)")
        let flags = try #require(full.tables.first { $0.name == "food_flag" })
        #expect(flags.inserted.contains { $0.contains(.text("energy_sanity")) }, "\(flags.inserted)")

        let keptDates = Set([Self.days[0], Self.days[2]].compactMap { ServiceDate($0) })
        let allDates = Set(Self.days.compactMap { ServiceDate($0) })
        let restricted = try ChangeSet.between(first, second, unchanged: UnchangedDays(snapshot: first.lastPathComponent,
                                                                                         dates: keptDates))
        #expect(restricted.json() == full.json())
        let toldAllKept = try ChangeSet.between(first, second, unchanged: UnchangedDays(
            snapshot: first.lastPathComponent, dates: allDates))
        #expect(!toldAllKept.tables.contains { $0.name == "menu_item" })
        #expect(toldAllKept.tables.contains { $0.name == "food_nutrient" })
        // Told that the food tables were kept whole, it does not compare them: their change is missed.
        let toldFoodsKept = try ChangeSet.between(first, second, unchanged: UnchangedDays(
            snapshot: first.lastPathComponent, dates: keptDates, tables: ["food_nutrient"]))
        #expect(!toldFoodsKept.tables.contains { $0.name == "food_nutrient" })
        #expect(toldFoodsKept.tables.contains { $0.name == "menu_item" })
        // Named for another snapshot, the kept days are not trusted: every row is compared.
        let elsewhere = try ChangeSet.between(first, second, unchanged: UnchangedDays(
            snapshot: "another.sqlite", dates: allDates))
        #expect(elsewhere.json() == full.json())
    }

    /// The 2016 dataset over a window that moves: days leave and arrive, and the label versions
    /// of foods whose first label left the window are numbered again, which changes the rows of
    /// days that did not change themselves (their items' `label_version`). Those are written
    /// again, the others kept, the whole equal to a full write.
    @Test func aMovingWindowRenumbersLabelVersionsAsAFullWrite() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let workspace = folder.appendingPathComponent("workspace")
        let spec = try historySpec()
        func window(_ from: String, _ to: String) -> DateSelection {
            .range(from: ServiceDate(from)!, to: ServiceDate(to)!)
        }
        func digests(_ report: RunReport, of column: String = "rows_sha256") throws -> [String: String] {
            let file = URL(fileURLWithPath: try #require(report.snapshotPath))
            var digests: [String: String] = [:]
            for row in try QueryResult.run("SELECT date, \(column) FROM _day_rows", on: file).rows {
                if case .text(let date) = row[0], case .text(let digest) = row[1] { digests[date] = digest }
            }
            return digests
        }
        let overlap = ["2016-09-17", "2016-09-18", "2016-09-19", "2016-09-20"]
        // Bruin Burger printed 405 kcal on 2016-09-05..10 and 16, and 278 kcal from 2016-09-15
        // (the files), served on each of 2016-09-17..20: with 2016-09-08..20 in the window, 278 kcal
        // is its second version; with 2016-09-17..24, its first.
        let first = try await run(spec, workspace: workspace, dates: window("2016-09-08", "2016-09-20"),
                                  today: "2016-09-20")
        let (second, keptSecond) = try await runAndCompare(
            spec, workspace: workspace, dates: window("2016-09-17", "2016-09-24"), today: "2016-09-24")
        let burger = """
            SELECT DISTINCT label_version FROM menu_item mi JOIN meal m ON m.id = mi.meal_id
            JOIN service_day d ON d.id = m.service_day_id
            WHERE food_id = 'ucla-dataset:bruin burger' AND d.date = '2016-09-18'
            """
        let firstBurger = try QueryResult.run(burger, on: URL(fileURLWithPath: try #require(first.snapshotPath))).rows
        #expect(firstBurger == [[.integer(2)]], "\(firstBurger)")
        #expect(try QueryResult.run(burger, on: URL(fileURLWithPath: try #require(second.snapshotPath))).rows
                == [[.integer(1)]])
        let (before, after) = (try digests(first), try digests(second))
        #expect(overlap.allSatisfy { before[$0] != nil && before[$0] != after[$0] })
        #expect(keptSecond == 0)
        // Their rows changed, not what they serve: their items digests are the same in both, and
        // the report's changes compare none of them (the pages and the code are the same).
        let (itemsBefore, itemsAfter) = (try digests(first, of: "items_sha256"), try digests(second, of: "items_sha256"))
        #expect(overlap.allSatisfy { itemsBefore[$0] != nil && itemsBefore[$0] == itemsAfter[$0] })
        let changes = try ReportQueries.changes(of: URL(fileURLWithPath: try #require(second.snapshotPath)),
                                                since: URL(fileURLWithPath: try #require(first.snapshotPath)))
        #expect(!changes.perDay.isEmpty && changes.perDay.allSatisfy { !overlap.contains($0.date) }, "\(changes.perDay)")

        // A window that moves without renumbering Bruin Burger: the days whose digest is the same
        // in both snapshots are exactly the days kept.
        let (third, keptThird) = try await runAndCompare(
            spec, workspace: workspace, dates: window("2016-09-18", "2016-09-25"), today: "2016-09-25")
        let latest = try digests(third)
        let unchanged = latest.filter { after[$0.key] == $0.value }.count
        #expect(unchanged > 0)
        #expect(keptThird == unchanged)
    }

    /// A window that moves past itself: every day of the new one written, every day of the old
    /// one removed, more than a continued database keeps its menu indexes for (they are dropped
    /// and built again at the end); the same rows and the same schema as a full write.
    @Test func aWindowThatMovesPastItselfEqualsAFullWrite() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let workspace = folder.appendingPathComponent("workspace")
        let spec = try historySpec()
        _ = try await run(spec, workspace: workspace,
                          dates: .range(from: ServiceDate("2016-08-01")!, to: ServiceDate("2016-08-31")!),
                          today: "2016-08-31")
        let (_, kept) = try await runAndCompare(
            spec, workspace: workspace, dates: .range(from: ServiceDate("2016-09-01")!, to: ServiceDate("2016-09-30")!),
            today: "2016-09-30")
        #expect(kept == 0)
    }

    /// Kept rows carry the section ids of the snapshot they come from; where that snapshot
    /// numbered a section otherwise (here: every id moved by hand), the kept days are renumbered
    /// to the ids a full write gives.
    @Test func keptRowsTakeTheSectionIdsOfAFullWrite() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (site, workspace, spec, first) = try await firstNight(in: folder)
        var unchecked = Configuration()
        unchecked.foreignKeysEnabled = false
        try await DatabaseQueue(path: first.path, configuration: unchecked).write { db in
            try db.execute(sql: "UPDATE section SET id = id + 1000; UPDATE menu_item SET section_id = section_id + 1000")
        }
        try removeLastItem(of: Self.days[0], in: site)
        let (_, kept) = try await runAndCompare(spec, workspace: workspace, today: Self.days[0])
        #expect(kept == 2)
    }

    /// Two sources serving the same dates and meal names (the real Nutrislice weeks of
    /// `../shared/data/nutrislice-2025` under two schools' paths). The night that adds the second
    /// source keeps the first's seven days, whose rows are that source's alone, and joins the
    /// second's meals to them; a night in which the second source's lunch changes writes every
    /// date again, since a date two sources serve is always written. Each equals a full write.
    @Test func aSecondSourceJoinsTheKeptDaysOfTheFirstAsAFullWrite() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let workspace = folder.appendingPathComponent("workspace")
        let server = try NutrisliceWeeks.Server()
        defer { server.stop() }
        let schools = ["four-lakes-market", "gordon-avenue-market"]
        for school in schools { try server.serveRealWeeks(school: school) }
        func spec(_ schools: ArraySlice<String>) throws -> PipelineSpec {
            let sources = schools.map { school in
                """
                  - name: \(school)
                    adapter: nutrislice
                    location: \(server.root)
                    school: \(school)
                    menu_types: [breakfast, lunch, dinner]
                    dates: {from: 2025-08-17, to: 2025-08-23}
                """
            }.joined(separator: "\n")
            return try SpecReader.parse("""
                pipeline: continued
                licence: test
                sources:
                \(sources)
                checks: {min_menu_items: 1}
                fetch: {delay_ms: 0, retries: 0, timeout_seconds: 10}
                """, file: workspace.appendingPathComponent("continued.yml"))
        }
        let first = try await run(spec(schools.prefix(1)), workspace: workspace, today: "2025-08-17")
        #expect(first.published)
        let (second, kept) = try await runAndCompare(spec(schools[...]), workspace: workspace, today: "2025-08-17")
        #expect(kept == 7)
        let meals = try QueryResult.run("SELECT count(*) FROM meal", on: URL(fileURLWithPath: try #require(second.snapshotPath)))
        #expect(meals.rows == [[.integer(20)]])

        var lunch = try NutrisliceWeeks.answer("lunch")
        try NutrisliceWeeks.editFood(1309638, on: "2025-08-18", in: &lunch) { $0["name"] = "Tofu Cubes" }
        server.serve(try NutrisliceWeeks.data(lunch), at: NutrisliceWeeks.path(school: schools[1], menuType: "lunch"))
        let (_, keptThird) = try await runAndCompare(spec(schools[...]), workspace: workspace, today: "2025-08-17")
        #expect(keptThird == 0)
    }

    /// A snapshot whose menus another build wrote, or whose digests do not cover its days or do
    /// not read (bytes that are no UTF-8, which stopped the process), is not continued: the run
    /// writes every day, and the result is the same.
    @Test(arguments: [
        "UPDATE _meta SET value = 'another build' WHERE key = 'day_rows_code'",
        "DELETE FROM _day_rows WHERE date = '2026-10-11'",
        "UPDATE _day_rows SET rows_sha256 = x'ff' WHERE date = '2026-10-11'",
    ])
    func aSnapshotThatCannotBeContinuedIsWrittenInFull(_ damage: String) async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (site, workspace, spec, first) = try await firstNight(in: folder)
        try await DatabaseQueue(path: first.path).write { db in try db.execute(sql: damage) }
        try removeLastItem(of: Self.days[2], in: site)
        let (_, kept) = try await runAndCompare(spec, workspace: workspace, today: Self.days[0])
        #expect(kept == nil)
    }
}
