import Basics
import Feeds
import Foundation
import PostgresTarget
import Report
import Snapshot
import Synchronization

/// The publish stage: the staging database made a verified, read-only snapshot, `latest` swung
/// to it, its open feeds (when the pipeline asks), the report page and the change file beside
/// it; then the `published` event, retention and the PostgreSQL copy. Every output of a night is
/// published here.
struct Publish {
    let context: StageContext
    let store: SnapshotStore
    /// Where the page's day counts are kept, read ahead by the run; nil to read them when the
    /// page is.
    var pageCounts: ServedDayCountsStore?

    struct Output: StageOutput {
        var snapshot: URL
        /// The change set written beside it, handed on to PostgreSQL's feed so the night
        /// compares the two snapshots once; nil when there is none (the first night, or it
        /// could not be made).
        var changes: ChangeSet?
        /// What was to be written beside the snapshot, or sent to PostgreSQL, and could not be,
        /// one phrase each: the run still publishes, and ends saying so (exit 5), since a reader
        /// misses it.
        var lost: [String] = []
        var counts: [String: Int] { [:] }
    }

    /// The stage, timed in `log`, then the `published` event, retention and PostgreSQL.
    /// `latest`: the snapshot the night replaces, as the run opened it.
    func run(_ staging: StagingSnapshot, fileName: String, latest: LatestSnapshot?, rowCounts: [String: Int],
             log: inout StageLog) throws -> Output {
        var published = try log.time(.publish) { try publish(staging, fileName: fileName, latest: latest) }
        context.emit(.published, counts: rowCounts, path: published.snapshot.path)
        applyRetention(keeping: published.snapshot)
        if let problem = publishToPostgres(published.snapshot, changes: published.changes) {
            published.lost.append(problem)
        }
        return published
    }

    /// What the snapshot that is still current lacks, published now: feeds asked for since, or
    /// lost on the night (no readable index), with the report page again to link them; a report
    /// page lost on the night it was published (a full disk), a night PostgreSQL missed (its
    /// server was down). What could not be, one phrase each.
    func catchUp(_ current: URL) throws -> [String] {
        var problems: [String] = []
        var feedsWritten = false
        if context.spec.feeds, FeedIndex.read(in: URL(fileURLWithPath: current.path + SnapshotStore.feedsSuffix)) == nil {
            if let problem = writeFeeds(of: current) { problems.append(problem) } else { feedsWritten = true }
        }
        if context.spec.reportPage,
           feedsWritten || !FileManager.default.fileExists(atPath: current.path + SnapshotStore.reportSuffix),
           let problem = writeReport(of: current, previous: store.published(before: current)) {
            problems.append(problem)
        } else if context.spec.reportPage, let problem = pointLatestReport(at: current) {
            // The newest night found it current: its page is the newest again (after a night
            // that published nothing and had a page of its own).
            problems.append(problem)
        }
        if let target = context.spec.postgres,
           try SnapshotReader.meta(of: current)["run_id"] != PostgresPublisher.servedRunId(of: target),
           let problem = publishToPostgres(current) {
            problems.append(problem)
        }
        return problems
    }

    private func publish(_ staging: StagingSnapshot, fileName: String, latest: LatestSnapshot?) throws -> Output {
        // A latest snapshot that cannot be read (damaged, emptied) is compared with nothing, as
        // the check stage said: the night is published as a first night is, without a changes
        // section or a change file, rather than with outputs reported lost.
        let previous = latest.flatMap { $0.isReadable ? $0.url : nil }
        let unchanged = staging.unchangedDays
        // The page's sections and the change set are read from the new file while it is
        // verified, which leaves a core waiting on the disk: they then cost the night little
        // more than their writing.
        let page = ReadAlongside<[String]>()
        let changeSet = ReadAlongside<ChangeSet>()
        var alongside: [SnapshotStore.Alongside] = []
        if context.spec.reportPage {
            let counts = pageCounts
                ?? ServedDayCountsStore(url: context.options.workspace.reportDayCounts(pipeline: context.spec.name))
            alongside.append { file, stop in
                page.run {
                    try ReportPage.sections(of: file, previous: previous, counts: counts, stopped: { stop.isRaised })
                }
            }
        }
        if let previous {
            alongside.append { [rowLimit = context.spec.changeRowLimit] file, _ in
                changeSet.run {
                    var changes = try ChangeSet.between(previous, file, unchanged: unchanged, rowLimit: rowLimit)
                    // Read under the file's partial name, said under its own.
                    changes.new.snapshot = fileName
                    return changes
                }
            }
        }
        let snapshot = try store.publish(staging, fileName: fileName, pipeline: context.spec.name, alongside: alongside)
        // The page and the change file beside it do not undo the publication when they cannot
        // be written: the run ends saying what was lost.
        var lost: [String] = []
        // Before the page, which links them.
        if context.spec.feeds, let problem = writeFeeds(of: snapshot) { lost.append(problem) }
        // A stop asked for by now ends the page, read or not, as it would end a page being read.
        if context.spec.reportPage,
           let problem = writeReport(of: snapshot, previous: previous,
                                     sections: Task.isCancelled ? .failure(ReportPage.stopped) : page.result) {
            lost.append(problem)
        }
        var changes: ChangeSet?
        if previous != nil {
            let written = writeChanges(to: snapshot, read: changeSet.result)
            changes = written.changes
            if let problem = written.lost { lost.append(problem) }
        }
        return Output(snapshot: snapshot, changes: changes, lost: lost)
    }

