import ArgumentParser
import Foundation
import Report
import Snapshot

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write one self-contained HTML page about a snapshot: the night's verdict, coverage, checks, label coverage, "
            + "changes, diets, nutrition, nutrition estimates, swipes, recipes.",
        discussion: "Every published snapshot already has its page beside it (<name>.report.html).")

    @Argument(help: "A snapshot file, latest, or latest-<pipeline>.")
    var snapshot: String

    @Option(help: "Where to write the page; standard output when not given.")
    var out: String?

    @Option(help: "The snapshot the changes are counted from; by default the one published before it.")
    var previous: String?

    @Option(help: "The workspace whose snapshots/ folder `latest` refers to.")
    var workspace = "."

    func run() throws {
        let locator = SnapshotLocator(workspace: workspace)
        let url = try locator.resolve(snapshot)
        let before = try previous.map(locator.resolve) ?? SnapshotStore(directory: url.deletingLastPathComponent())
            .published(before: url)
        if let out {
            try ReportPage.write(for: url, previous: before, to: URL(fileURLWithPath: out))
        } else {
            answer(try ReportPage.html(for: url, previous: before), terminator: "")
        }
    }
}
