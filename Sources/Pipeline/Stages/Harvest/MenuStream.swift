import Basics
import FoodModel
import Foundation
import Snapshot

/// Where the service days go as partitions finish: into the staging snapshot, summed up in a
/// digest for the stages after the write. Used from the run's own task only.
final class MenuStream {
    private let staging: StagingSnapshot
    private let clock: RunClock
    private(set) var digest = MenuDigest()
    /// Time spent writing days, which belongs to the write stage.
    private(set) var seconds = 0.0

    init(staging: StagingSnapshot, clock: RunClock) {
        self.staging = staging
        self.clock = clock
    }

    /// `labelVersions`: each item's label version, in page order (`LabelVersions.record`).
    func append(_ day: ServiceDay, labelVersions: [Int?] = []) throws {
        let started = clock.instant
        defer { seconds += clock.seconds(since: started) }
        try staging.append(day, labelVersions: labelVersions)
        digest.add(day)
    }
}
