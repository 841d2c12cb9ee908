import ArgumentParser
import Foundation
import Snapshot

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changed between two snapshots: foods, menu items, nutrients, recipes.",
        discussion: """
            OLD and NEW are files, `latest`, or `latest-<pipeline>`. Housekeeping tables and integer \
            ids are not compared, so two snapshots of the same inputs show no differences. The exit \
            status is 0 whether or not they differ (with --exit-code, 7 when they differ); 1 on an \
            error.
            """)

    @OptionGroup var snapshots: SnapshotPair

    @Option(help: "text or json.")
    var format: SnapshotPair.Format = .text

    func run() throws {
        let (old, new) = try snapshots.resolve()
        let diff = try SnapshotDiff.between(old, new)
        answer(format == .json ? try diff.json() : diff.text(), terminator: "")
        try snapshots.exit(differing: !diff.isEmpty)
    }
}
