import DiningSources
import FoodModel
import Fetching
import Foundation
import Logging
import Snapshot

/// How a run was asked for on the command line.
public struct RunOptions: Sendable {
    public var workspace: Workspace
    /// Replaces the pipeline's own dates (`--date`, `--from`/`--to`).
    public var dates: DateSelection?
    public var today: ServiceDate
    /// Fetch every partition again, even those the ledger has.
    public var force: Bool
    /// Fetch only partitions the ledger does not have as done; replay the rest from `raw/`.
    public var onlyMissing: Bool
    /// The command line, recorded in `_runs` and the manifest.
    public var arguments: [String]

    public init(workspace: Workspace, dates: DateSelection? = nil, today: ServiceDate,
                force: Bool = false, onlyMissing: Bool = false, arguments: [String] = []) {
        self.workspace = workspace
        self.dates = dates
        self.today = today
        self.force = force
        self.onlyMissing = onlyMissing
        self.arguments = arguments
    }
}

/// Runs one pipeline through its stages: fetch → parse → normalize → compute → check → publish.
public struct PipelineRunner: Sendable {
    public let spec: PipelineSpec
    public let options: RunOptions
    let observer: any RunObserver
    let logger: Logger
    let runId: String
    /// The UTC day the run id's time belongs to, which names the snapshot file.
    let runDate: String

    public init(spec: PipelineSpec, options: RunOptions, observer: any RunObserver, logger: Logger) {
        self.spec = spec
        self.options = options
        self.observer = observer
        self.logger = logger
        let instant = Date()
        self.runId = Self.makeRunId(at: instant)
        self.runDate = String(isoTimestamp(instant).prefix(10))
    }

