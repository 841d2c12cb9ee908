import Basics
import Foundation
import Pipeline
import Snapshot

/// One JSON object per line, for schedulers and log collectors: on standard error, where a
/// person's progress goes too, so that standard output holds only the run's summary; or
/// appended to the file `--events` names. Messages pass the written forms of `Redaction` once
/// more, whatever their origin: a password that reached one anyway stops here.
struct JSONLinesObserver: RunObserver {
    var output: CheckedOutput = .standardError

    /// Written straight to the file descriptor, unbuffered, so a consumer sees each event as
    /// it happens. A write that fails is kept by the output, for the command to report at its end.
    func observe(_ event: RunEvent) {
        var event = event
        event.message = event.message.map(Redaction.apply)
        output.write(encodeLine(event) + "\n")
    }
}

/// Every event to each of several observers: progress on the terminal and a log file.
struct FanOutObserver: RunObserver {
    let observers: [any RunObserver]

    func observe(_ event: RunEvent) {
        for observer in observers { observer.observe(event) }
    }
}

func encodeLine(_ value: some Encodable) -> String {
    (try? String(decoding: UserJSON.encoder().encode(value), as: UTF8.self)) ?? "{}"
}

/// Progress for a person: on a terminal, one status line redrawn in place (partitions done of
/// all, in flight, rate, time left) with only what matters printed above it (failed and stale
/// partitions, checks that did not pass, warnings); elsewhere, a line per event, partitions in
/// partition order. Written to standard error so that standard output stays clean for the
/// summary.
final class TerminalProgress: RunObserver, @unchecked Sendable {
    private let lock = NSLock()
    private let live: Bool
    private var partitionsTotal = 0
    private var partitionsDone = 0
    private var partitionsRevalidated = 0
    private var inFlight = 0
    private var firstStart: Date?
    private var statusShown = false

    /// `live`: redraw one status line (standard error is a terminal).
    init(live: Bool) {
        self.live = live
    }

    func observe(_ event: RunEvent) {
        lock.lock()
        defer { lock.unlock() }
        switch event.event {
        case .runStarted:
            partitionsTotal = event.counts?["partitions"] ?? 0
            write("commissary: pipeline \(event.pipeline), run \(event.runId), \(partitionsTotal) partition(s)")
            if let message = event.message { write("  \(message)") }
        case .partitionStarted:
            inFlight += 1
            if firstStart == nil { firstStart = Date() }
            drawStatus()
        case .partitionFinished where event.stage == .revalidate:
            partitionsRevalidated += 1
            if live {
                drawStatus("revalidating [\(partitionsRevalidated)/\(partitionsTotal)]")
            } else {
                write("  [\(partitionsRevalidated)/\(partitionsTotal)] \(event.source ?? "") \(event.partition ?? ""): "
                      + "\(event.status ?? "") since last read")
            }
        case .partitionFinished:
            partitionsDone += 1
            inFlight = max(0, inFlight - 1)
            let counts = (event.counts ?? [:]).sorted { $0.key < $1.key }
                .map { Self.phrase($0.value, $0.key) }
                .joined(separator: ", ")
            let notable = [PartitionStatus.failed.rawValue, PartitionStatus.stale.rawValue].contains(event.status ?? "")
            let line = "  [\(partitionsDone)/\(partitionsTotal)] \(event.source ?? "") \(event.partition ?? ""): "
                + "\(event.status ?? "") \(notable ? (event.message ?? "") : counts)"
            if !live || notable { write(line) }
            drawStatus()
        case .stageFinished:
            if let stage = event.stage, let seconds = event.seconds {
                write("  stage \(stage.rawValue) done in \(Self.duration(seconds))\(Self.daysKept(event.counts))")
            }
        case .check:
            // A blocking check's reason is said once, on the run's last line.
            if let check = event.check, !check.passed {
                write(check.blocksPublishing ? "  ✗ \(check.name) blocks publishing (the last line says why)"
                      : "  ! \(check.name): \(check.message)")
            }
        case .notPublished:
            write("  not published (manifest: \(event.path ?? ""))")
        case .unchanged:
            write("  unchanged: \(event.message ?? "")")
        case .revalidated:
            write("  \(event.message ?? "")")
        case .warning:
            write("  ! \(event.message ?? "")")
        case .publishedPostgres:
            write("  PostgreSQL: \(event.message ?? "")")
        case .runFinished:
            clearStatus()
        case .stageStarted, .published:
            break
        }
    }

