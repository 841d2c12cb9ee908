import ArgumentParser
import CommandAnswers
import FoodModel
import Foundation
import RunReporting

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print the favourites a watch file names that are on the menus of the days ahead, marking those new tonight.",
        discussion: """
            Reads the latest snapshot and the change file beside it (docs/watch.md). Prints nothing \
            when nothing matches, and then exits with status 9; 0 when something matched.
            """)

    @Argument(help: "The watch file (YAML): what to watch for.")
    var watchFile: String

    @Option(help: "The first day ahead (YYYY-MM-DD); today by default.")
    var today: ServiceDate?

    @Flag(help: "Only the items new tonight.")
    var newOnly = false

    @Option(help: "A snapshot file, latest, or latest-<pipeline>.")
    var snapshot = "latest"

    @Option(help: "The workspace whose snapshots/ folder `latest` refers to.")
    var workspace = "."

    @Option(help: "text (for cron mail) or json (one object, for a push service).")
    var format: SnapshotPair.Format = .text

    func run() throws {
        let list = try WatchFile.read(URL(fileURLWithPath: watchFile))
        let url = try SnapshotLocator(workspace: workspace).resolve(snapshot)
        let found = try Watch.run(list, snapshot: url, today: today ?? ServiceDate.today(), newOnly: newOnly)
        switch format {
        case .json: answer(found.json)
        case .text: if !found.matches.isEmpty { answer(found.text) }
        }
        if found.matches.isEmpty { throw ExitCode(ExitStatus.nothingMatched.rawValue) }
    }
}
