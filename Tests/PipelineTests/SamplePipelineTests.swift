import FoodModel
import Foundation
import Logging
import Pipeline
import SnapshotTestSupport
import SourceAdapters
import Snapshot
import Testing
import TestSupport

/// End to end on the bundled SampleData. Expected figures are those of SampleData/README.md,
/// computed from the files by an independent script when the sample was written.
@Suite struct SamplePipelineTests {
    private func runner(_ spec: PipelineSpec, workspace: URL, force: Bool = false, onlyMissing: Bool = false) throws
        -> PipelineRunner {
        PipelineRunner(
            spec: spec,
            options: RunOptions(workspace: Workspace(root: workspace), today: try #require(ServiceDate("2026-10-12")),
                                force: force, onlyMissing: onlyMissing, arguments: ["run", "sample.yml"]),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    private func sampleSpec() throws -> PipelineSpec {
        try SpecReader.read(Paths.pipelines.appendingPathComponent("sample.yml"))
    }

    private func rows(_ sql: String, _ file: URL) throws -> [[SQLValue]] {
        try QueryResult.run(sql, on: file).rows
    }

    private func number(_ sql: String, _ file: URL) throws -> Int64? {
        guard case .integer(let value) = try rows(sql, file).first?.first else { return nil }
        return value
    }

    @Test func publishesEveryMenuItemFoodHoursRowAndRecipeOfTheSample() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let report = try await runner(try sampleSpec(), workspace: workspace).run()
        let file = URL(fileURLWithPath: try #require(report.snapshotPath))
        let counts = try SnapshotReader.rowCounts(of: file)
        let expected = [
            "service_day": 3, "meal": 7, "restaurant": 3, "menu_item": 124, "food": 36, "hours": 36,
            "recipe": 12, "recipe_ingredient": 99, "ingredient": 69, "category": 12, "area": 8,
            "tag": 22, "recipe_tag": 27,
        ]
        for (table, count) in expected {
            #expect(counts[table] == count, "\(table)")
        }
        #expect(try number("SELECT count(*) FROM food WHERE has_page = 1", file) == 36)
        // The menu site's VG and V read through the vocabulary, as every source's codes are.
        #expect(try DietFlags.disagreeing(in: file).isEmpty)
        #expect(try DietFlags.vegan(in: file) > 0)
        #expect(try number("SELECT count(*) FROM recipe_ingredient WHERE measure_raw IS NULL", file) == 2)
        // The sample's labels print round(100 × amount / DV) under UCLA's values, with no ties
        // (SampleData/README.md), so every computed %DV must equal the printed one.
        let computed = try number("SELECT count(*) FROM food_nutrient WHERE computed_dv_percent IS NOT NULL", file)
        #expect(computed == (try number("""
            SELECT count(*) FROM food_nutrient WHERE printed_dv_percent IS NOT NULL AND amount IS NOT NULL
            """, file)))
        #expect((computed ?? 0) > 36 * 5)
        #expect(try number("""
            SELECT count(*) FROM food_nutrient WHERE computed_dv_percent IS NOT printed_dv_percent
            AND computed_dv_percent IS NOT NULL
            """, file) == 0)

        // The README's table of items per day, meal and hall.
        let perMeal = try rows("""
            SELECT date, meal, restaurant, count(*) FROM v_menu GROUP BY date, meal, restaurant
            ORDER BY date, meal, restaurant
            """, file).map { row in row.map { value -> String in
                switch value {
                case .text(let text): text
                case .integer(let number): String(number)
                default: "?"
                }
            }.joined(separator: " ") }
        #expect(perMeal.contains("2026-10-10 Brunch Bruin Plate 9"))
        #expect(perMeal.contains("2026-10-12 Breakfast De Neve 11"))
        // Printed "Covel"; the sample's places file publishes it under its one name.
        #expect(perMeal.contains("2026-10-11 Dinner Epicuria at Covel 7"))
        #expect(perMeal.count == 21)

        // The one item with the code the legend does not know: kept, and warned about once.
        #expect(try number("SELECT count(*) FROM v_menu WHERE codes LIKE '%ZZ%'", file) == 1)
        let unknown = report.manifest.checks.filter { $0.name == "unknown_code" }
        #expect(unknown.count == 1)
        #expect(unknown.first?.message.contains("\"ZZ\"") == true)
        #expect(unknown.first?.value == 1)
        #expect(report.manifest.checks.filter(\.blocksPublishing).isEmpty)
        #expect(report.manifest.partitions.map(\.status) == Array(repeating: .fetched, count: 5))
        // 3 overviews + 36 recipe pages + hours + meals + categories.
        #expect(report.manifest.inputs.count == 42)
        #expect(try number("SELECT count(*) FROM _sources", file) == 42)
        #expect(try number("SELECT count(*) FROM _runs", file) == 1)
        #expect(FileManager.default.fileExists(atPath: report.manifestPath))
    }

    @Test func aForcedSecondRunPublishesTheSameRowsAndLeavesTheFirstFileUntouched() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let spec = try sampleSpec()
        let first = URL(fileURLWithPath: try #require(try await runner(spec, workspace: workspace).run().snapshotPath))
        let firstBytes = try Data(contentsOf: first)
        let second = URL(fileURLWithPath: try #require(
            try await runner(spec, workspace: workspace, force: true).run().snapshotPath))
        #expect(first != second)
        #expect(try Data(contentsOf: first) == firstBytes)
        for table in SnapshotSchema.dataTables {
            let sql = "SELECT * FROM \(table)"
            let sorted = { (rows: [[SQLValue]]) in rows.map { "\($0)" }.sorted() }
            #expect(try sorted(rows(sql, first)) == sorted(rows(sql, second)), "\(table)")
            // The sample's labels are self-consistent (SampleData/README.md): no food is flagged;
            // each food's page is read once, so no food has label versions; and its recipe pages
            // list no composition. Its catalogue recipes are estimated (it names the reference).
            #expect(try rows(sql, first).isEmpty
                        == ["food_flag", "food_label", "food_label_nutrient", "food_component"].contains(table),
                    "\(table)")
        }
        let store = SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))
        #expect(store.latest(pipeline: "sample") == second)
        #expect(try store.list().count == 2)
    }

    /// Unchanged inputs: the second run reads only the pages that can change (three overviews,
    /// the hours page, the dump and categories files), finds every byte the same, and leaves the
    /// first snapshot as the current one instead of publishing a copy of it.
    @Test func aRunOnUnchangedInputsPublishesNothingAndNamesTheCurrentSnapshot() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let spec = try sampleSpec()
        let first = try await runner(spec, workspace: workspace).run()
        let file = URL(fileURLWithPath: try #require(first.snapshotPath))
        let fingerprint = try #require(first.manifest.inputsSHA256)
        #expect(try SnapshotReader.meta(of: file)["inputs_sha256"] == fingerprint)
        let opening = LatestSnapshot(reading: file)
        #expect(opening.inputsSHA256 == fingerprint)
        #expect(opening.stalePartitions == [])

        let second = try await runner(spec, workspace: workspace).run()
        #expect(second.unchanged && !second.published)
        #expect(second.snapshotPath == file.path)
        #expect(second.manifest.rowCounts == first.manifest.rowCounts)
        // The fingerprint the snapshot was found current by, and no stale partition: it has none.
        #expect(second.manifest.inputsSHA256 == fingerprint)
        #expect(!second.manifest.checks.contains { $0.name == "stale_partition" })
        #expect(second.manifest.partitions.allSatisfy { $0.status == .unchanged })
        // 3 overviews + hours + meals.json + categories.json, against 42 documents in all.
        #expect(second.manifest.stages.map(\.name) == [.fetch])
        #expect(second.manifest.stages.first?.counts["documents"] == 6)
        #expect(second.manifest.inputs.count == 42)
        #expect(FileManager.default.fileExists(atPath: second.manifestPath))
        let store = SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))
        #expect(try store.list().map(\.path) == [file.path])
        #expect(store.latest(pipeline: "sample") == file)
    }

    /// The fingerprint covers the pipeline, not only the pages: another daily-value standard,
    /// or another threshold, is another snapshot.
    @Test func changingThePipelinePublishesAgainOnTheSameInputs() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        var spec = try sampleSpec()
        let first = try await runner(spec, workspace: workspace).run()
        spec.checks.minMenuItems = (spec.checks.minMenuItems ?? 0) + 1
        let second = try await runner(spec, workspace: workspace).run()
        #expect(second.published)
        // UCLA's label prints sodium against 2,400 mg; the FDA's 2016 rule uses 2,300 mg.
        spec.dailyValues?.values[.sodium]?.amount = 2_300
        let third = try await runner(spec, workspace: workspace).run()
        #expect(third.published)
        let fingerprints = [first, second, third].compactMap(\.manifest.inputsSHA256)
        #expect(Set(fingerprints).count == 3)
    }

    @Test func aDryRunPrintsThePlanAndTouchesNothing() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let plan = try await runner(try sampleSpec(), workspace: workspace).plan()
        #expect(plan.steps.map(\.partition) == ["2026-10-10", "2026-10-11", "2026-10-12", "hours", "catalogue"])
        #expect(plan.steps.allSatisfy { $0.action == .fetch })
        #expect(plan.current == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.path).isEmpty)
    }

    /// On a workspace whose inputs have not changed, the dry run says what the run then does:
    /// every partition unchanged and the latest snapshot current; after one input changes, both
    /// say a new snapshot is built. The dry run writes nothing either way.
    @Test func aDryRunAndARunAgreeOnAnUnchangedWorkspace() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let copy = workspace.appendingPathComponent("SampleData")
        try FileManager.default.copyItem(at: Paths.packageRoot.appendingPathComponent("SampleData"), to: copy)
        var spec = try sampleSpec()
        spec.sources[0].location = .directory(copy.appendingPathComponent("menu.dining.ucla.edu"))
        let first = try await runner(spec, workspace: workspace).run()
        let published = try #require(first.snapshotPath)

        let listing = try recursiveListing(workspace)
        let plan = try await runner(spec, workspace: workspace).plan()
        let after = try recursiveListing(workspace)
        #expect(after == listing, "\(Set(after).symmetricDifference(listing).sorted())")
        #expect(plan.current == published)
        #expect(plan.steps.allSatisfy { $0.action == .unchanged })
        let rerun = try await runner(spec, workspace: workspace).run()
        #expect(rerun.unchanged && rerun.snapshotPath == published)

        let overview = copy.appendingPathComponent("menu.dining.ucla.edu/Menus/2026-10-11.html")
        try (try String(contentsOf: overview, encoding: .utf8) + "\n<!-- changed -->\n")
            .write(to: overview, atomically: true, encoding: .utf8)
        let changedPlan = try await runner(spec, workspace: workspace).plan()
        #expect(changedPlan.current == nil)
        #expect(changedPlan.steps.first { $0.partition == "2026-10-11" }?.action == .fetch)
        // The other four are compared too, as the run compares them before parsing: unchanged.
        #expect(changedPlan.steps.filter { $0.action == .unchanged }.map(\.partition).sorted()
                    == ["2026-10-10", "2026-10-12", "catalogue", "hours"])
        let changedRun = try await runner(spec, workspace: workspace).run()
        #expect(changedRun.published && !changedRun.unchanged)
        // The two other days and the hours page come from the parse cache; the dump is not cached.
        #expect(changedRun.manifest.stages.first { $0.name == .parse }?.counts["partitions_from_cache"] == 3)
    }

    /// Every file with its size and modification time; the ledger's `-shm` is left out, since
    /// SQLite's shared-memory index is touched by every reader of a WAL database.
    private func recursiveListing(_ folder: URL) throws -> [String] {
        let paths = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return try paths.filter { !$0.hasSuffix("-shm") }.sorted().map { path in
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path)
            return "\(path) \((attributes[.size] as? Int) ?? -1) \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        }
    }

    @Test func onlyMissingReplaysDonePartitionsFromTheRawStore() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let spec = try sampleSpec()
        let first = try await runner(spec, workspace: workspace).run()
        let plan = try await runner(spec, workspace: workspace, onlyMissing: true).plan()
        #expect(plan.steps.allSatisfy { $0.action == .reuse })
        let second = try await runner(spec, workspace: workspace, onlyMissing: true).run()
        #expect(second.manifest.partitions.map(\.status) == Array(repeating: .reused, count: 5))
        #expect(second.manifest.rowCounts == first.manifest.rowCounts)
    }

    @Test func aBlockingCheckKeepsTheLastGoodSnapshotLatest() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        var spec = try sampleSpec()
        let good = try #require(try await runner(spec, workspace: workspace).run().snapshotPath)
        spec.checks.minMenuItems = 1000
        let blocked = try await runner(spec, workspace: workspace).run()
        #expect(!blocked.published)
        #expect(blocked.blockingChecks.map(\.name) == ["min_menu_items"])
        #expect(blocked.manifestPath.contains("/state/runs/sample/"))
        let store = SnapshotStore(directory: workspace.appendingPathComponent("snapshots"))
        #expect(store.latest(pipeline: "sample")?.path == good)
        #expect(try store.list().count == 1)
    }

    @Test func aMissingDayFailsItsPartitionNamesTheURLAndBlocksPublishing() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let site = workspace.appendingPathComponent("site")
        try FileManager.default.copyItem(at: Paths.sampleData.appendingPathComponent("menu.dining.ucla.edu"), to: site)
        try FileManager.default.removeItem(at: site.appendingPathComponent("Menus/2026-10-11.html"))
        var spec = try sampleSpec()
        spec.sources[0].location = .directory(site)
        let report = try await runner(spec, workspace: workspace).run()
        #expect(!report.published)
        let failed = try #require(report.manifest.partitions.first { $0.status == .failed })
        #expect(failed.key == "2026-10-11")
        #expect(failed.message?.contains("Menus/2026-10-11") == true)
        #expect(report.blockingChecks.map(\.name).contains("partitions_complete"))
        // The other days were still read, and are remembered as done.
        #expect(report.manifest.partitions.filter { $0.status == .fetched }.count == 4)
    }
}

/// Text the source itself printed broken (U+FFFD where its bytes were in another encoding than
/// declared) is published as printed and reported with the partition and the page.
@Suite struct ReplacementCharacterTests {
    @Test func textHoldingUFFFDIsReportedWithItsPage() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        try FileManager.default.copyItem(at: Paths.packageRoot.appendingPathComponent("SampleData/menu.dining.ucla.edu"),
                                         to: site)
        let overview = site.appendingPathComponent("Menus/2026-10-12.html")
        let page = try String(contentsOf: overview, encoding: .utf8)
        let broken = page.replacingOccurrences(of: ">Breakfast Burrito w/ Salsa Roja</a>",
                                               with: ">Breakfast Burrito w/ Salsa Roja Caf\u{FFFD}</a>")
        #expect(broken != page)
        try Data(broken.utf8).write(to: overview)
        let yaml = """
            pipeline: broken-text
            licence: test
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: site
                dates: {from: 2026-10-11, to: 2026-10-12}
                recipe_pages: false
            checks: {min_menu_items: 1}
            """
        let spec = try SpecReader.parse(yaml, file: folder.appendingPathComponent("broken.yml"))
        let report = try await PipelineRunner(
            spec: spec, options: RunOptions(workspace: Workspace(root: folder), today: ServiceDate("2026-10-12")!),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        #expect(report.published)
        let warnings = report.manifest.checks.filter { $0.message.contains("U+FFFD") }
        #expect(warnings.count == 1)
        let line = warnings.first?.message ?? ""
        #expect(line.hasPrefix("ucla-menu/2026-10-12 (read from file://"))
        #expect(line.contains("/site/Menus/2026-10-12)"))
        #expect(line.contains("\"Breakfast Burrito w/ Salsa Roja Caf\u{FFFD}\""))
    }
}
