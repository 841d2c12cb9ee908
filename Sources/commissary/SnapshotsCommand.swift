import ArgumentParser
import Foundation
import Snapshot

struct SnapshotsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshots",
        abstract: "List published snapshots with their run, counts and checks.")

    @Option(help: "The workspace whose snapshots/ folder to list.")
    var workspace = "."

    @Option(help: "table or json.")
    var format: ListFormat = .table

    enum ListFormat: String, ExpressibleByArgument, CaseIterable {
        case table, json
    }

    func run() throws {
        let snapshots: [PublishedSnapshot]
        snapshots = try SnapshotLocator(workspace: workspace).store.list()
        switch format {
        case .json:
            for snapshot in snapshots { print(encodeLine(snapshot)) }
        case .table:
            guard !snapshots.isEmpty else {
                print("No snapshots in \(SnapshotLocator(workspace: workspace).store.directory.path)")
                return
            }
            for snapshot in snapshots {
                if let problem = snapshot.problem {
                    print("! unreadable  \(problem)")
                    continue
                }
                let counts = ["menu_item", "food", "recipe"].map { "\($0) \(snapshot.rowCounts[$0] ?? 0)" }
                let failed = snapshot.checks.filter { !$0.passed }.count
                print("\(snapshot.isLatest ? "*" : " ") \(snapshot.builtAt)  run \(snapshot.runId)  "
                      + "\(counts.joined(separator: ", "))  checks \(snapshot.checks.count - failed) passed, "
                      + "\(failed) not  \(snapshot.path)")
            }
        }
    }
}
