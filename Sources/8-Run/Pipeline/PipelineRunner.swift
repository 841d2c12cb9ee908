import Basics
import Fetching
import FoodModel
import Foundation
import Logging
import Snapshot
import SourceAdapters

/// How a run was asked for on the command line.
public struct RunOptions: Sendable {
    public var workspace: Workspace
    /// Replaces the pipeline's own dates (`--date`, `--from`/`--to`).
    public var dates: DateSelection?
    /// The day `days_ahead` and `history: last_days` count from, and the manifest's `today`.
    public var today: ServiceDate
    /// `--as-of`: the run is dated this day, which is also `today`: the snapshot is named with it
    /// (`<pipeline>-<as-of>-<run>.sqlite`). Nil: the snapshot is named with the run's UTC day.
    /// Stamps of real time (the run id, `started_at`, `fetched_at`) stay real either way.
    public var asOf: ServiceDate?
    /// Fetch every partition again, even those the ledger has.
    public var force: Bool
    /// Fetch only partitions the ledger does not have as done; replay the rest from `raw/`.
    public var onlyMissing: Bool
    /// `--partition`: do these partitions alone, the others replayed as last done; nil for all.
    public var partitions: PartitionSelection?
    /// The command line, recorded in `_runs` and the manifest.
    public var arguments: [String]
    /// The time the run stamps its records with and waits on (fetch spacing, retries, deadline).
    public var clock: RunClock

    public init(workspace: Workspace, dates: DateSelection? = nil, today: ServiceDate,
                force: Bool = false, onlyMissing: Bool = false, arguments: [String] = [],
                clock: RunClock = .system) {
        self.workspace = workspace
        self.dates = dates
        self.today = today
        self.force = force
        self.onlyMissing = onlyMissing
        self.arguments = arguments
        self.clock = clock
    }
}

/// Runs one pipeline through its stages (`StageName`): revalidate, then fetch and parse
/// together (the harvest), compute, write, check, publish, and finish with the manifest.
public struct PipelineRunner: Sendable {
    let context: StageContext

    public var spec: PipelineSpec { context.spec }
    public var options: RunOptions { context.options }

    public init(spec: PipelineSpec, options: RunOptions, observer: any RunObserver, logger: Logger) {
        context = StageContext(spec: spec, options: options, observer: observer, logger: logger)
    }

    // MARK: - Plan

    /// What a run would do, decided as `run` decides it: the ledger says which partitions are
    /// replayed, and the documents that can change are fetched again (stored nowhere) to tell
    /// which partitions changed and whether the latest snapshot is still current. Creates and
    /// writes nothing.
    public func plan() async throws -> RunPlan {
        let ledgerURL = options.workspace.ledger(pipeline: spec.name)
        let ledger = FileManager.default.fileExists(atPath: ledgerURL.path)
            ? try StateLedger.copy(of: ledgerURL) : nil
        let interrupted = try ledger?.interruptedRuns() ?? []
        let work = try context.partitionWork(try context.harvesters(storing: false), ledger: ledger,
                                             interrupted: Set(interrupted))
        try options.partitions?.check(against: work.filter { !$0.history }.map(\.selectionKey))
        let latest = SnapshotStore(directory: options.workspace.snapshots).latest(pipeline: spec.name)
            .map(LatestSnapshot.init(reading:))
        var quiet = context
        quiet.observer = SilentObserver()
        var revalidation = await Revalidate(context: quiet).run(work, latest: latest, resuming: !interrupted.isEmpty)
        // A run compares the partitions revalidation did not reach before parsing them (the parse
        // cache takes those unchanged); the plan does the same, so it says which would be parsed.
        if revalidation.currentSnapshot == nil, !options.force {
            let pending = revalidation.work.filter(\.awaitsRevalidation)
            let shared = SharedRevalidation(pending)
            for item in pending {
                var checked = await Revalidate.revalidate(item, shared: shared).0
                checked.prefetched = [:]
                revalidation.work[item.index] = checked
            }
        }
        let steps = revalidation.work.map { item in
            let action: RunPlan.Action = item.awaited ? .awaited : item.reused ? .reuse : item.confirmed ? .unchanged : .fetch
            return RunPlan.Step(source: item.harvester.source.name, adapter: item.harvester.source.adapter.name,
                                location: item.harvester.source.location.description, partition: item.key,
                                key: item.selectionKey, action: action)
        }
        return RunPlan(pipeline: spec.name, pipelineFile: spec.file.path, today: options.today.description,
                       steps: steps, snapshotsFolder: options.workspace.snapshots.path, latest: latest?.url.path,
                       current: revalidation.currentSnapshot?.url.path,
                       publishes: revalidation.currentSnapshot == nil && !work.contains(where: \.awaited))
    }