    /// A line that stays: the status line, if shown, is cleared first and drawn again after.
    /// Names and messages in it come from documents: one line, whatever they hold.
    private func write(_ line: String) {
        clearStatus()
        CheckedOutput.standardError.write(Redaction.apply(TerminalText.oneLine(line)) + "\n")
    }

    private func clearStatus() {
        guard live, statusShown else { return }
        CheckedOutput.standardError.write("\r\u{1B}[2K")
        statusShown = false
    }

    /// "[123/365] partitions, 2 in flight, 41.3/s, about 6 s left", redrawn in place.
    private func drawStatus(_ text: String? = nil) {
        guard live else { return }
        var status = text ?? "[\(partitionsDone)/\(partitionsTotal)] partitions, \(inFlight) in flight"
        if text == nil, let firstStart, partitionsDone > 0 {
            let rate = Double(partitionsDone) / max(Date().timeIntervalSince(firstStart), 0.001)
            status += String(format: ", %.1f/s", rate)
            if partitionsDone < partitionsTotal {
                status += ", about \(Self.duration(Double(partitionsTotal - partitionsDone) / rate)) left"
            }
        }
        CheckedOutput.standardError.write("\r\u{1B}[2K  " + status)
        statusShown = true
    }

    /// "1 document", "2 documents", "1 document reused": a count and what it counts, the noun
    /// singular for one.
    static func phrase(_ count: Int, _ key: String) -> String {
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
    static func summary(_ report: RunReport) -> String {
        let manifest = report.manifest
        var lines: [String] = []
        if report.unchanged, let path = report.snapshotPath {
            lines.append("Unchanged: every input is byte-for-byte what \(path) was built from; nothing published.")
            lines += report.stale.map { "Stale: " + $0 }
            if let documents = documentLine(manifest.stages.first?.counts) { lines.append(documents) }
            lines.append("Time: \(duration(report.seconds)) (\(manifest.inputs.count) document(s) known, "
                         + "\(manifest.stages.first?.counts["documents"] ?? 0) fetched again to compare)")
            return TerminalText.lines(lines)
        }
        if let path = report.snapshotPath {
            lines.append("Published \(path)")
        } else {
            lines.append("Not published; the previous snapshot stays latest. Manifest: \(report.manifestPath)")
            var named: Set<String> = []
            let blocking = manifest.checks.filter(\.blocksPublishing).map(\.name).filter { named.insert($0).inserted }
            lines.append("Blocked by: " + blocking.joined(separator: ", ") + " (the last line says why)")
        }
        let rows = manifest.rowCounts.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        lines.append("Rows: " + rows.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        let checks = manifest.checks
        let errors = checks.filter { $0.severity == .error && !$0.passed }.count
        let warnings = checks.filter { $0.severity == .warning && !$0.passed }.count
        lines.append("Checks: \(checks.filter(\.passed).count) passed, \(warnings) warning(s), \(errors) error(s)"
                     + (report.stale.isEmpty ? "" : ", \(report.stale.count) stale"))
        lines += report.stale.map { "Stale: " + $0 }
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
        return "Documents: \(fresh) fresh (not asked), \(counts["documents_revalidated"] ?? 0) revalidated (304), "
            + "\(counts["documents_refetched"] ?? 0) refetched (200), \(counts["documents_known_missing"] ?? 0) known "
            + "missing (not asked), \(counts["documents_missing"] ?? 0) missing (404 or 410 now)"
    }

    static func render(_ plan: RunPlan) -> String {
        var lines = ["Plan for pipeline \(plan.pipeline) (\(plan.pipelineFile)), today \(plan.today):"]
        for step in plan.steps {
            lines.append("  \(step.action.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) "
                         + "\(step.source)/\(step.partition)  [\(step.adapter)] \(step.location)")
        }
        lines.append("Snapshots go to \(plan.snapshotsFolder); latest is \(plan.latest ?? "none yet").")
        if let current = plan.current {
            lines.append("Every input is what \(current) was built from: a run would publish nothing.")
        }
        lines.append("Dry run: only what can change was fetched, to compare; nothing was written.")
        return TerminalText.lines(lines)
    }
}
