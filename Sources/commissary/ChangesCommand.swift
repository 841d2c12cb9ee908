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

    @Argument(help: "The older snapshot.")
    var old: String

    @Argument(help: "The newer snapshot.")
    var new: String

    @Option(help: "text (counts per table) or json (the change set itself).")
    var format: Format = .text

    @Option(help: "The workspace whose snapshots/ folder `latest` refers to.")
    var workspace = "."

    @Flag(help: "Exit with status 7 when there are changes, as `diff --exit-code` does.")
    var exitCode = false

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    func run() throws {
        let locator = SnapshotLocator(workspace: workspace)
        let changes = try ChangeSet.between(try locator.resolve(old), try locator.resolve(new))
        print(format == .json ? changes.json() : changes.text(), terminator: "")
        if exitCode && !changes.isEmpty { throw ExitCode(ExitStatus.differ.rawValue) }
    }
}
