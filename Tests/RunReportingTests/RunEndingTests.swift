import Basics
@testable import Pipeline
@testable import RunReporting
import Testing

/// The last line of a run whose partitions failed: one reason said once for the partitions it
/// stopped at one source.
@Suite struct RunEndingTests {
    private func failed(_ key: String, _ message: String) -> RunManifest.Partition {
        RunManifest.Partition(source: "ucla-menu", key: key, status: .failed, documents: 0, documentsReused: 0,
                              notModified: 0, message: message, failure: "unreachable")
    }

    /// libcurl's words for one refusal, as three days of one outage said them: each attempt took
    /// its own time, which does not make three reasons.
    @Test func refusalsThatTookTheirOwnTimeAreOneReason() {
        let refused = { (day: String, ms: Int) in
            self.failed(day, "http://127.0.0.1:39175/Menus/\(day): Failed to connect to 127.0.0.1 port 39175 after \(ms) ms: "
                        + "Couldn't connect to server (after 1 attempts)")
        }
        let said = Failure.byReason([refused("2026-10-10", 0), refused("2026-10-11", 2), refused("2026-10-12", 0)])
        #expect(said == ["2026-10-10, 2026-10-11, 2026-10-12 (ucla-menu, each: Failed to connect to 127.0.0.1 port 39175: "
                         + "Couldn't connect to server (after 1 attempts); the first at http://127.0.0.1:39175/Menus/2026-10-10)"])
        // Alone, a partition says its reason as it was, its time included; another reason is its own.
        let alone = Failure.byReason([
            refused("2026-10-10", 2),
            failed("2026-10-11", "http://127.0.0.1:39175/Menus/2026-10-11: Operation timed out after 2001 milliseconds "
                   + "with 0 bytes received (after 1 attempts)"),
        ])
        #expect(alone == [
            "2026-10-10 (ucla-menu: http://127.0.0.1:39175/Menus/2026-10-10: Failed to connect to 127.0.0.1 port 39175 "
                + "after 2 ms: Couldn't connect to server (after 1 attempts))",
            "2026-10-11 (ucla-menu: http://127.0.0.1:39175/Menus/2026-10-11: Operation timed out after 2001 milliseconds "
                + "with 0 bytes received (after 1 attempts))",
        ])
    }
}
