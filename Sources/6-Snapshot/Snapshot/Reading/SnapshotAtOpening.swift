import Foundation

/// A pipeline's latest snapshot as a run finds it before it harvests: the fingerprint of the
/// inputs it was built from (is it still current?) and the partitions it carries stale (is it
/// never current, and does it keep labels from an earlier night?), read on one connection.
/// Read where each was needed, the two cost three openings of the file, each parsing its
/// schema, on the way to the first partition.
///
/// Each fact is nil when it cannot be read: a damaged file is then never current and keeps
/// no labels, as when each was read on its own.
public struct SnapshotAtOpening: Sendable {
    public let url: URL
    /// `_meta.inputs_sha256`; nil for a snapshot from before it was recorded.
    public let inputsSHA256: String?
    public let stalePartitions: [StalePartition]?

    public init(reading url: URL) {
        self.url = url
        let facts = try? SnapshotReader.read(url) { db in
            (inputs: try? SnapshotReader.meta(db)[RunRecord.inputsMetaKey],
             stale: try? SnapshotReader.stalePartitions(in: db))
        }
        inputsSHA256 = facts?.inputs ?? nil
        stalePartitions = facts?.stale ?? nil
    }
}
