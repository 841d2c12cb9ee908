import ArgumentParser
import Foundation
import Snapshot

struct ChangesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "The change set from one snapshot to another: every row inserted, updated or deleted, per table.",
        discussion: """
            OLD and NEW are files, `latest`, or `latest-<pipeline>`. Rows are matched by each table's \
            stable key (the `_table_keys` table); a client that applies the JSON form to its copy of OLD \
            holds exactly NEW (docs/changes.md). The exit status is 0 whether or not they differ (with \
            --exit-code, 7 when they differ); 1 on an error.
            """)

    @OptionGroup var snapshots: SnapshotPair

    @Option(help: "text (counts per table) or json (the change set itself).")
    var format: SnapshotPair.Format = .text

    func run() throws {
        let (old, new) = try snapshots.resolve()
        let changes = try ChangeSet.between(old, new)
        answer(format == .json ? changes.json() : changes.text(), terminator: "")
        try snapshots.exit(differing: !changes.isEmpty)
    }
}
