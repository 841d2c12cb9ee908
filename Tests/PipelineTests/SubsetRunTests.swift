import Basics
import Foundation
import Snapshot
import SnapshotTestSupport
import Testing
import TestSupport

/// Partitions an orchestrator can see and run, with the real binary: the plan lists each
/// partition by the key `--partition` takes; a run of some of them keeps their work and publishes
/// nothing while the night lacks a partition never harvested or failed, and the run that
/// completes the night publishes what a whole run publishes, row for row.
@Suite struct SubsetRunTests {
    /// The sample's five partitions (Pipelines/sample.yml: three days of the menu site, its hours
    /// page, the recipe dump), as `source/partition`.
    private static let keys = ["ucla-menu/2026-10-10", "ucla-menu/2026-10-11", "ucla-menu/2026-10-12", "ucla-menu/hours",
                               "mealdb/catalogue"]

    private func commissary(_ arguments: [String], spec: URL, workspace: URL) async throws -> CommissaryProcess.Outcome {
        try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path, "--as-of", "2026-10-12"]
                                        + arguments)
    }

    /// The plan as JSON: each step's key and action, in order, and whether the run would publish.
    private func plan(_ arguments: [String], spec: URL, workspace: URL) async throws
        -> (steps: [[String]], publishes: Bool?) {
        let outcome = try await commissary(["--dry-run", "--log-format", "json"] + arguments, spec: spec, workspace: workspace)
        #expect(outcome.status == 0, "\(outcome.error)")
        let plan = try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any]
        let steps = (plan?["steps"] as? [[String: Any]] ?? []).map { step in
            [step["key"] as? String ?? "", step["action"] as? String ?? ""]
        }
        return (steps, plan?["publishes"] as? Bool)
    }

    private func manifest(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
    }

    /// Every data table of both snapshots, rows sorted: ids are in the rows.
    private func expectSameRows(_ first: URL, _ second: URL) throws {
        for table in SnapshotSchema.dataTables {
            let sorted = { (file: URL) in try QueryResult.run("SELECT * FROM \(table)", on: file).rows.map { "\($0)" }.sorted() }
            #expect(try sorted(first) == sorted(second), "\(table)")
        }
    }

    @Test func aNightRunPartitionByPartitionPublishesOnceCompleteAndAsAWholeRun() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (spec, _) = try SampleCopy.make(in: folder)
        let workspace = folder.appendingPathComponent("workspace")
        let snapshots = workspace.appendingPathComponent("snapshots")

        let whole = try await plan([], spec: spec, workspace: workspace)
        #expect(whole.steps == Self.keys.map { [$0, "fetch"] })
        #expect(whole.publishes == true)
        let subset = try await plan(["--partition", "ucla-menu/2026-10-11"], spec: spec, workspace: workspace)
        #expect(subset.steps == Self.keys.map { [$0, $0 == "ucla-menu/2026-10-11" ? "fetch" : "awaited"] })
        #expect(subset.publishes == false)

        // One partition alone: harvested and kept, nothing published.
        let first = try await commissary(["--partition", "ucla-menu/2026-10-11"], spec: spec, workspace: workspace)
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output.hasPrefix("Harvested 1 partition(s) of an incomplete night; nothing published"))
        #expect(!FileManager.default.fileExists(atPath: snapshots.appendingPathComponent("latest-sample").path))
        let path = try #require(first.output.firstMatch(of: /Manifest: (\S+\.manifest\.json)/)?.output.1)
        let harvested = try manifest(String(path))
        #expect(harvested["status"] as? String == "harvested")
        #expect((harvested["partitions"] as? [[String: Any]])?.map { "\($0["key"] ?? "") \($0["status"] ?? "")" }
                == ["2026-10-11 fetched"])
        // The plan now replays it and still awaits the four others.
        let after = try await plan(["--partition", "ucla-menu/2026-10-10"], spec: spec, workspace: workspace)
        #expect(after.steps.map { $0[1] } == ["fetch", "reuse", "awaited", "awaited", "awaited"])

        for key in Self.keys.filter({ $0 != "ucla-menu/2026-10-11" }).dropLast() {
            let outcome = try await commissary(["--partition", key, "--quiet"], spec: spec, workspace: workspace)
            #expect(outcome.status == 0 && outcome.output.isEmpty, "\(key): \(outcome.error)")
            #expect(!FileManager.default.fileExists(atPath: snapshots.appendingPathComponent("latest-sample").path))
        }
        // The last one completes the night: the four others replayed, the whole night published.
        let last = try await commissary(["--partition", "mealdb/catalogue"], spec: spec, workspace: workspace)
        #expect(last.status == 0, "\(last.error)")
        #expect(last.output.hasPrefix("Published "))
        #expect(last.output.contains("Partitions: 1 fetched, 4 reused, 0 stale, 0 failed"))
        let assembled = try #require(SnapshotStore(directory: snapshots).latest(pipeline: "sample"))
        // 124 items in the sample (SampleData/README.md).
        #expect(try SnapshotReader.rowCounts(of: assembled)["menu_item"] == 124)
        // A retry of one partition whose page is as it was, on a complete night: it asks for that
        // partition's documents alone, and the night is current; nothing is published again.
        let retry = try await commissary(["--partition", "ucla-menu/2026-10-11"], spec: spec, workspace: workspace)
        #expect(retry.status == 0, "\(retry.error)")
        #expect(retry.output.hasPrefix("Unchanged: every input is byte-for-byte what \(assembled.path) was built from"),
                "\(retry.output)")
        #expect(SnapshotStore(directory: snapshots).latest(pipeline: "sample") == assembled)

        let wholeWorkspace = folder.appendingPathComponent("whole")
        let wholeRun = try await commissary([], spec: spec, workspace: wholeWorkspace)
        #expect(wholeRun.status == 0, "\(wholeRun.error)")
        let wholeSnapshot = try #require(SnapshotStore(directory: wholeWorkspace.appendingPathComponent("snapshots"))
            .latest(pipeline: "sample"))
        try expectSameRows(assembled, wholeSnapshot)
    }

    /// A key that names no partition is refused before anything is begun, naming it and the run's
    /// partitions; a key without its source is refused as such.
    @Test func aPartitionThatIsNotTheRunsIsRefusedAndNamed() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (spec, _) = try SampleCopy.make(in: folder)
        let workspace = folder.appendingPathComponent("workspace")
        let unknown = try await commissary(["--partition", "ucla-menu/2026-10-13"], spec: spec, workspace: workspace)
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("no partition of this run is named ucla-menu/2026-10-13; its partitions are "
                                       + "ucla-menu/2026-10-10, ucla-menu/2026-10-11"))
        let bare = try await commissary(["--partition", "2026-10-11"], spec: spec, workspace: workspace)
        #expect(bare.status == 1)
        #expect(bare.error.contains("SOURCE/PARTITION"))
        // Nothing was begun: the whole run that follows fetches every partition, resuming none.
        let whole = try await plan([], spec: spec, workspace: workspace)
        #expect(whole.steps.map { $0[1] } == Array(repeating: "fetch", count: 5))
    }

    /// A run refused as it opens (a key that names no partition), after a night that published,
    /// leaves nothing in staging: the copy of the latest snapshot it began as it opened
    /// (`StagingCopy`) goes with it.
    @Test func aRunRefusedAsItOpensLeavesNoCopyBehind() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (spec, _) = try SampleCopy.make(in: folder)
        let workspace = folder.appendingPathComponent("workspace")
        let first = try await commissary([], spec: spec, workspace: workspace)
        #expect(first.status == 0, "\(first.error)")
        let unknown = try await commissary(["--partition", "ucla-menu/2026-10-13"], spec: spec, workspace: workspace)
        #expect(unknown.status == 1)
        let staging = workspace.appendingPathComponent("staging").path
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []).isEmpty)
    }

    /// A partition of the subset that cannot be harvested fails the run, naming it (its page is
    /// gone: the input's fault, exit 1); a retry once the page is back harvests it.
    @Test func aSubsetPartitionThatFailsFailsTheRunAndARetryHarvestsIt() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (spec, site) = try SampleCopy.make(in: folder)
        let workspace = folder.appendingPathComponent("workspace")
        let page = site.appendingPathComponent("Menus/2026-10-12.html")
        let aside = folder.appendingPathComponent("2026-10-12.html")
        try FileManager.default.moveItem(at: page, to: aside)
        let failed = try await commissary(["--partition", "ucla-menu/2026-10-12"], spec: spec, workspace: workspace)
        #expect(failed.status == 1)
        #expect(failed.error.contains("1 partition(s) could not be harvested: 2026-10-12 (ucla-menu"))
        // Another partition's run waits for that one, and says it failed rather than that it was
        // never harvested, as the others were.
        let other = try await commissary(["--partition", "ucla-menu/2026-10-11"], spec: spec, workspace: workspace)
        #expect(other.status == 0, "\(other.error)")
        #expect(other.error.contains("a night that waits for 3 never harvested (ucla-menu/2026-10-10, ucla-menu/hours, "
                                     + "mealdb/catalogue) and 1 failed when last harvested (ucla-menu/2026-10-12)"),
                "\(other.error)")
        try FileManager.default.moveItem(at: aside, to: page)
        let retried = try await commissary(["--partition", "ucla-menu/2026-10-12"], spec: spec, workspace: workspace)
        #expect(retried.status == 0, "\(retried.error)")
        #expect(retried.output.contains("Partitions: 1 fetched, 0 reused, 0 stale, 0 failed"))
    }
}
