import Basics
import Fetching
import FoodModel
import Foundation
import PostgresTarget
import Logging
import Report
import Snapshot
import SourceAdapters

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

/// Runs one pipeline through its stages (`StageName`): revalidate and fetch → parse → compute →
/// write → check → publish.
public struct PipelineRunner: Sendable {
    public let spec: PipelineSpec
    public let options: RunOptions
    let observer: any RunObserver
    let logger: Logger
    let runId: String
    /// The UTC day the run id's time belongs to, which names the snapshot file.
    let runDate: String
    /// When the run began, on the clock its deadline (`fetch.max_run_minutes`) is counted on.
    let begun: ContinuousClock.Instant

    public init(spec: PipelineSpec, options: RunOptions, observer: any RunObserver, logger: Logger) {
        self.spec = spec
        self.options = options
        self.observer = observer
        let instant = Date()
        self.begun = .now
        self.runId = Self.makeRunId(at: instant)
        self.runDate = String(isoTimestamp(instant).prefix(10))
        // Every line the run's libraries log says which pipeline and run it belongs to.
        var logger = logger
        logger[metadataKey: "pipeline"] = "\(spec.name)"
        logger[metadataKey: "run"] = "\(runId)"
        self.logger = logger
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

    /// What a run would do, decided as `run` decides it: the ledger says which partitions are
    /// replayed, and the documents that can change are fetched again (stored nowhere) to tell
    /// which partitions changed and whether the latest snapshot is still current. Creates and
    /// writes nothing.
    public func plan() async throws -> RunPlan {
        let ledgerURL = options.workspace.ledger(pipeline: spec.name)
        let ledger = FileManager.default.fileExists(atPath: ledgerURL.path)
            ? try StateLedger.copy(of: ledgerURL) : nil
        let interrupted = try ledger?.interruptedRuns() ?? []
        let work = try partitionWork(try harvesters(storing: false), ledger: ledger, interrupted: Set(interrupted))
        let latest = SnapshotStore(directory: options.workspace.snapshots).latest(pipeline: spec.name)
        let quiet = PipelineRunner(spec: spec, options: options, observer: SilentObserver(), logger: logger)
        var revalidation = await RevalidateStage(runner: quiet)
            .run(work, latest: latest, resuming: !interrupted.isEmpty)
        // A run compares the partitions revalidation did not reach before parsing them (the parse
        // cache takes those unchanged); the plan does the same, so it says which would be parsed.
        if revalidation.currentSnapshot == nil, !options.force {
            let pending = revalidation.work.filter(\.awaitsRevalidation)
            let shared = SharedRevalidation(pending)
            for item in pending {
                var checked = await RevalidateStage.revalidate(item, shared: shared).0
                checked.prefetched = [:]
                revalidation.work[item.index] = checked
            }
        }
        let steps = revalidation.work.map { item in
            let action: RunPlan.Action = item.reused ? .reuse : item.confirmed ? .unchanged : .fetch
            return RunPlan.Step(source: item.harvester.source.name, adapter: item.harvester.source.adapter.name,
                                location: item.harvester.source.location.description, partition: item.key,
                                action: action)
        }
        return RunPlan(pipeline: spec.name, pipelineFile: spec.file.path, today: options.today.description,
                       steps: steps, snapshotsFolder: options.workspace.snapshots.path, latest: latest?.path,
                       current: revalidation.currentSnapshot?.path)
    }

    func reuses(_ previous: PartitionState?, interrupted: Set<String>) -> Bool {
        guard !options.force, let previous, previous.status == .done else { return false }
        return options.onlyMissing || interrupted.contains(previous.runId)
    }

    // MARK: - Run

    /// Runs the pipeline. When the task running it is cancelled (the command does so on SIGINT,
    /// SIGTERM or SIGHUP), the run stops at the next partition or stage boundary: partitions
    /// already finished stay committed to the ledger, the run stays recorded as unfinished (so
    /// the next run resumes it as after a kill), staging is removed, a `run_finished` event says
    /// `interrupted`, and `RunInterrupted` is thrown. A publication that has begun is completed.
    public func run() async throws -> RunReport {
        do {
            return try await runStages()
        } catch where Task.isCancelled {
            emit(.runFinished, status: RunStatus.interrupted.rawValue,
                 message: "stopped before publishing; the next run resumes from the partitions already done")
            throw RunInterrupted()
        }
    }

    private func runStages() async throws -> RunReport {
        let started = Date()
        let workspace = options.workspace
        let lock = try RunLock(workspace.lock(pipeline: spec.name), pipeline: spec.name)
        defer { withExtendedLifetime(lock) {} }
        let store = SnapshotStore(directory: workspace.snapshots)
        let unfinished = store.removeLeftovers(pipeline: spec.name)
        workspace.removeStagingLeftovers(pipeline: spec.name)
        ParseCache(folder: workspace.parseCache(pipeline: spec.name)).sweep()
        let (ledger, damaged) = try StateLedger.openRecovering(url: workspace.ledger(pipeline: spec.name), runId: runId)
        let raw = RawStore(root: workspace.raw)
        let rawIndexMoved = try raw.openRecovering(label: runId)
        let interruptedRuns = try ledger.interruptedRuns()
        try ledger.beginRun(runId, startedAt: isoTimestamp(started))
        let harvesters = try harvesters()
        let work = try partitionWork(harvesters, ledger: ledger, interrupted: Set(interruptedRuns))
        let manifests = ManifestBuilder(runner: self, started: started)
        emit(.runStarted, message: interruptedRuns.last.map { "resuming the partitions of interrupted run \($0)" },
             counts: ["partitions": work.count])
        if let damaged { emit(.warning, message: damaged.description, path: damaged.movedTo) }
        if let rawIndexMoved { emit(.warning, message: rawIndexMoved.description, path: rawIndexMoved.movedTo) }
        for name in unfinished {
            emit(.warning, message: "removed \(name), a snapshot whose publication did not finish (no metadata or "
                 + "manifest beside it, and latest never pointed at it)", path: store.directory.appendingPathComponent(name).path)
        }

        // fetch: first only what can change, to learn whether anything did.
        emit(.stageStarted, stage: .fetch)
        let revalidation = await RevalidateStage(runner: self)
            .run(work, latest: store.latest(pipeline: spec.name), resuming: !interruptedRuns.isEmpty)
        try stopIfDamaged(raw)
        if let current = revalidation.currentSnapshot {
            return try finishUnchanged(revalidation, current: current, ledger: ledger, manifests: manifests)
        }

        // fetch and parse, several partitions at a time, each committed to the ledger on its own;
        // the days go into a staging database as they come (the write stage, overlapped).
        let fileName = SnapshotStore.fileName(pipeline: spec.name, date: runDate, runId: runId)
        // The latest snapshot's menus are where the new one starts: days whose rows come out
        // the same are kept rather than written again. `--force` writes every day.
        let staging = try StagingSnapshot(creatingAt: workspace.staging.appendingPathComponent(fileName),
                                          continuing: options.force ? nil : store.latest(pipeline: spec.name))
        // Parsing starts with the first partition fetched: the two stages run together.
        emit(.stageStarted, stage: .parse)
        defer { staging.discard() }
        let menus = MenuStream(staging: staging)
        let labelsKept = store.latest(pipeline: spec.name).flatMap { try? SnapshotReader.stalePartitions(of: $0) }?
            .contains { $0.partition.hasPrefix(LastGoodFoods.partitionPrefix) } ?? false
        var harvest = try await HarvestStage(runner: self, scratch: staging.scratch)
            .run(revalidation.work, ledger: ledger, menus: menus, rereadFoodPages: labelsKept)
        try stopIfDamaged(raw)
        if harvesters.contains(where: { $0.0.readsFoodPages }), let latest = store.latest(pipeline: spec.name) {
            keepLastGoodLabels(in: &harvest, menus: menus.digest, latest: latest)
        }
        var parseCounts = partitionCounts(of: harvest.dataset, documents: harvest.dataset.documents.count)
        if menus.digest.menuItemCount > 0 { parseCounts["menu_items"] = menus.digest.menuItemCount }
        if harvest.partitionsFromCache > 0 { parseCounts["partitions_from_cache"] = harvest.partitionsFromCache }
        if harvest.cachedPartitionsReadAgain > 0 {
            parseCounts["cached_partitions_read_again"] = harvest.cachedPartitionsReadAgain
        }
        var stages = [
            RunManifest.Stage(name: .fetch, seconds: revalidation.seconds + harvest.fetchSeconds,
                              counts: ["documents": harvest.dataset.documents.count]),
            RunManifest.Stage(name: .parse, seconds: harvest.parseSeconds, counts: parseCounts),
        ]
        for stage in stages { emit(.stageFinished, stage: stage.name, seconds: stage.seconds, counts: stage.counts) }

        try Task.checkCancellation()
        var timer = start(.compute)
        let computed = ComputeStage(spec: spec).run(harvest.dataset, labels: harvest.labels, menus: menus.digest)
        stages.append(finish(timer, counts: computed.counts))

        // The write stage's time includes the days' share, written as partitions finished.
        timer = start(.write)
        let written = try WriteStage(spec: spec).run(computed, menus: menus.digest, into: staging)
        let kept = staging.continuesPrevious ? ["days_kept": staging.keptDays] : [:]
        stages.append(finish(timer, counts: written.rowCounts.merging(kept) { table, _ in table },
                             extraSeconds: menus.seconds))

        timer = start(.check)
        let checks = CheckStage(spec: spec, readsFoodPages: harvesters.contains { $0.0.readsFoodPages })
            .run(harvest, dataset: computed.dataset, menus: menus.digest, written: written,
                 previous: previousRowCounts(store))
        for check in checks { emit(.check, stage: .check, status: check.passed ? "passed" : "failed", check: check) }
        let blocking = checks.filter(\.blocksPublishing)
        stages.append(finish(timer, counts: ["checks": checks.count, "blocking": blocking.count]))

        let inputsSHA256 = harvest.fingerprint.sha256
        try staging.record(run: RunRecord(
            runId: runId, pipeline: spec.name, startedAt: isoTimestamp(started),
            codeVersion: CommissaryVersion.current, arguments: options.arguments,
            partitions: harvest.partitions.count,
            sources: spec.sources.map { "\($0.name) (\($0.adapter.name)): \($0.location)" },
            licence: spec.licence, licenceURL: spec.licenceURL,
            sourceURL: spec.sources.lazy.compactMap { source -> String? in
                if case .web(let url) = source.location { return url }
                return nil
            }.first,
            inputsSHA256: inputsSHA256), checks: checks, documents: harvest.dataset.documents,
            stale: harvest.stale + harvest.staleFoods)

        // publish, unless a blocking check failed; the manifest is assembled once, after it.
        try Task.checkCancellation()
        var published: URL?
        if blocking.isEmpty {
            timer = start(.publish)
            let previous = store.latest(pipeline: spec.name)
            let snapshot = try store.publish(staging, fileName: fileName, pipeline: spec.name)
            // The page beside it is a reading aid: one that cannot be written is a warning, not
            // a failed publication.
            if spec.reportPage {
                do {
                    try store.writeReport(try ReportPage.html(for: snapshot, previous: previous), beside: snapshot)
                } catch {
                    emit(.warning, message: "the report page could not be written: \(error)", path: snapshot.path)
                }
            }
            stages.append(finish(timer, counts: [:]))
            emit(.published, counts: written.rowCounts, path: snapshot.path)
            applyRetention(store: store, keeping: snapshot)
            published = snapshot
        }
        // The staging database has served its purpose: closing it now returns its page cache
        // before the manifest, the run's last large allocation, is encoded.
        staging.discard()
        let manifest = manifests.manifest(
            status: published == nil ? .notPublished : .published, snapshot: published?.lastPathComponent,
            inputsSHA256: inputsSHA256, partitions: harvest.partitions, inputs: harvest.dataset.documents,
            stages: stages, checks: checks, rowCounts: written.rowCounts)
        guard let published else {
            let manifestPath = try writeUnpublishedManifest(manifest)
            emit(.notPublished, message: blocking.map(\.message).joined(separator: "; "), path: manifestPath)
            try ledger.finishRuns()
            let seconds = Date().timeIntervalSince(started)
            emit(.runFinished, status: manifest.status.rawValue, seconds: seconds)
            return RunReport(manifest: manifest, snapshotPath: nil, manifestPath: manifestPath, seconds: seconds)
        }
        // The snapshot is published and `latest` points at it: what fails from here (a disk that
        // filled up) is reported as what it is, not as a failed run.
        var problems: [String] = []
        var manifestPath = published.path + ".manifest.json"
        do {
            manifestPath = try store.writeManifest(try encode(manifest), beside: published).path
        } catch {
            problems.append("its manifest could not be written (\(error))")
        }
        if let problem = publishToPostgres(published) { problems.append(problem) }
        do {
            try ledger.finishRuns()
        } catch {
            problems.append("the ledger could not record the run as finished (\(error)); the next run resumes it")
        }
        let seconds = Date().timeIntervalSince(started)
        guard problems.isEmpty else {
            emit(.runFinished, status: manifest.status.rawValue, message: problems.joined(separator: "; "),
                 seconds: seconds, path: published.path)
            throw PublishedIncompletely(snapshot: published.path, problems: problems)
        }
        emit(.runFinished, status: manifest.status.rawValue, seconds: seconds, path: published.path)
        return RunReport(manifest: manifest, snapshotPath: published.path, manifestPath: manifestPath,
                         seconds: seconds)
    }

    /// The end of a run whose inputs are those of the latest snapshot: nothing is parsed or
    /// published; the manifest, under `state/runs/`, names the snapshot that is still current
    /// and carries its row counts.
    private func finishUnchanged(_ revalidation: Revalidation, current: URL, ledger: StateLedger,
                                 manifests: ManifestBuilder) throws -> RunReport {
        let fetch = RunManifest.Stage(name: .fetch, seconds: revalidation.seconds,
                                      counts: ["documents": revalidation.documentsFetched])
        emit(.stageFinished, stage: fetch.name, seconds: fetch.seconds, counts: fetch.counts)
        let partitions = revalidation.work.map { item in
            let documents = item.previous?.documents.count ?? 0
            return RunManifest.Partition(source: item.harvester.source.name, key: item.key, status: .unchanged,
                                         documents: documents, documentsReused: documents - item.refetched,
                                         notModified: item.notModified, message: nil)
        }
        // The snapshot still served keeps its stale days: the manifest says so as the run did.
        let stale = try SnapshotReader.stalePartitions(of: current).map {
            CheckOutcome(name: "stale_partition", severity: .stale, passed: false, message: $0.line)
        }
        let manifest = manifests.manifest(
            status: .unchanged, snapshot: current.lastPathComponent,
            inputsSHA256: try SnapshotReader.inputsSHA256(of: current), partitions: partitions,
            inputs: revalidation.work.flatMap { $0.previous?.documents ?? [] }, stages: [fetch], checks: stale,
            rowCounts: try SnapshotReader.rowCounts(of: current))
        let manifestPath = try writeUnpublishedManifest(manifest)
        try ledger.finishRuns()
        // A night PostgreSQL missed (its server was down when the snapshot was published) is
        // sent by the next run, even one that finds every input unchanged.
        if let target = spec.postgres, try SnapshotReader.meta(of: current)["run_id"] != PostgresPublisher.servedRunId(of: target),
           let problem = publishToPostgres(current) {
            throw PublishedIncompletely(snapshot: current.path, problems: [problem])
        }
        emit(.unchanged, message: "every input is what \(current.lastPathComponent) was built from", path: current.path)
        let seconds = manifests.secondsSinceStart
        emit(.runFinished, status: RunStatus.unchanged.rawValue, seconds: seconds, path: current.path)
        return RunReport(manifest: manifest, snapshotPath: current.path, manifestPath: manifestPath, seconds: seconds)
    }

    // MARK: - Helpers

    /// A raw-store index SQLite found damaged while the run used it stops the run, once, as the
    /// machine's fault (exit status 4): every use of the store failed from then on, so the
    /// partitions that failed did so for that alone. The index is moved aside for the next run.
    private func stopIfDamaged(_ raw: RawStore) throws {
        guard raw.damageFound, let damaged = try raw.setAsideDamagedIndex(label: runId) else { return }
        throw damaged
    }

    /// Sends a published snapshot into PostgreSQL when the pipeline says so; what went wrong, in
    /// one phrase, or nil. The SQLite publication stands either way.
    private func publishToPostgres(_ snapshot: URL) -> String? {
        guard let target = spec.postgres else { return nil }
        do {
            // As many nights before kept as retention keeps snapshots besides the latest; one at least.
            let publication = try PostgresPublisher.publish(snapshot, to: target,
                                                            keepPrevious: max(1, (spec.retention?.keepLast ?? 2) - 1))
            emit(.publishedPostgres, message: "schema \(publication.schema)"
                 + (publication.previous.map { "; the one before kept as \($0)" } ?? ""),
                 counts: publication.rowCounts)
            return nil
        } catch {
            return "PostgreSQL was not updated and still serves what it did (\(error))"
        }
    }

    /// Labels that got worse tonight keep the latest snapshot's version (`LastGoodFoods`); a
    /// latest snapshot that cannot be read keeps nothing, and says so.
    private func keepLastGoodLabels(in harvest: inout HarvestOutcome, menus: MenuDigest, latest: URL) {
        do {
            harvest.staleFoods = try LastGoodFoods(policy: spec.checks).carry(into: &harvest.dataset, menus: menus,
                                                                             latest: latest)
            harvest.staleFoodsSnapshot = latest.lastPathComponent
        } catch {
            emit(.warning, stage: .parse, message: "labels lost tonight cannot be kept from the latest snapshot, "
                 + "which cannot be read: \(error)", path: latest.path)
        }
    }

    /// The latest snapshot's row counts, to compare against; a latest snapshot that cannot be
    /// read (damaged, emptied) is reported and compared with nothing, so that it cannot stop
    /// the publication that replaces it.
    private func previousRowCounts(_ store: SnapshotStore) -> [String: Int]? {
        guard let latest = store.latest(pipeline: spec.name) else { return nil }
        do {
            return try SnapshotReader.rowCounts(of: latest)
        } catch {
            emit(.warning, stage: .check, message: "the latest snapshot cannot be read, so nothing is compared "
                 + "with it: \(error)", path: latest.path)
            return nil
        }
    }

    /// Retention runs only after a publish succeeded. Failing to remove an old file does not
    /// undo the publication, so it is reported as a warning event rather than thrown.
    private func applyRetention(store: SnapshotStore, keeping published: URL) {
        guard let policy = spec.retention else { return }
        do {
            for removed in try store.applyRetention(policy, pipeline: spec.name, keeping: published) {
                logger.info("retention removed an old snapshot", metadata: ["path": "\(removed.path)"])
            }
        } catch {
            emit(.warning, stage: .publish, message: "retention could not remove an old snapshot: \(error)")
        }
    }

    private func start(_ stage: StageName) -> StageTimer {
        emit(.stageStarted, stage: stage)
        return StageTimer(name: stage)
    }

    private func finish(_ timer: StageTimer, counts: [String: Int], extraSeconds: Double = 0) -> RunManifest.Stage {
        let result = timer.finish(counts: counts, extraSeconds: extraSeconds)
        emit(.stageFinished, stage: result.name, seconds: result.seconds, counts: counts)
        return result
    }

    /// Compact, with sorted keys (stable for diffs; `jq .` indents it): the manifest is encoded
    /// after publishing, the run's last large allocation, and indenting a ten-year manifest made
    /// its buffer, and the run's peak memory, grow by a third.
    private func encode(_ manifest: RunManifest) throws -> Data {
        try UserJSON.encoder().encode(manifest)
    }

    /// A run that did not publish still leaves its manifest, under `state/runs/`, for the record.
    private func writeUnpublishedManifest(_ manifest: RunManifest) throws -> String {
        let folder = options.workspace.runManifests(pipeline: spec.name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("\(runId).manifest.json")
        try encode(manifest).write(to: url, options: .atomic)
        return url.path
    }

    func emit(_ kind: RunEvent.Kind, stage: StageName? = nil, source: String? = nil,
                      partition: String? = nil, status: String? = nil, message: String? = nil,
                      seconds: Double? = nil, counts: [String: Int]? = nil, path: String? = nil,
                      check: CheckOutcome? = nil) {
        observer.observe(RunEvent(kind, pipeline: spec.name, runId: runId, stage: stage, source: source,
                                  partition: partition, status: status, message: message,
                                  seconds: seconds, counts: counts, path: path, check: check))
    }
}

/// A run stopped on request (a signal) before it published.
public struct RunInterrupted: CommissaryFailure, Sendable {
    public init() {}
    public var code: FailureCode { .interrupted }
    public var place: String? { nil }
    public var message: String {
        "stopped before publishing; the last good snapshot stays latest, and the next run resumes "
            + "from the partitions already done"
    }
}

/// The snapshot was published and `latest` points at it, but what comes after failed.
public struct PublishedIncompletely: CommissaryFailure, Sendable {
    public var snapshot: String
    public var problems: [String]
    public var code: FailureCode { .publishedIncompletely }
    public var place: String? { snapshot }
    public var message: String { "published, and latest points at it, but " + problems.joined(separator: "; ") }
}
