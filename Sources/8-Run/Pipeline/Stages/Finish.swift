import Basics
import Foundation
import Report
import Snapshot
import SourceAdapters

/// The finish stage: the manifest assembled once, after everything the run did, and written
/// (beside the snapshot, or under `state/runs/` when nothing was published); the ledger's run
/// closed; `run_finished`.
struct Finish {
    let context: StageContext
    let store: SnapshotStore
    let ledger: StateLedger

    /// The end of a run that built a snapshot, published or stopped by a blocking check.
    func run(published: Publish.Output?, harvest: HarvestOutcome, stages: [RunManifest.Stage], checks: Check.Output)
        throws -> RunReport {
        let manifest = ManifestBuilder(context: context).manifest(
            status: published == nil ? .notPublished : .published, snapshot: published?.snapshot.lastPathComponent,
            inputsSHA256: harvest.fingerprint.sha256, partitions: harvest.partitions, inputs: harvest.dataset.documents,
            stages: stages, checks: checks.outcomes, rowCounts: checks.rowCounts)
        guard let published else { return try notPublished(manifest, blocking: checks.blocking) }
        return try completed(manifest, published: published, missing: harvest.missingChanges)
    }

    /// The end of a run whose inputs are those of the latest snapshot: nothing is parsed or
    /// published; the manifest, under `state/runs/`, names the snapshot that is still current
    /// and carries its row counts.
    func unchanged(_ revalidation: Revalidation, current opened: LatestSnapshot) throws -> RunReport {
        let current = opened.url
        let fetch = RunManifest.Stage(name: .fetch, seconds: context.times.seconds(of: .fetch),
                                      counts: revalidation.documentCounts.asCounts.merging(
                                          ["documents": revalidation.documentsFetched]) { _, total in total })
        context.emit(.stageFinished, stage: fetch.name, seconds: fetch.seconds, counts: fetch.counts)
        let partitions = revalidation.work.map { item in
            let documents = item.previous?.documents.count ?? 0
            return RunManifest.Partition(source: item.harvester.source.name, key: item.key, status: .unchanged,
                                         documents: documents, documentsReused: documents - item.refetched,
                                         notModified: item.notModified, message: nil)
        }
        // Its fingerprint and stale partitions as revalidation read them to find it current (one
        // with stale partitions never is; the manifest would list them as a run's does).
        let stale = (opened.stalePartitions ?? []).map {
            CheckOutcome(name: "stale_partition", severity: .stale, passed: false, message: $0.line)
        }
        let manifest = ManifestBuilder(context: context).manifest(
            status: .unchanged, snapshot: current.lastPathComponent,
            inputsSHA256: opened.inputsSHA256, partitions: partitions,
            inputs: revalidation.work.flatMap { $0.previous?.documents ?? [] }, stages: [fetch], checks: stale,
            rowCounts: try opened.rowCounts())
        let manifestPath = try writeUnpublishedManifest(manifest)
        try ledger.finishRuns()
        let problems = try Publish(context: context, store: store).catchUp(current)
        guard problems.isEmpty else {
            throw Failure.publishedIncompletely(current.path, problems: problems, unchanged: true)
        }
        context.emit(.unchanged, message: "every input is what \(current.lastPathComponent) was built from",
                     path: current.path)
        let seconds = context.secondsSinceStart
        context.emit(.runFinished, status: RunStatus.unchanged.rawValue, seconds: seconds, path: current.path)
        return RunReport(manifest: manifest, snapshotPath: current.path, manifestPath: manifestPath, seconds: seconds)
    }

