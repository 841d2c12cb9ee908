import ArgumentParser
import Basics
import Foundation
import RunReporting
import Snapshot

struct ChangesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "The change set from one snapshot to another: every row inserted, updated or deleted, per table.",
        discussion: """
            OLD and NEW are files, `latest`, or `latest-<pipeline>`. Rows are matched by each table's \
            stable key (the `_table_keys` table); a client that applies the JSON form to its copy of OLD \
            holds exactly NEW (docs/changes.md). With --since instead of OLD and NEW, the change files \
            published beside each snapshot are composed into one change set from the client's snapshot \
            to `latest`. The exit status is 0 whether or not they differ (with --exit-code, 7 when they \
            differ); 8 when --since finds no chain of change files (the client downloads `latest` \
            whole); 1 on an error.
            """)

    @Argument(help: "The older snapshot (not with --since).")
    var old: String?

    @Argument(help: "The newer snapshot (not with --since).")
    var new: String?

    @Option(help: ArgumentHelp("The client's snapshot, by its run id or the day it synced (YYYY-MM-DD: the newest "
                               + "snapshot built on or before it); the changes from it to `latest`.",
                               valueName: "run-id-or-date"))
    var since: String?

    @Option(help: "The pipeline whose snapshots --since reads; needed when several have published here.")
    var pipeline: String?

    @Option(help: "The workspace whose snapshots/ folder `latest` and --since refer to.")
    var workspace = "."

    @Flag(help: "Exit with status 7 when the snapshots differ, as `git diff --exit-code` does with its own number.")
    var exitCode = false

    @Option(help: "text (counts per table) or json (the change set itself).")
    var format: SnapshotPair.Format = .text

    func validate() throws {
        if since == nil, old == nil || new == nil { throw ValidationError("give OLD and NEW, or --since") }
        if since != nil, old != nil { throw ValidationError("--since composes the changes up to latest: give no OLD or NEW") }
        if pipeline != nil, since == nil { throw ValidationError("--pipeline goes with --since") }
        if let since { _ = try syncPoint(since) }
    }

    /// `--since` read; refused, before anything is looked at, when it is no run id nor day.
    private func syncPoint(_ text: String) throws -> SyncPoint {
        guard let point = SyncPoint(text) else {
            throw ValidationError("--since \(text.debugDescription) is neither a run id (lower-case letters and digits) "
                                  + "nor a day as YYYY-MM-DD")
        }
        return point
    }

    func run() throws {
        let locator = SnapshotLocator(workspace: workspace)
        let changes: ChangeSet
        if let since {
            let latest = try locator.resolve(pipeline.map { "latest-\($0)" } ?? "latest")
            let name = try pipeline ?? SnapshotReader.meta(of: latest)["pipeline"] ?? ""
            switch try locator.store.changes(pipeline: name, since: syncPoint(since)) {
            case .changes(let composed): changes = composed
            case .resync(let reason):
                CheckedOutput.standardError.write("resync: \(TerminalText.oneLine(reason))\n")
                throw ExitCode(ExitStatus.resync.rawValue)
            }
        } else if let old, let new {
            changes = try ChangeSet.between(try locator.resolve(old), try locator.resolve(new))
        } else {
            return
        }
        answer(format == .json ? changes.json() : changes.text(), terminator: "")
        if exitCode && !changes.isEmpty { throw ExitCode(ExitStatus.differ.rawValue) }
    }
}
