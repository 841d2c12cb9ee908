import Basics
import Foundation
import Pipeline

/// Progress for a person: on a terminal, one status line redrawn in place (partitions done of
/// all, in flight, rate, time left) with only what matters printed above it (failed and stale
/// partitions, checks that did not pass, warnings); elsewhere, a line per event, partitions in
/// partition order. Written to standard error so that standard output stays clean for the
/// summary.
public final class TerminalProgress: RunObserver, @unchecked Sendable {
    private let lock = NSLock()
    private let live: Bool
    private var partitionsTotal = 0
    private var partitionsDone = 0
    private var partitionsRevalidated = 0
    private var inFlight = 0
    private var firstStart: Date?
    private var statusShown = false

    /// `live`: redraw one status line (standard error is a terminal).
    public init(live: Bool) {
        self.live = live
    }

    public func observe(_ event: RunEvent) {
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
            revalidated(event)
        case .partitionFinished:
            finished(event)
        case .stageFinished:
            if let stage = event.stage, let seconds = event.seconds {
                write("  stage \(stage.rawValue) done in \(RunWording.duration(seconds))\(RunWording.daysKept(event.counts))")
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

    /// A partition compared with what was last read: redrawn in place on a terminal, a line elsewhere.
    private func revalidated(_ event: RunEvent) {
        partitionsRevalidated += 1
        if live {
            drawStatus("revalidating [\(partitionsRevalidated)/\(partitionsTotal)]")
        } else {
            write("  [\(partitionsRevalidated)/\(partitionsTotal)] \(event.source ?? "") \(event.partition ?? ""): "
                  + "\(event.status ?? "") since last read")
        }
    }

    /// A partition done: its counts, or why it failed or is stale; on a terminal only the latter
    /// stay above the status line.
    private func finished(_ event: RunEvent) {
        partitionsDone += 1
        inFlight = max(0, inFlight - 1)
        let counts = (event.counts ?? [:]).sorted { $0.key < $1.key }
            .map { RunWording.phrase($0.value, $0.key) }
            .joined(separator: ", ")
        let notable = [PartitionStatus.failed.rawValue, PartitionStatus.stale.rawValue].contains(event.status ?? "")
        let line = "  [\(partitionsDone)/\(partitionsTotal)] \(event.source ?? "") \(event.partition ?? ""): "
            + "\(event.status ?? "") \(notable ? (event.message ?? "") : counts)"
        if !live || notable { write(line) }
        drawStatus()
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
                status += ", about \(RunWording.duration(Double(partitionsTotal - partitionsDone) / rate)) left"
            }
        }
        CheckedOutput.standardError.write("\r\u{1B}[2K  " + status)
        statusShown = true
    }
}
