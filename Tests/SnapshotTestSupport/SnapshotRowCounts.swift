import Foundation
import Snapshot

extension SnapshotReader {
    /// Rows per data table of the snapshot at `url`, on a connection of its own: what tests
    /// compare a run's file with. A run reads its latest snapshot's on the night's connection
    /// (`LatestSnapshot.rowCounts`).
    public static func rowCounts(of url: URL) throws -> [String: Int] {
        try read(url) { db in try rowCounts(db) }
    }
}