    /// The open feeds beside `snapshot` (`<file>.feeds/`, built aside and renamed into place);
    /// what went wrong, in one phrase, or nil.
    private func writeFeeds(of snapshot: URL) -> String? {
        do {
            _ = try FeedWriter.write(snapshot, to: URL(fileURLWithPath: snapshot.path + SnapshotStore.feedsSuffix))
            return nil
        } catch {
            context.emit(.warning, message: "the feeds could not be written: \(error)", path: snapshot.path)
            return "its feeds could not be written (\(error)); the next run writes them"
        }
    }

    /// The report page beside `snapshot`, then the pipeline's newest page pointed at it; what
    /// went wrong, in one phrase, or nil. `sections`: the page's, read already (beside the
    /// verification); nil to read them now.
    private func writeReport(of snapshot: URL, previous: URL?, sections: Result<[String], any Error>? = nil) -> String? {
        do {
            let sections = try sections?.get() ?? ReportPage.sections(of: snapshot, previous: previous)
            try store.writeReport(ReportPage.document(for: snapshot, previous: previous, sections: sections), beside: snapshot)
        } catch {
            context.emit(.warning, message: "the report page could not be written: \(error)", path: snapshot.path)
            return "its report page could not be written (\(error)); the next run writes it"
        }
        return pointLatestReport(at: snapshot)
    }

    /// `latest-<pipeline>.report.html` pointed at `snapshot`'s page; what went wrong, or nil.
    private func pointLatestReport(at snapshot: URL) -> String? {
        do {
            try store.pointLatestReport(pipeline: context.spec.name,
                                        at: snapshot.lastPathComponent + SnapshotStore.reportSuffix)
            return nil
        } catch {
            return "the newest page's name (\(store.latestReportLink(pipeline: context.spec.name).lastPathComponent)) "
                + "could not be pointed at its page (\(error))"
        }
    }

    /// The change set from the snapshot `latest` pointed at before, for clients that sync by
    /// changes (docs/changes.md), as `read` beside the verification (`ChangeSet.between`: the
    /// menu rows of the days staging kept from it unchanged are not compared). One that cannot
    /// be written does not undo the publication: a client whose chain it would have continued
    /// downloads the snapshot whole, and the run says so. Past the pipeline's `changeRowLimit`
    /// rows, the file is a resync mark.
    private func writeChanges(to snapshot: URL, read: Result<ChangeSet, any Error>) -> (changes: ChangeSet?, lost: String?) {
        do {
            let changes = try read.get()
            try store.writeChanges(changes, beside: snapshot)
            return (changes, nil)
        } catch {
            context.emit(.warning, message: "the change file could not be written: \(error)", path: snapshot.path)
            return (nil, "its change file could not be written (\(error)); clients that sync by changes download this snapshot whole")
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

    /// Sends a published snapshot into PostgreSQL when the pipeline says so, with the change set
    /// written beside it, if any; what went wrong, in one phrase, or nil. The SQLite publication
    /// stands either way.
    private func publishToPostgres(_ snapshot: URL, changes: ChangeSet? = nil) -> String? {
        guard let target = context.spec.postgres else { return nil }
        do {
            // As many nights before kept as retention keeps snapshots besides the latest; one at least.
            // A forced run writes every day again, and builds PostgreSQL's night whole as well.
            let publication = try PostgresPublisher.publish(snapshot, to: target,
                                                            keepPrevious: max(1, (context.spec.retention?.keepLast ?? 2) - 1),
                                                            changes: changes, changeRowLimit: context.spec.changeRowLimit,
                                                            swapWhole: context.options.force)
            let how: String
            switch publication.method {
            case .applied(let rows):
                how = ": \(rows) row change(s) applied in place"
            case .swapped(let instead):
                how = ": swapped in whole" + (publication.previous.map { ", the one before kept as \($0)" } ?? "")
                if let instead { context.emit(.warning, stage: .publish, message: "PostgreSQL: \(instead); swapped in whole instead") }
            }
            context.emit(.publishedPostgres, message: "schema \(publication.schema)" + how, counts: publication.rowCounts)
            for reason in publication.kept { context.emit(.warning, stage: .publish, message: "PostgreSQL retention: \(reason)") }
            return nil
        } catch {
            return "PostgreSQL was not updated and still serves what it did (\(error))"
        }
    }
}

/// What a run reads from its new snapshot while the file is verified
/// (`SnapshotStore.publish(_:fileName:pipeline:alongside:)`), on a thread of the verification's,
/// kept for the run to use once the file has its name.
private final class ReadAlongside<Value: Sendable>: Sendable {
    private let read = Mutex<Result<Value, any Error>?>(nil)

    func run(_ body: () throws -> Value) {
        let value = Result { try body() }
        read.withLock { $0 = value }
    }

    /// What `run` read (the publication ran it before it returned).
    var result: Result<Value, any Error> {
        read.withLock { $0 } ?? .failure(Failure(.snapshot, "it was not read beside the verification"))
    }
}
