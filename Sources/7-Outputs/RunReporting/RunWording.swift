import Basics
import Foundation
import Pipeline

/// What a run says in words a person reads: the summary it ends with, a dry run's plan, and the
/// counts and durations its progress lines are made of.
public enum RunWording {
    /// "1 document", "2 documents", "1 document reused": a count and what it counts, the noun
    /// singular for one.
    public static func phrase(_ count: Int, _ key: String) -> String {
        var words = key.split(separator: "_").map(String.init)
        if count == 1, let noun = words.firstIndex(where: { $0.hasSuffix("s") && $0 != "hours" }) {
            words[noun].removeLast()
        }
        return "\(count) " + words.joined(separator: " ")
    }

    /// What a write stage that continued the latest snapshot kept of it, for its line.
    static func daysKept(_ counts: [String: Int]?) -> String {
        guard let kept = counts?["days_kept"], let days = counts?["service_day"] else { return "" }
        return ", \(kept) of \(phrase(days, "service_days")) kept from the latest snapshot"
    }

    static func duration(_ seconds: Double) -> String {
        seconds < 1 ? String(format: "%.0f ms", seconds * 1000) : String(format: "%.2f s", seconds)
    }

    /// The closing summary: where the snapshot is, rows per table, checks, time.
    public static func summary(_ report: RunReport) -> String {
        let manifest = report.manifest
        var lines: [String] = []
        if report.unchanged, let path = report.snapshotPath {
            lines.append("Unchanged: every input is byte-for-byte what \(path) was built from; nothing published.")
            lines += report.stale.map { "Stale: " + $0 }
            if let documents = documentLine(manifest.stages.first?.counts) { lines.append(documents) }
            lines.append("Time: \(duration(report.seconds)) (\(manifest.inputs.count) document(s) known, "
                         + "\(manifest.stages.first?.counts["documents"] ?? 0) compared again)")
            return TerminalText.lines(lines)
        }
        if manifest.status == .harvested {
            lines.append("Harvested \(manifest.partitions.count) partition(s) of an incomplete night; nothing published "
                         + "(the previous snapshot stays latest). Manifest: \(report.manifestPath)")
        } else if let path = report.snapshotPath {
            lines.append("Published \(path)")
        } else {
            lines.append("Not published; the previous snapshot stays latest. Manifest: \(report.manifestPath)")
            var named: Set<String> = []
            let blocking = manifest.checks.filter(\.blocksPublishing).map(\.name).filter { named.insert($0).inserted }
            lines.append("Blocked by: " + blocking.joined(separator: ", ") + " (the last line says why)")
        }
        let rows = manifest.rowCounts.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        // A subset run that published nothing wrote no rows and ran no checks.
        if manifest.status != .harvested {
            lines.append("Rows: " + rows.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            let checks = manifest.checks
            let errors = checks.filter { $0.severity == .error && !$0.passed }.count
            let warnings = checks.filter { $0.severity == .warning && !$0.passed }.count
            lines.append("Checks: \(checks.filter(\.passed).count) passed, \(warnings) warning(s), \(errors) error(s)"
                         + (report.stale.isEmpty ? "" : ", \(report.stale.count) stale"))
            lines += report.stale.map { "Stale: " + $0 }
        }
        let fetched = manifest.partitions.filter { $0.status == .fetched }.count
        let reused = manifest.partitions.filter { $0.status == .reused }.count
        let failed = manifest.partitions.filter { $0.status == .failed }.count
        let stale = manifest.partitions.filter { $0.status == .stale }.count
        lines.append("Partitions: \(fetched) fetched, \(reused) reused, \(stale) stale, \(failed) failed; "
                     + "\(manifest.inputs.count) document(s) read")
        if let documents = documentLine(manifest.stages.first { $0.name == .fetch }?.counts) { lines.append(documents) }
        // Partitions run side by side, so their fetch and parse times add up to more than the wall.
        lines.append("Time: \(duration(report.seconds)) ("
                     + manifest.stages.map { "\($0.name.rawValue) \(duration($0.seconds))" }.joined(separator: ", ")
                     + "; fetch and parse summed over partitions run side by side)")
        return TerminalText.lines(lines)
    }

    /// How the documents were had, when the fetch stage counted it.
    static func documentLine(_ counts: [String: Int]?) -> String? {
        guard let counts, let fresh = counts["documents_fresh"] else { return nil }
        return "Documents: \(fresh) fresh (not asked), \(counts["documents_revalidated"] ?? 0) revalidated (304 or file unchanged), "
            + "\(counts["documents_refetched"] ?? 0) refetched (200), \(counts["documents_known_missing"] ?? 0) known "
            + "missing (not asked), \(counts["documents_missing"] ?? 0) missing (404 or 410 now)"
    }

    /// What `run --dry-run` prints: each partition and what a run would do with it.
    public static func plan(_ plan: RunPlan) -> String {
        var lines = ["Plan for pipeline \(plan.pipeline) (\(plan.pipelineFile)), today \(plan.today):"]
        for step in plan.steps {
            lines.append("  \(step.action.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) "
                         + "\(step.key)  [\(step.adapter)] \(step.location)")
        }
        lines.append("Snapshots go to \(plan.snapshotsFolder); latest is \(plan.latest ?? "none yet").")
        if let current = plan.current {
            lines.append("Every input is what \(current) was built from: a run would publish nothing.")
        }
        let awaited = plan.steps.filter { $0.action == .awaited }.count
        if awaited > 0 {
            lines.append("The night awaits \(awaited) partition(s) never harvested or failed when last harvested: "
                         + "this run would harvest its own and publish nothing.")
        }
        lines.append("Dry run: only what can change was fetched, to compare; nothing was written.")
        return TerminalText.lines(lines)
    }
}
