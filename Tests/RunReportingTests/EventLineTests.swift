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
        // Seconds, as a partition's and a stage's end carry them: digits as the encoder writes them.
        RunEvent(.stageFinished, at: at, pipeline: "ucla", runId: "r", stage: .parse, seconds: 0.021563438999999993,
                 counts: ["documents": 2]),
        RunEvent(.partitionFinished, at: at, pipeline: "ucla", runId: "r", stage: .fetch, source: "ucla-menu",
                 partition: "2026-11-29", status: "fetched", seconds: 0.000012, counts: ["menu_items": 212]),
        RunEvent(.runFinished, at: at, pipeline: "ucla", runId: "r", seconds: 3),
        // Left to the encoder: seconds that are no number, a check, counts it would convert.
        RunEvent(.runFinished, at: at, pipeline: "ucla", runId: "r", seconds: .nan),
        RunEvent(.check, at: at, pipeline: "ucla", runId: "r",
                 check: CheckOutcome(name: "min_menu_items", severity: .error, passed: true, value: 4, message: "4 items")),
        RunEvent(.partitionFinished, at: at, pipeline: "ucla", runId: "r", counts: ["menuItems": 3, "_x": 1]),
    ]

    @Test(arguments: Self.events.indices)
    func anEventIsWrittenAsTheEncoderWritesIt(index: Int) {
        let event = Self.events[index]
        #expect(EventLine.json(event) == UserJSON.line(event))
    }

    /// Seconds of every size and shape a number takes (integral, exponents both ways, the
    /// smallest and largest finite values, a negative zero), a hundred thousand bit patterns
    /// spread over every finite positive value, and as many times as a clock gives them (whole
    /// microseconds up to a hundred seconds), each written as the encoder does.
    @Test func secondsAreWrittenAsTheEncoderWritesThem() {
        var values: [Double] = [0, -0.0, 1, 2.5, 10, 1e15, 1e16, 1e17, 1e21, 0.1, 0.0001, 0.00001, 1e-7,
                                Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, -1e-5, 9_007_199_254_740_993]
        let finite: UInt64 = 0x7fef_ffff_ffff_ffff
        for step in UInt64(1)...100_000 {
            values.append(Double(bitPattern: step &* 0x9E37_79B9_7F4A_7C15 % finite))
            values.append(Double(step &* 1_000_003 % 100_000_000) / 1_000_000)
        }
        let mismatches = values.filter { seconds in
            let event = RunEvent(.partitionFinished, at: Self.at, pipeline: "p", runId: "r", seconds: seconds)
            return EventLine.json(event) != UserJSON.line(event)
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}
