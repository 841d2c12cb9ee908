import Basics
import Foundation

/// Which published snapshots of a pipeline to keep (the pipeline file's `retention:` section).
///
/// A snapshot is kept when it is among the `keepLast` newest, or when it is the newest of its
/// calendar month and that month is among the `keepMonthly` most recent months that have a
/// snapshot. The file `latest` points at and the file just published are always kept, whatever
/// the numbers say: retention must never take away what readers are told to open.
public struct RetentionPolicy: Hashable, Sendable {
    public var keepLast: Int
    public var keepMonthly: Int

    public init(keepLast: Int = 0, keepMonthly: Int = 0) {
        self.keepLast = keepLast
        self.keepMonthly = keepMonthly
    }

    /// The snapshots to remove, oldest first.
    public func removals(from snapshots: [SnapshotFileName], protecting protected: Set<String>) -> [SnapshotFileName] {
        let newestFirst = snapshots.sorted().reversed()
        var kept = Set(newestFirst.prefix(max(0, keepLast)).map(\.fileName))
        var months: [String] = []
        for snapshot in newestFirst where !months.contains(snapshot.month) && months.count < max(0, keepMonthly) {
            months.append(snapshot.month)
            kept.insert(snapshot.fileName)
        }
        return snapshots.sorted().filter { !kept.contains($0.fileName) && !protected.contains($0.fileName) }
    }
}

/// A snapshot's file name read back into its parts: `<pipeline>-<YYYY-MM-DD>-<run>.sqlite`.
///
/// Ordered by date, then run id: a run id starts with the UTC time to the millisecond
/// (`HHMMSSmmm`), so within a day the order is the order of the runs.
public struct SnapshotFileName: Hashable, Sendable, Comparable {
    public var fileName: String
    public var date: String
    public var runId: String

    public var month: String { String(date.prefix(7)) }

    /// Nil for a file that is not a snapshot of `pipeline` (another pipeline whose name starts
    /// alike, a manifest, a hidden partial file).
    public init?(_ fileName: String, pipeline: String) {
        let prefix = "\(pipeline)-"
        guard fileName.hasPrefix(prefix), fileName.hasSuffix(".sqlite") else { return nil }
        let rest = fileName.dropFirst(prefix.count).dropLast(".sqlite".count)
        guard Self.isDateAndRunId(rest.utf8) else { return nil }
        self.fileName = fileName
        self.date = String(rest.prefix(10))
        self.runId = String(rest.dropFirst(11))
    }

    /// `YYYY-MM-DD-` and a run id of digits and lowercase letters, checked byte by byte: every
    /// night's run lists the snapshots folder, which keeps five files a night without retention,
    /// and a regular expression made for each name cost a run more than the rest of its listing.
    private static func isDateAndRunId(_ bytes: Substring.UTF8View) -> Bool {
        let digit = UInt8(ascii: "0")...UInt8(ascii: "9"), dash = UInt8(ascii: "-")
        let letter = UInt8(ascii: "a")...UInt8(ascii: "z")
        guard bytes.count > 11 else { return false }
        for (offset, byte) in bytes.enumerated() {
            switch offset {
            case 4, 7, 10: guard byte == dash else { return false }
            case ..<10: guard digit.contains(byte) else { return false }
            default: guard digit.contains(byte) || letter.contains(byte) else { return false }
            }
        }
        return true
    }

    public static func < (a: SnapshotFileName, b: SnapshotFileName) -> Bool {
        (a.date, a.runId, a.fileName) < (b.date, b.runId, b.fileName)
    }
}

extension SnapshotStore {
    /// Applies `policy` to the snapshots of `pipeline`, never removing `latest`'s target nor
    /// `published`. Removes each snapshot's side files (manifest, metadata, report, change file,
    /// feeds folder) first, then the file, so a kill midway leaves at worst a snapshot without its
    /// side files, never side files of nothing that `snapshots` would list. Returns the removed
    /// snapshot files.
    @discardableResult
    public func applyRetention(_ policy: RetentionPolicy, pipeline: String, keeping published: URL) throws -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let snapshots = names.compactMap { SnapshotFileName($0, pipeline: pipeline) }
        var protected: Set<String> = [published.lastPathComponent]
        if let latest = latest(pipeline: pipeline) { protected.insert(latest.lastPathComponent) }
        var removed: [URL] = []
        for snapshot in policy.removals(from: snapshots, protecting: protected) {
            let file = directory.appendingPathComponent(snapshot.fileName)
            for suffix in [".manifest.json", ".metadata.json", SnapshotStore.reportSuffix, SnapshotStore.changesSuffix,
                           SnapshotStore.feedsSuffix, ""] {
                let path = file.path + suffix
                guard FileManager.default.fileExists(atPath: path) else { continue }
                do {
                    try FileManager.default.removeItem(atPath: path)
                } catch {
                    throw Failure(.fileSystem, "retention cannot remove an old snapshot: \(SystemMessage.describe(error))",
                                  at: path, cause: error)
                }
            }
            removed.append(file)
        }
        if !removed.isEmpty { try Durability.sync(path: directory.path) }
        return removed
    }
}
