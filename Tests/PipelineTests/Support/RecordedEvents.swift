import Pipeline
import Foundation

/// Every event a run sends, in the order it sent them, for tests that check what a run told.
final class RecordedEvents: RunObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [RunEvent] = []

    func observe(_ event: RunEvent) {
        lock.withLock { seen.append(event) }
    }

    var all: [RunEvent] { lock.withLock { seen } }
}
