import Basics
import Fetching
import Foundation
import Snapshot
import SourceAdapters

/// What a run holds while its stages run: the pipeline's lock, its snapshots, the ledger, the
/// raw store and the partitions to do. Opening it clears what a killed run left behind and
/// says so, after `run_started`.
struct OpenRun {
    let context: StageContext
    /// Held until the run ends; the kernel releases it if the process dies.
    let lock: RunLock
    let store: SnapshotStore
    let ledger: StateLedger
    let raw: RawStore
    /// Runs killed before they finished, whose done partitions this one replays.
    let interrupted: [String]
    let work: [PartitionWork]
    /// The partitions a subset run (`--partition`) leaves that it cannot replay (`awaited`):
    /// while there is one, the run harvests its own and publishes nothing.
    var awaited: [PartitionWork] { work.filter(\.awaited) }
    /// Some source reads food pages, whose labels the latest snapshot may keep (`LastGoodFoods`).
    let readsFoodPages: Bool
    /// The latest snapshot being copied into staging while the run opens, for a night that
    /// continues it (not for a forced one, which writes every day again).
    let stagingCopy: StagingCopy?
    /// The latest snapshot as the run found it, open for every stage that reads it.
    let latest: LatestSnapshot?
    /// Whether the night starts from the latest snapshot's rows (`StagingSnapshot`): not on a
    /// forced run, nor after an unfinished run when SQLite finds the latest file damaged
    /// (`damageOfLatest`).
    let continuesLatest: Bool

    init(_ context: StageContext) throws {
        self.context = context
        let workspace = context.options.workspace
        let pipeline = context.spec.name
        lock = try RunLock(workspace.lock(pipeline: pipeline), pipeline: pipeline)
        store = SnapshotStore(directory: workspace.snapshots)
        let unfinished = store.removeLeftovers(pipeline: pipeline)
        workspace.removeStagingLeftovers(pipeline: pipeline)
        let latest = store.latest(pipeline: pipeline)
        let copy = context.options.force ? nil : latest.flatMap { latest in
            StagingCopy.start(of: latest, beside: workspace.staging.appendingPathComponent(context.snapshotFileName))
        }
        let opened = latest.map(LatestSnapshot.init(reading:))
        var damaged: LedgerDamage?, rawIndexMoved: RawIndexDamage?
        do {
            ParseCache(folder: workspace.parseCache(pipeline: pipeline)).sweep()
            let opened = try StateLedger.openRecovering(url: workspace.ledger(pipeline: pipeline), runId: context.runId)
            ledger = opened.0
            damaged = opened.moved
            raw = RawStore(root: workspace.raw)
            rawIndexMoved = try raw.openRecovering(label: context.runId)
            interrupted = try ledger.interruptedRuns()
            let harvesters = try context.harvesters()
            readsFoodPages = harvesters.contains { $0.0.readsFoodPages }
            work = try context.partitionWork(harvesters, ledger: ledger, interrupted: Set(interrupted))
            // Before the run is begun, so that a misspelt key leaves no run to resume.
            try context.options.partitions?.check(against: work.filter { !$0.history }.map(\.selectionKey))
            try ledger.beginRun(context.runId, startedAt: ISOTimestamp.string(from: context.started))
        } catch {
            // A run that cannot begin leaves no copy behind; a ledger or raw index it moved aside
            // is still said, since the next run finds nothing wrong to say.
            Self.sayMovedAside(damaged, rawIndexMoved, context: context)
            copy?.discard()
            throw error
        }
        let damage = interrupted.isEmpty || context.options.force ? nil : opened.flatMap(Self.damageOfLatest)
        self.latest = damage == nil ? opened : opened?.foundDamaged()
        continuesLatest = !context.options.force && opened != nil && damage == nil
        if !continuesLatest { copy?.discard() }
        stagingCopy = continuesLatest ? copy : nil
        context.emit(.runStarted, message: interrupted.last.map { "resuming the partitions of interrupted run \($0)" },
                     counts: ["partitions": work.count])
        Self.sayMovedAside(damaged, rawIndexMoved, context: context)
        for name in unfinished {
            context.emit(.warning, message: "removed \(name), a snapshot whose publication did not finish (latest "
                         + "never pointed at it, and no manifest lies beside it)",
                         path: store.directory.appendingPathComponent(name).path)
        }
        if let damage, let latest = self.latest {
            context.emit(.warning, message: "the latest snapshot is damaged (SQLite's check: \(damage)); tonight writes "
                         + "every day afresh rather than continuing it, and compares with nothing", path: latest.url.path)
        }
    }

    /// What SQLite finds wrong with the latest snapshot's pages (`PRAGMA quick_check`), checked
    /// after a run that did not finish, before a night continues the file; nil when it is sound.
    /// A night copies the latest file and changes only the days that changed, so a page of it
    /// damaged on disk failed every night that touched it, each as the machine's fault, until a
    /// forced run: the run after such a failure finds the damage and writes every day instead.
    /// Checked only then: reading every page of years of history every night would cost the
    /// night as much as its own work (docs/scaling.md).
    private static func damageOfLatest(_ latest: LatestSnapshot) -> String? {
        let problems = latest.pageProblems()
        guard let first = problems.first else { return nil }
        return problems.count == 1 ? first : "\(first), and \(problems.count - 1) more"
    }

    /// A damaged ledger or raw index the opening moved aside, each in one line.
    private static func sayMovedAside(_ ledger: LedgerDamage?, _ rawIndex: RawIndexDamage?, context: StageContext) {
        if let ledger { context.emit(.warning, message: ledger.description, path: ledger.movedTo) }
        if let rawIndex { context.emit(.warning, message: rawIndex.description, path: rawIndex.movedTo) }
    }

    /// A raw-store index SQLite found damaged while the run used it stops the run, once, as the
    /// machine's fault (exit status 4): every use of the store failed from then on, so the
    /// partitions that failed did so for that alone. The index is moved aside for the next run.
    func stopIfDamaged() throws {
        guard raw.damageFound, let damaged = try raw.setAsideDamagedIndex(label: context.runId) else { return }
        throw damaged.failure
    }
}
