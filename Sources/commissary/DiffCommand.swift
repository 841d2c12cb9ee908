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

    @Argument(help: "The older snapshot.")
    var old: String

    @Argument(help: "The newer snapshot.")
    var new: String

    @Option(help: "text or json.")
    var format: Format = .text

    @Option(help: "The workspace whose snapshots/ folder `latest` refers to.")
    var workspace = "."

    @Flag(help: "Exit with status 7 when the snapshots differ, as `git diff --exit-code` does with its own number.")
    var exitCode = false

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    func run() throws {
        let locator = SnapshotLocator(workspace: workspace)
        let diff = try SnapshotDiff.between(try locator.resolve(old), try locator.resolve(new))
        print(format == .json ? try diff.json() : diff.text(), terminator: "")
        if exitCode && !diff.isEmpty { throw ExitCode(ExitStatus.differ.rawValue) }
    }
}
