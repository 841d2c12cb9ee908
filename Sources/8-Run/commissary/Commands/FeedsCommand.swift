import ArgumentParser
import Feeds
import Foundation

struct FeedsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feeds",
        abstract: "Write a snapshot's open feeds per restaurant: OpenMensa XML, iCalendar and JSON (docs/feeds.md).",
        discussion: "Files: DIR/<slug>.xml, DIR/<slug>.ics, DIR/<slug>/<date>.json and DIR/index.json, built aside and "
            + "renamed into place. A pipeline with `publish: feeds: true` writes them beside each snapshot it publishes.")

    @Argument(help: "A snapshot file, latest, or latest-<pipeline>.")
    var snapshot: String

    @Option(help: "The folder to write; a new one, or one an earlier `feeds` wrote, which is replaced whole.")
    var out: String

    @Option(help: "The workspace whose snapshots/ folder `latest` refers to.")
    var workspace = "."

    func run() throws {
        let url = try SnapshotLocator(workspace: workspace).resolve(snapshot)
        let written = try FeedWriter.write(url, to: URL(fileURLWithPath: out))
        answer("Wrote \(written.files) file(s) for \(written.restaurants) restaurant(s) to \(written.folder.path)")
    }
}
