import Basics
import Foundation
import Report
import Snapshot

/// The publish stage: the staging database made a verified, read-only snapshot, `latest` swung
/// to it, the report page and the change file beside it; then the `published` event and retention.
struct Publish {
    let context: StageContext
    let store: SnapshotStore

    struct Output: StageOutput {
        var snapshot: URL
        /// The change set written beside it, handed on to PostgreSQL's feed so the night
        /// compares the two snapshots once; nil when there is none (the first night, or it
        /// could not be made).
        var changes: ChangeSet?
        var counts: [String: Int] { [:] }
    }

    /// The stage, timed in `log`, then the `published` event and retention.
    func run(_ staging: StagingSnapshot, fileName: String, rowCounts: [String: Int], log: inout StageLog) throws
        -> Output {
        let published = try log.time(.publish) { try publish(staging, fileName: fileName) }
        context.emit(.published, counts: rowCounts, path: published.snapshot.path)
        applyRetention(keeping: published.snapshot)
        return published
    }

    private func publish(_ staging: StagingSnapshot, fileName: String) throws -> Output {
        let previous = store.latest(pipeline: context.spec.name)
        let unchanged = staging.unchangedDays
        let snapshot = try store.publish(staging, fileName: fileName, pipeline: context.spec.name)
        // The page beside it is a reading aid: one that cannot be written is a warning, not
        // a failed publication.
        if context.spec.reportPage {
            do {
                try store.writeReport(try ReportPage.html(for: snapshot, previous: previous), beside: snapshot)
            } catch {
                context.emit(.warning, message: "the report page could not be written: \(error)", path: snapshot.path)
            }
        }
        let changes = previous.flatMap { writeChanges(from: $0, to: snapshot, unchanged: unchanged) }
        return Output(snapshot: snapshot, changes: changes)
    }

    /// The change set from the snapshot `latest` pointed at before, for clients that sync by
    /// changes (docs/changes.md); the menu rows of the days staging kept from it unchanged are
    /// not compared. One that cannot be written is a warning: the snapshot stands, and a client
    /// whose chain it would have continued downloads the snapshot whole. Past the pipeline's
    /// `changeRowLimit` rows, the file is a resync mark.
    private func writeChanges(from previous: URL, to snapshot: URL, unchanged: UnchangedDays?) -> ChangeSet? {
        do {
            let changes = try ChangeSet.between(previous, snapshot, unchanged: unchanged, rowLimit: context.spec.changeRowLimit)
            try store.writeChanges(changes, beside: snapshot)
            return changes
        } catch {
            context.emit(.warning, message: "the change file could not be written: \(error)", path: snapshot.path)
            return nil
        }
    }

    /// Retention runs only after a publish succeeded. Failing to remove an old file does not
    /// undo the publication, so it is reported as a warning event rather than thrown.
    private func applyRetention(keeping published: URL) {
        guard let policy = context.spec.retention else { return }
        do {
            for removed in try store.applyRetention(policy, pipeline: context.spec.name, keeping: published) {
                context.logger.info("retention removed an old snapshot", metadata: ["path": "\(removed.path)"])
            }
        } catch {
            context.emit(.warning, stage: .publish, message: "retention could not remove an old snapshot: \(error)")
        }
    }
}
