import Foundation
import Synchronization

/// ISO 8601 timestamps as the raw store's records and the run ledger write them.
///
/// An `ISO8601DateFormatter` is expensive to create, and a run formats a time for every
/// document, and it is not documented as safe to share between threads, so each
/// format is made once and used under a lock. `Date.ISO8601FormatStyle` would need no lock, but
/// it rounds milliseconds differently and parses fractions to different `Date`s than the
/// formatter, and records written before must read back to the same dates.
public enum ISOTimestamp {
    private static let seconds = Mutex(formatter([.withInternetDateTime]))
    private static let milliseconds = Mutex(formatter([.withInternetDateTime, .withFractionalSeconds]))

    /// "2026-11-22T03:59:49Z": the ledger's and manifests' timestamps.
    public static func string(from date: Date) -> String {
        seconds.withLock { $0.string(from: date) }
    }

    /// "2026-11-22T03:59:49.123Z": milliseconds, so that two fetches in one second still order.
    public static func millisecondString(from date: Date) -> String {
        milliseconds.withLock { $0.string(from: date) }
    }

    public static func date(fromMillisecondString text: String) -> Date? {
        milliseconds.withLock { $0.date(from: text) }
    }

    private static func formatter(_ options: ISO8601DateFormatter.Options) -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = options
        return formatter
    }
}