    // MARK: - Run

    /// Runs the pipeline. When the task running it is cancelled (the command does so on SIGINT,
    /// SIGTERM or SIGHUP), the run stops at the next partition or stage boundary: partitions
    /// already finished stay committed to the ledger, the run stays recorded as unfinished (so
    /// the next run resumes it as after a kill), staging is removed, a `run_finished` event says
    /// `interrupted`, and `Failure.runInterrupted` is thrown. A publication that has begun is
    /// completed; what it lost to the stop (its report page) is said as for any other cause.
    public func run() async throws -> RunReport {
        do {
            return try await runStages()
        } catch where Task.isCancelled && (error as? Failure)?.code != .publishedIncompletely {
            context.emit(.runFinished, status: RunStatus.interrupted.rawValue,
                         message: "stopped before publishing; the next run resumes from the partitions already done")
            throw Failure.runInterrupted
        }
    }

    /// The days the pipeline's sources cover in this run (the command line's dates win).
    private var runDays: Set<ServiceDate> {
        let setup = HarvestSetup(dates: context.options.dates, today: context.options.today)
        return Set(spec.sources.flatMap { setup.days(of: $0) ?? [] })
    }

    /// The stages, in order. Revalidation that finds every input unchanged ends the run there;
    /// a blocking check skips the publication.
    private func runStages() async throws -> RunReport {
        let run = try OpenRun(context)
        defer { withExtendedLifetime(run.lock) {} }
        defer { run.stagingCopy?.discard() }
        var log = StageLog(context)
        if !run.awaited.isEmpty { return try await harvestSelected(of: run, log: &log) }
        let revalidation = try await revalidate(run.work, of: run, latest: run.latest)
        let finish = Finish(context: context, store: run.store, ledger: run.ledger)
        if let current = revalidation.currentSnapshot { return try finish.unchanged(revalidation, current: current) }
        let fileName = context.snapshotFileName
        let staging = try staging(named: fileName, continuing: run.continuesLatest ? run.latest : nil,
                                  copiedAhead: run.stagingCopy)
        defer { staging.discard() }
        var harvest = try await self.harvest(revalidation, of: run, into: staging, log: &log)
        // Read while compute, write and check leave a core idle, for the page of the night.
        let pageCounts = spec.reportPage
            ? ServedDayCountsStore(url: context.options.workspace.reportDayCounts(pipeline: spec.name)).readingAhead() : nil
        let menus = harvest.menus.digest
        let computed = log.time(.compute) {
            let (dataset, labels) = harvest.outcome.handOverFoods()
            return Compute(spec: spec, days: runDays).run(consume dataset, labels: consume labels, menus: menus)
        }
        let written = try log.time(.write) {
            try Write(spec: spec).run(computed, menus: menus, into: staging)
        }
        let checks = try log.time(.check) {
            try Check(context: context, readsFoodPages: run.readsFoodPages)
                .run(harvest.outcome, computed: computed, menus: menus, written: written, latest: run.latest,
                     staging: staging)
        }
        try record(harvest.outcome, checks: checks, in: staging)
        try Task.checkCancellation()
        let published = checks.blocking.isEmpty
            ? try Publish(context: context, store: run.store, pageCounts: pageCounts)
                .run(staging, fileName: fileName, latest: run.latest, rowCounts: checks.rowCounts, log: &log)
            : nil
        // The staging database has served its purpose: closing it now returns its page cache
        // before the manifest, the run's last large allocation, is encoded.
        staging.discard()
        return try finish.run(published: published, harvest: harvest.outcome, stages: log.stages, checks: checks)
    }

