import Basics
import FoodModel
import Foundation
import Snapshot

/// Where the service days go as partitions finish: into the staging snapshot, summed up in a
/// digest for the stages after the write. Used from the run's own task only.
final class MenuStream {
    private let staging: StagingSnapshot
    /// Writing days is the write stage's work, done early: its time is counted there.
    private let times: StageTimes
    private(set) var digest = MenuDigest()

    init(staging: StagingSnapshot, times: StageTimes) {
        self.staging = staging
        self.times = times
    }

    /// Which of `days`, appended next in this order without label versions, keep the rows the
    /// continued snapshot holds (`StagingSnapshot.wouldKeep`).
    func wouldKeep(_ days: [DayToWrite]) -> [Bool] {
        staging.wouldKeep(days)
    }

    /// A day the pipeline's `source` served, made ready on its partition's task; `labelVersions`:
    /// each item's label version, in page order (`LabelVersions.record`).
    func append(_ day: PreparedDays.Day, servedBy source: String, labelVersions: [Int?]) throws {
        try times.measure(.write) { try staging.append(day.rows, labelVersions: labelVersions) }
        try digest.add(day.menus, servedBy: source)
    }
}
