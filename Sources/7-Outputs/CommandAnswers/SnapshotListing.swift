import Basics
import Snapshot

/// What `commissary snapshots` prints as a table: each published snapshot with its run, counts
/// and checks, and those that could not be read with why.
public enum SnapshotListing {
    /// Aligned columns under a header; `*` marks each pipeline's latest, in a column of its own
    /// (a row without the mark keeps its place: lines lose only their trailing blanks).
    public static func table(_ snapshots: [PublishedSnapshot]) -> String {
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
        // A snapshot's metadata is text a hand may have written: one line each, controls escaped.
        rows = rows.map { $0.map(TerminalText.oneLine) }
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