    /// The end of a subset run whose night awaits other partitions (`awaited`): its partitions
    /// are in the ledger, nothing is published, and the manifest, under `state/runs/`, says which
    /// partitions the night still waits for, as `--partition` names them.
    func harvested(_ harvest: HarvestOutcome, stages: [RunManifest.Stage], awaited: [PartitionWork]) throws -> RunReport {
        let manifest = ManifestBuilder(context: context).manifest(
            status: .harvested, snapshot: nil, inputsSHA256: nil, partitions: harvest.partitions,
            inputs: harvest.dataset.documents, stages: stages, checks: [], rowCounts: [:])
        let manifestPath = try writeUnpublishedManifest(manifest)
        func list(_ items: [PartitionWork], _ what: String) -> String? {
            guard !items.isEmpty else { return nil }
            let keys = items.map(\.selectionKey)
            return "\(items.count) \(what) (" + keys.prefix(10).joined(separator: ", ")
                + (keys.count > 10 ? " and \(keys.count - 10) more" : "") + ")"
        }
        let waits = [list(awaited.filter { $0.previous == nil }, "never harvested"),
                     list(awaited.filter { $0.previous != nil }, "failed when last harvested")].compactMap { $0 }
        context.emit(.notPublished, message: "harvested \(harvest.partitions.count) partition(s) of a night that waits for "
                     + waits.joined(separator: " and ") + ": a run of those, or of the whole pipeline, publishes it",
                     path: manifestPath)
        try ledger.finishRuns()
        let seconds = context.secondsSinceStart
        context.emit(.runFinished, status: RunStatus.harvested.rawValue, seconds: seconds)
        return RunReport(manifest: manifest, snapshotPath: nil, manifestPath: manifestPath, seconds: seconds)
    }

    private func notPublished(_ manifest: RunManifest, blocking: [CheckOutcome]) throws -> RunReport {
        let manifestPath = try writeUnpublishedManifest(manifest)
        if context.spec.reportPage { writeNotPublishedPage(manifest, blocking: blocking) }
        context.emit(.notPublished, message: blocking.map(\.message).joined(separator: "; "), path: manifestPath)
        try ledger.finishRuns()
        let seconds = context.secondsSinceStart
        context.emit(.runFinished, status: manifest.status.rawValue, seconds: seconds)
        return RunReport(manifest: manifest, snapshotPath: nil, manifestPath: manifestPath, seconds: seconds)
    }

    /// The snapshot is published and `latest` points at it: what fails from here (a disk that
    /// filled up) is reported as what it is, not as a failed run.
    private func completed(_ manifest: RunManifest, published output: Publish.Output, missing: [String: MissingChanges])
        throws -> RunReport {
        let published = output.snapshot
        var problems = output.lost
        var manifestPath = published.path + ".manifest.json"
        do {
            manifestPath = try store.writeManifest(try encode(manifest), beside: published).path
        } catch {
            problems.append("its manifest could not be written (\(error))")
        }
        do {
            try ledger.finishRuns(recording: missing)
        } catch {
            problems.append("the ledger could not record the run as finished (\(error)); the next run resumes it")
        }
        let seconds = context.secondsSinceStart
        guard problems.isEmpty else {
            context.emit(.runFinished, status: manifest.status.rawValue, message: problems.joined(separator: "; "),
                         seconds: seconds, path: published.path)
            throw Failure.publishedIncompletely(published.path, problems: problems)
        }
        context.emit(.runFinished, status: manifest.status.rawValue, seconds: seconds, path: published.path)
        return RunReport(manifest: manifest, snapshotPath: published.path, manifestPath: manifestPath,
                         seconds: seconds)
    }

    /// Compact, with sorted keys (stable for diffs; `jq .` indents it): the manifest is encoded
    /// after publishing, the run's last large allocation, and indenting a ten-year manifest made
    /// its buffer, and the run's peak memory, grow by a third.
    private func encode(_ manifest: RunManifest) throws -> Data {
        try manifest.json()
    }

    /// The night's page beside the snapshots, made the newest page: what stopped it, and what is
    /// still served. A page that cannot be written is a warning: the night has failed already.
    private func writeNotPublishedPage(_ manifest: RunManifest, blocking: [CheckOutcome]) {
        let pipeline = context.spec.name
        let page = NotPublishedPage.html(pipeline: pipeline, runId: context.runId, finishedAt: manifest.finishedAt,
                                         reasons: blocking.map(\.message), served: store.latest(pipeline: pipeline))
        do {
            try store.writeNotPublishedPage(page, pipeline: pipeline, runId: context.runId)
        } catch {
            context.emit(.warning, message: "the page of the night could not be written: \(error)", path: store.directory.path)
        }
    }

    /// A run that did not publish still leaves its manifest, under `state/runs/`, for the record.
    private func writeUnpublishedManifest(_ manifest: RunManifest) throws -> String {
        let url = context.options.workspace.unpublishedManifest(pipeline: context.spec.name, runId: context.runId)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encode(manifest).write(to: url, options: .atomic)
        return url.path
    }
}
