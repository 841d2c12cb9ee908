import ArgumentParser
import Basics
import CommandAnswers
import Foundation
import Snapshot

struct SnapshotsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshots",
        abstract: "List published snapshots with their run, counts and checks.")

    @Option(help: "The workspace whose snapshots/ folder to list.")
    var workspace = "."

    @Option(help: "table, json (one array) or jsonl (one object a line).")
    var format: ListFormat = .table

    func run() throws {
        // A mistyped workspace is not an empty one.
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: workspace, isDirectory: &isFolder), isFolder.boolValue else {
            throw Failure(.snapshot, "no such workspace folder; give the folder that holds snapshots/ (--workspace)",
                          at: workspace)
        }
        let snapshots = try SnapshotLocator(workspace: workspace).store.list()
        if let json = format.json(snapshots) {
            if !json.isEmpty { answer(json) }
            return
        }
        guard !snapshots.isEmpty else {
            answer("No snapshots in \(SnapshotLocator(workspace: workspace).store.directory.path)")
            return
        }
        answer(SnapshotListing.table(snapshots))
    }
}
