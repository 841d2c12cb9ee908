import ArgumentParser
import Basics
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
        answer(Self.table(snapshots))
    }

    /// Aligned columns under a header; `*` marks each pipeline's latest, in a column of its own
    /// (a row without the mark keeps its place: lines lose only their trailing blanks).
    static func table(_ snapshots: [PublishedSnapshot]) -> String {
        let header = ["", "built at", "pipeline", "run", "menu items", "foods", "recipes", "checks", "file"]
        var rows = [header]
        for snapshot in snapshots {
            if let problem = snapshot.problem {
                rows.append(["!", snapshot.unfinished ? "unfinished" : "unreadable", snapshot.pipeline, "", "", "", "",
                             "", snapshot.unfinished ? "\(snapshot.path): \(problem)" : problem])
                continue
            }
            let failed = snapshot.checks.filter { !$0.passed }.count
            rows.append([snapshot.isLatest ? "*" : "", snapshot.builtAt, snapshot.pipeline, snapshot.runId,
                         "\(snapshot.rowCounts["menu_item"] ?? 0)", "\(snapshot.rowCounts["food"] ?? 0)",
                         "\(snapshot.rowCounts["recipe"] ?? 0)",
                         "\(snapshot.checks.count - failed) passed, \(failed) not", snapshot.path])
        }
        var widths = Array(repeating: 0, count: header.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return rows.map { row in
            String(zip(row, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: "  ")
                .reversed().drop { $0 == " " }.reversed())
        }.joined(separator: "\n")
    }
}
