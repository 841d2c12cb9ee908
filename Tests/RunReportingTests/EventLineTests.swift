import Basics
import Foundation
import Pipeline
@testable import RunReporting
import Snapshot
import Testing

/// The JSON lines of a run's events are written directly for the events of each partition
/// (`EventLine`): byte for byte what the encoder writes, for every shape of event.
@Suite struct EventLineTests {
    private static let at = Date(timeIntervalSince1970: 1_764_460_800.123)

    private static let events: [RunEvent] = [
        RunEvent(.partitionStarted, at: at, pipeline: "ucla", runId: "2208205049d", stage: .fetch, source: "ucla-menu",
                 partition: "2026-11-29"),
        RunEvent(.partitionFinished, at: at, pipeline: "ucla", runId: "2208205049d", stage: .revalidate,
                 source: "ucla-menu", partition: "2026-11-29", status: "unchanged",
                 counts: ["documents": 1, "not_modified": 1, "documents_reused": 0, "a_b": 2, "ab": 3, "x9": -4]),
        // Escapes: quotes, a backslash, a slash, controls, and text beyond ASCII.
        RunEvent(.warning, at: at, pipeline: "p\"q", runId: "r\\s", source: "a/b", partition: "tab\there\u{1}",
                 message: "line\nbreak \u{7f} café ☕ \u{2028}", path: "/work/snapshots/x.sqlite"),
        RunEvent(.published, at: at, pipeline: "ucla", runId: "r", counts: [:], path: "/x"),
        RunEvent(.runStarted, at: at, pipeline: "ucla", runId: "r", message: nil, counts: ["partitions": Int.max]),
        // Left to the encoder: seconds, a check, counts it would convert.
        RunEvent(.stageFinished, at: at, pipeline: "ucla", runId: "r", stage: .parse, seconds: 0.021563438999999993,
                 counts: ["documents": 2]),
        RunEvent(.check, at: at, pipeline: "ucla", runId: "r",
                 check: CheckOutcome(name: "min_menu_items", severity: .error, passed: true, value: 4, message: "4 items")),
        RunEvent(.partitionFinished, at: at, pipeline: "ucla", runId: "r", counts: ["menuItems": 3, "_x": 1]),
    ]

    @Test(arguments: Self.events.indices)
    func anEventIsWrittenAsTheEncoderWritesIt(index: Int) {
        let event = Self.events[index]
        #expect(EventLine.json(event) == UserJSON.line(event))
    }
}