    /// A subset run whose night awaits other partitions: its own partitions fetched and
    /// parsed, each committed to the ledger as a run commits it (so the run that completes the
    /// night replays them), then the run ends without publishing. The days go to a staging
    /// database that is thrown away.
    private func harvestSelected(of run: OpenRun, log: inout StageLog) async throws -> RunReport {
        let selected = run.work.filter(\.selected).enumerated().map { index, item in
            var item = item
            item.index = index
            return item
        }
        let revalidation = try await revalidate(selected, of: run, latest: nil)
        let fileName = context.snapshotFileName
        let staging = try staging(named: fileName, continuing: nil)
        defer { staging.discard() }
        let harvest = try await self.harvest(revalidation, of: run, into: staging, log: &log)
        return try Finish(context: context, store: run.store, ledger: run.ledger)
            .harvested(harvest.outcome, stages: log.stages, awaited: run.awaited)
    }

    /// Revalidation of `work` (against `latest`, which it may find current), what it asked kept
    /// in the raw store's history even when it ends the run.
    private func revalidate(_ work: [PartitionWork], of run: OpenRun, latest: LatestSnapshot?) async throws
        -> Revalidation {
        let revalidation = await Revalidate(context: context).run(work, latest: latest, resuming: !run.interrupted.isEmpty)
        try context.times.measure(.fetch) { try run.raw.commitPending() }
        try run.stopIfDamaged()
        return revalidation
    }

    /// The fetch and parse stages of what revalidation handed on, the days into `staging`,
    /// recorded in `log`.
    private func harvest(_ revalidation: Revalidation, of run: OpenRun, into staging: StagingSnapshot,
                         log: inout StageLog) async throws -> Harvest.Output {
        let harvest = try await Harvest(context: context, scratch: staging.scratch).run(revalidation, of: run, into: staging)
        log.record(.fetch, counts: harvest.fetchCounts)
        log.record(.parse, counts: harvest.parseCounts)
        try Task.checkCancellation()
        return harvest
    }

    /// The latest snapshot's menus are where the new one starts: days whose rows come out the
    /// same are kept rather than written again. `--force` writes every day.
    private func staging(named fileName: String, continuing latest: LatestSnapshot?, copiedAhead: StagingCopy? = nil) throws
        -> StagingSnapshot {
        try StagingSnapshot(creatingAt: options.workspace.staging.appendingPathComponent(fileName),
                            continuing: options.force ? nil : latest, copiedAhead: copiedAhead)
    }

    /// The run as `_runs` records it, its checks, the documents it read and what is stale, into
    /// the snapshot.
    private func record(_ harvest: HarvestOutcome, checks: Check.Output, in staging: StagingSnapshot) throws {
        try staging.record(run: runRecord(harvest), checks: checks.outcomes, documents: harvest.dataset.documents,
                           stale: harvest.stale + harvest.staleFoods)
    }

    private func runRecord(_ harvest: HarvestOutcome) -> RunRecord {
        RunRecord(
            runId: context.runId, pipeline: spec.name, startedAt: ISOTimestamp.string(from: context.started),
            codeVersion: CommissaryVersion.current, arguments: options.arguments,
            partitions: harvest.partitions.count,
            sources: spec.sources.map { "\($0.name) (\($0.adapter.name)): \($0.location)" },
            licence: spec.licence, licenceURL: spec.licenceURL,
            sourceURL: spec.sources.lazy.compactMap { source -> String? in
                if case .web(let url) = source.location { return url }
                return nil
            }.first,
            inputsSHA256: harvest.fingerprint.sha256, asOf: options.today.description)
    }
}

extension Failure {
    /// A run stopped on request (a signal) before it published.
    public static var runInterrupted: Failure {
        Failure(.interrupted, "stopped before publishing; the last good snapshot stays latest, and the next run "
                + "resumes from the partitions already done")
    }

    /// The snapshot was published and `latest` points at it, but what comes after failed; on an
    /// unchanged night, nothing was published and the current snapshot stays latest, which is
    /// what the line says instead.
    static func publishedIncompletely(_ snapshot: String, problems: [String], unchanged: Bool = false) -> Failure {
        let what = unchanged ? "nothing changed tonight and latest still points at it" : "published, and latest points at it"
        return Failure(.publishedIncompletely, what + ", but " + problems.joined(separator: "; "), at: snapshot)
    }
}
