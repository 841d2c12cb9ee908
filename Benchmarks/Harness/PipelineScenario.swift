import Basics
import FoodModel
import Foundation
import GRDB
import Logging
import Pipeline
import PostgresTarget
import Report
import Snapshot
import SourceAdapters

/// One real pipeline run, as `commissary run` does it, on a corpus folder or dump file, into a
/// workspace the parent chose (the same one twice for the unchanged rerun).
enum PipelineScenario {
    /// `postgres`: where the run also publishes (`commissary-bench postgres`), if anywhere.
    static func menus(corpus: URL, from: ServiceDate, days: Int, workspace: URL, repository: URL,
                      postgres: PostgresTarget? = nil) async throws -> Measurement {
        let source = SourceSpec(name: "ucla-menu", adapter: UCLAMenuSiteAdapter(), location: .directory(corpus),
                                dates: .range(from: from, to: from.adding(days: days - 1)),
                                settings: UCLAMenuSiteAdapter.Settings(hours: false))
        var spec = try spec(name: "bench-menus", source: source, minMenuItems: 1, repository: repository)
        spec.postgres = postgres
        return try await run(spec, workspace: workspace, today: from)
    }

    static func recipes(dump: URL, workspace: URL, repository: URL) async throws -> Measurement {
        let source = SourceSpec(name: "mealdb", adapter: MealDBDumpAdapter(), location: .file(dump),
                                settings: MealDBDumpAdapter.Settings())
        guard let today = ServiceDate("2026-01-01") else { throw BenchError("bad constant date") }
        return try await run(spec(name: "bench-recipes", source: source, minMenuItems: 0, repository: repository),
                             workspace: workspace, today: today)
    }

    /// One night of UCLA's live feed (`Pipelines/nightly-ucla.yml` pointed at a local server),
    /// run at 02:00 UTC of `night` on the run's clock, so that what is due is what that night's
    /// would be; in the same workspace night after night. No report page: its time would count in
    /// the night's CPU.
    static func liveNight(pipeline: URL, night: ServiceDate, workspace: URL) async throws -> Measurement {
        let moment = Date(timeIntervalSince1970: Double(night.daysSinceEpoch) * 86_400 + 7_200)
        return try await run(try SpecReader.read(pipeline), workspace: workspace, today: night,
                             clock: RunClock(now: { moment }, clock: ContinuousClock()), reportPage: false)
    }

    /// The daily-value standard is the sample pipeline's (`ucla-label`), read by the project's
    /// own reader, so the compute stage does the work a real menu run does.
    private static func spec(name: String, source: SourceSpec, minMenuItems: Int, repository: URL) throws
        -> PipelineSpec {
        let sample = try SpecReader.read(repository.appendingPathComponent("Pipelines/sample.yml"))
        var spec = PipelineSpec(name: name, description: "commissary-bench", file: sample.file,
                                licence: "benchmark corpus", sources: [source],
                                checks: CheckPolicy(minMenuItems: minMenuItems), fetch: FetchSettings(),
                                dailyValues: sample.dailyValues)
        // The report page is timed on its own, after the run (`Measurement.reportSeconds`), so the
        // run's figures stay comparable with earlier ones and the page's cost is printed beside them.
        spec.reportPage = false
        return spec
    }

    private static func run(_ spec: PipelineSpec, workspace: URL, today: ServiceDate, clock: RunClock = .system,
                            reportPage: Bool = true) async throws -> Measurement {
        let options = RunOptions(workspace: Workspace(root: workspace), today: today,
                                 arguments: ["commissary-bench"], clock: clock)
        let runner = PipelineRunner(spec: spec, options: options, observer: SilentObserver(),
                                    logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))
        let started = now()
        let report = try await runner.run()
        let seconds = now() - started
        guard let snapshot = report.snapshotPath else {
            let reasons = report.blockingChecks.map(\.message).joined(separator: "; ")
            throw BenchError("the run published nothing: \(reasons)")
        }
        let manifest = report.manifest
        let snapshotBytes = (try? FileManager.default.attributesOfItem(atPath: snapshot)[.size] as? Int) ?? 0
        var measurement = Measurement(
            seconds: seconds, cpuSeconds: ProcessResources.cpuSeconds(), peakKB: ProcessResources.peakResidentKB() ?? 0,
            stages: manifest.stages.map { .init(name: $0.name.rawValue, seconds: $0.seconds) },
            documents: manifest.inputs.count, bytes: manifest.inputs.reduce(0) { $0 + $1.byteCount },
            rows: manifest.rowCounts.values.reduce(0, +), snapshot: snapshot, manifest: report.manifestPath,
            snapshotBytes: snapshotBytes)
        measurement.counts = manifest.stages.first { $0.name == .fetch }?.counts ?? [:]
        let kept = { (stage: StageName, count: String) in
            manifest.stages.first { $0.name == stage }?.counts[count] == 1
        }
        measurement.keptTables = ((kept(.write, "food_tables_kept") ? StagingSnapshot.foodTables : [])
            .union(kept(.check, "review_tables_kept") ? StagingSnapshot.reviewTables : [])).sorted()
        guard reportPage else { return measurement }
        // The page as a nightly run after a new build makes it: the snapshot compared with a copy
        // of itself that says another build wrote its rows, so that the days are told unchanged by
        // their items digests alone. Then at its largest: a copy without items digests either,
        // so that every item of both is matched.
        let otherBuild = try copyWrittenByAnotherBuild(URL(fileURLWithPath: snapshot), itemsDigests: true)
        defer { try? FileManager.default.removeItem(at: otherBuild) }
        let pageStarted = now()
        _ = try ReportPage.html(for: URL(fileURLWithPath: snapshot), previous: otherBuild)
        measurement.reportSeconds = now() - pageStarted
        let undigested = try copyWrittenByAnotherBuild(URL(fileURLWithPath: snapshot), itemsDigests: false)
        defer { try? FileManager.default.removeItem(at: undigested) }
        let everyDayStarted = now()
        _ = try ReportPage.html(for: URL(fileURLWithPath: snapshot), previous: undigested)
        measurement.reportEveryDaySeconds = now() - everyDayStarted
        // The change file at its largest scan: a night compares every row of every table with
        // the night before's, and a snapshot against itself does all of that comparing.
        let snapshotURL = URL(fileURLWithPath: snapshot)
        let changesStarted = now()
        try SnapshotStore(directory: snapshotURL.deletingLastPathComponent())
            .writeChanges(try ChangeSet.between(snapshotURL, snapshotURL), beside: snapshotURL)
        measurement.changesSeconds = now() - changesStarted
        return measurement
    }

    /// A copy of `snapshot` beside it whose `_meta` names another build as the writer of its
    /// rows; without its days' items digests unless `itemsDigests`, as a snapshot from before them.
    private static func copyWrittenByAnotherBuild(_ snapshot: URL, itemsDigests: Bool) throws -> URL {
        let copy = snapshot.deletingLastPathComponent()
            .appendingPathComponent(itemsDigests ? ".bench-other-build.sqlite" : ".bench-other-build-undigested.sqlite")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: snapshot, to: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
        try DatabaseQueue(path: copy.path).write { db in
            try db.execute(sql: "UPDATE _meta SET value = 'another build' WHERE key = ?",
                           arguments: [StagingSnapshot.dayRowsCodeKey])
            if !itemsDigests { try db.execute(sql: "ALTER TABLE _day_rows DROP COLUMN items_sha256") }
        }
        return copy
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