    /// `HHMMSSmmm` (UTC, to the millisecond) plus two random hex digits: run ids of one day sort
    /// in the order the runs started — retention and resumption rely on that — and two runs
    /// started in the same millisecond still differ.
    static func makeRunId(at instant: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: instant)
        let milliseconds = (parts.nanosecond ?? 0) / 1_000_000
        let time = String(format: "%02d%02d%02d%03d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0,
                          milliseconds)
        return time + String(format: "%02x", UInt8.random(in: 0...UInt8.max))
    }

    // MARK: - Plan

    /// What a run would do. Reads the ledger if there is one; creates and writes nothing.
    public func plan() throws -> RunPlan {
        let ledgerURL = options.workspace.ledger(pipeline: spec.name)
        let ledger = FileManager.default.fileExists(atPath: ledgerURL.path) ? try StateLedger(url: ledgerURL) : nil
        let interrupted = Set(try ledger?.interruptedRuns() ?? [])
        var steps: [RunPlan.Step] = []
        for (harvester, _) in try harvesters() {
            for key in harvester.partitions {
                let previous = try ledger?.state(source: harvester.source.name, key: key)
                steps.append(RunPlan.Step(
                    source: harvester.source.name, adapter: harvester.source.adapter.rawValue,
                    location: harvester.source.location.description, partition: key,
                    action: reuses(previous, interrupted: interrupted) ? "reuse" : "fetch"))
            }
        }
        return RunPlan(pipeline: spec.name, pipelineFile: spec.file.path, today: options.today.description,
                       steps: steps, snapshotsFolder: options.workspace.snapshots.path,
                       latest: SnapshotStore(directory: options.workspace.snapshots).latest(pipeline: spec.name)?.path)
    }

    func reuses(_ previous: PartitionState?, interrupted: Set<String>) -> Bool {
        guard !options.force, let previous, previous.status == .done else { return false }
        return options.onlyMissing || interrupted.contains(previous.runId)
    }

    // MARK: - Run

    public func run() async throws -> RunReport {
        let started = Date()
        let workspace = options.workspace
        let lock = try RunLock(workspace.lock(pipeline: spec.name), pipeline: spec.name)
        defer { withExtendedLifetime(lock) {} }
        let store = SnapshotStore(directory: workspace.snapshots)
        store.removeLeftovers(pipeline: spec.name)
        let ledger = try StateLedger(url: workspace.ledger(pipeline: spec.name))
        let interruptedRuns = try ledger.interruptedRuns()
        let interrupted = Set(interruptedRuns)
        try ledger.beginRun(runId, startedAt: isoTimestamp(started))
        let work = try partitionWork(try harvesters(), ledger: ledger, interrupted: interrupted)
        emit(.runStarted, message: interruptedRuns.last.map { "resuming the partitions of interrupted run \($0)" },
             counts: ["partitions": work.count])

        // fetch: first only what can change, to learn whether anything did.
        emit(.stageStarted, stage: "fetch")
        let revalidation = await revalidate(work, store: store, interrupted: !interruptedRuns.isEmpty)
        if let current = revalidation.currentSnapshot {
            return try finishUnchanged(revalidation, current: current, ledger: ledger, started: started)
        }

        // fetch and parse, several partitions at a time, each committed to the ledger on its own;
        // the days go into a staging database as they come (the write stage, overlapped).
        let fileName = SnapshotStore.fileName(pipeline: spec.name, date: runDate, runId: runId)
        let staging = try StagingSnapshot(creatingAt: workspace.staging.appendingPathComponent(fileName))
        defer { staging.discard() }
        let menus = MenuStream(staging: staging)
        let harvest = try await fetchAndParse(revalidation.work, ledger: ledger, menus: menus)
        let inputsSHA256 = harvest.fingerprint.sha256
        var dataset = harvest.dataset
        let digest = menus.digest
        let failed = harvest.failed
        let warnings = harvest.warnings
        let partitions = harvest.partitions
        var parseCounts = partitionCounts(of: dataset, documents: dataset.documents.count)
        if digest.menuItemCount > 0 { parseCounts["menu_items"] = digest.menuItemCount }
        var stages = [
            RunManifest.Stage(name: "fetch", seconds: revalidation.seconds + harvest.fetchSeconds,
                              counts: ["documents": dataset.documents.count]),
            RunManifest.Stage(name: "parse", seconds: harvest.parseSeconds, counts: parseCounts),
        ]
        for stage in stages { emit(.stageFinished, stage: stage.name, seconds: stage.seconds, counts: stage.counts) }

        // normalize: partitions merged in partition order (identities deduplicated by the merge).
        var stageStarted = Date()
        emit(.stageStarted, stage: "normalize")
        stages.append(finish("normalize", since: stageStarted, counts: [
            "service_days": digest.mealsByDay.count, "foods": dataset.foods.count,
            "recipes": dataset.recipes.count,
        ]))

        // compute: %DV under the pipeline's daily-value standard.
        stageStarted = Date()
        emit(.stageStarted, stage: "compute")
        if let standard = spec.dailyValues {
            dataset.foods = dataset.foods.mapValues(standard.apply)
        }
        let computed = dataset.foods.values.reduce(0) { total, food in
            total + food.nutrients.filter { $0.computedDailyValuePercent != nil }.count
        }
        let swipeRows = spec.swipes.map { $0.rows($0.balances(menus: digest.mealsByDay)) }
        stages.append(finish("compute", since: stageStarted, counts: [
            "dv_computed": computed, "swipe_balances": swipeRows?.balances.count ?? 0,
        ]))

        // write: the rest of the dataset next to the days already in staging, in one transaction;
        // the stage's time includes the days' share.
        stageStarted = Date()
        emit(.stageStarted, stage: "write")
        try staging.finish(dataset, menus: digest, codes: UCLAWebCodes.all)
        if let swipeRows { try staging.writeSwipes(plans: swipeRows.plans, balances: swipeRows.balances) }
        let nutrition = NutritionChecks().review(Array(dataset.foods.values), standard: spec.dailyValues)
        try staging.write(agreements: nutrition.agreements, flags: nutrition.flags)
        let rowCounts = try staging.rowCounts()
        let write = RunManifest.Stage(name: "write", seconds: menus.seconds + Date().timeIntervalSince(stageStarted),
                                      counts: rowCounts)
        emit(.stageFinished, stage: write.name, seconds: write.seconds, counts: write.counts)
        stages.append(write)

        // check: gates against the policy and the previous snapshot.
        stageStarted = Date()
        emit(.stageStarted, stage: "check")
        let previous = try store.latest(pipeline: spec.name).map(SnapshotReader.rowCounts(of:))
        let checks = Checks(spec: spec).evaluate(
            dataset: dataset, menus: digest, counts: rowCounts, previous: previous, failedPartitions: failed,
            warnings: warnings) + nutrition.outcomes
        for check in checks { emit(.check, stage: "check", status: check.passed ? "passed" : "failed", check: check) }
        let blocking = checks.filter(\.blocksPublishing)
        stages.append(finish("check", since: stageStarted,
                             counts: ["checks": checks.count, "blocking": blocking.count]))

        // publish, unless a blocking check failed.
        stageStarted = Date()
        let run = RunRecord(
            runId: runId, pipeline: spec.name, startedAt: isoTimestamp(started),
            codeVersion: CommissaryVersion.current, arguments: options.arguments,
            partitions: partitions.count,
            sources: spec.sources.map { "\($0.name) (\($0.adapter.rawValue)): \($0.location)" },
            licence: spec.licence, inputsSHA256: inputsSHA256)
        try staging.record(run: run, checks: checks, documents: dataset.documents)
        var manifest = RunManifest(
            pipeline: spec.name, pipelineFile: spec.file.path, runId: runId,
            codeVersion: CommissaryVersion.current, arguments: options.arguments,
            startedAt: isoTimestamp(started), finishedAt: "", today: options.today.description,
            snapshot: blocking.isEmpty ? fileName : nil, published: blocking.isEmpty, unchanged: false,
            inputsSHA256: inputsSHA256, partitions: partitions, inputs: dataset.documents, stages: stages,
            checks: checks, rowCounts: rowCounts)
        var snapshotPath: String?
        let manifestPath: String
        if blocking.isEmpty {
            emit(.stageStarted, stage: "publish")
            // The manifest file is written by the publication itself, so it records the stages
            // before it; the publish stage's time is in the report and the run's last events.
            manifest.finishedAt = isoTimestamp(Date())
            let published = try store.publish(staging, fileName: fileName, pipeline: spec.name,
                                              manifest: try encode(manifest))
            snapshotPath = published.path
            manifestPath = published.path + ".manifest.json"
            manifest.stages.append(finish("publish", since: stageStarted, counts: [:]))
            emit(.published, counts: rowCounts, path: published.path)
            applyRetention(store: store, keeping: published)
        } else {
            manifest.finishedAt = isoTimestamp(Date())
            manifestPath = try writeUnpublishedManifest(manifest)
            emit(.notPublished, message: blocking.map(\.message).joined(separator: "; "), path: manifestPath)
        }
        try ledger.finishRuns()
        let seconds = Date().timeIntervalSince(started)
        emit(.runFinished, status: snapshotPath == nil ? "not_published" : "published", seconds: seconds,
             path: snapshotPath)
        return RunReport(manifest: manifest, snapshotPath: snapshotPath, manifestPath: manifestPath,
                         seconds: seconds)
    }

    /// The end of a run whose inputs are those of the latest snapshot: nothing is parsed or
    /// published; the manifest, under `state/runs/`, names the snapshot that is still current
    /// and carries its row counts.
    private func finishUnchanged(_ revalidation: Revalidation, current: URL, ledger: StateLedger,
                                 started: Date) throws -> RunReport {
        let fetch = RunManifest.Stage(name: "fetch", seconds: revalidation.seconds,
                                      counts: ["documents": revalidation.documentsFetched])
        emit(.stageFinished, stage: fetch.name, seconds: fetch.seconds, counts: fetch.counts)
        let partitions = revalidation.work.map { item in
            let documents = item.previous?.documents.count ?? 0
            return RunManifest.Partition(source: item.harvester.source.name, key: item.key, status: "unchanged",
                                         documents: documents, documentsReused: documents - item.refetched,
                                         notModified: item.notModified, message: nil)
        }
        let manifest = RunManifest(
            pipeline: spec.name, pipelineFile: spec.file.path, runId: runId,
            codeVersion: CommissaryVersion.current, arguments: options.arguments,
            startedAt: isoTimestamp(started), finishedAt: isoTimestamp(Date()), today: options.today.description,
            snapshot: current.lastPathComponent, published: false, unchanged: true,
            inputsSHA256: try SnapshotReader.inputsSHA256(of: current), partitions: partitions,
            inputs: revalidation.work.flatMap { $0.previous?.documents ?? [] }, stages: [fetch], checks: [],
            rowCounts: try SnapshotReader.rowCounts(of: current))
        let manifestPath = try writeUnpublishedManifest(manifest)
        try ledger.finishRuns()
        emit(.unchanged, message: "every input is what \(current.lastPathComponent) was built from", path: current.path)
        let seconds = Date().timeIntervalSince(started)
        emit(.runFinished, status: "unchanged", seconds: seconds, path: current.path)
        return RunReport(manifest: manifest, snapshotPath: current.path, manifestPath: manifestPath, seconds: seconds)
    }

    // MARK: - Helpers

    /// Retention runs only after a publish succeeded. Failing to remove an old file does not
    /// undo the publication, so it is logged rather than thrown.
    private func applyRetention(store: SnapshotStore, keeping published: URL) {
        guard let policy = spec.retention else { return }
        do {
            for removed in try store.applyRetention(policy, pipeline: spec.name, keeping: published) {
                logger.info("retention removed an old snapshot", metadata: ["path": "\(removed.path)"])
            }
        } catch {
            logger.warning("retention failed", metadata: ["error": "\(error)"])
        }
    }

    private func finish(_ stage: String, since start: Date, counts: [String: Int]) -> RunManifest.Stage {
        let result = RunManifest.Stage(name: stage, seconds: Date().timeIntervalSince(start), counts: counts)
        emit(.stageFinished, stage: stage, seconds: result.seconds, counts: counts)
        return result
    }

    private func encode(_ manifest: RunManifest) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(manifest)
    }

    /// A run that did not publish still leaves its manifest, under `state/runs/`, for the record.
    private func writeUnpublishedManifest(_ manifest: RunManifest) throws -> String {
        let folder = options.workspace.runManifests(pipeline: spec.name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("\(runId).manifest.json")
        try encode(manifest).write(to: url, options: .atomic)
        return url.path
    }

    func emit(_ kind: RunEvent.Kind, stage: String? = nil, source: String? = nil,
                      partition: String? = nil, status: String? = nil, message: String? = nil,
                      seconds: Double? = nil, counts: [String: Int]? = nil, path: String? = nil,
                      check: CheckOutcome? = nil) {
        observer.observe(RunEvent(kind, pipeline: spec.name, runId: runId, stage: stage, source: source,
                                  partition: partition, status: status, message: message,
                                  seconds: seconds, counts: counts, path: path, check: check))
    }
}
