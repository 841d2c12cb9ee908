import Basics
import Synchronization

/// Time a stage spends outside its own turn: fetching and parsing while partitions run side by
/// side, storing fetched documents between them, days written as partitions finish. The stage
/// log adds what a stage spent here to the stage when it records it (`StageLog`), so no stage
/// keeps a timer of its own. Shared by the run's tasks.
final class StageTimes: Sendable {
    private let clock: RunClock
    private let spent = Mutex<[StageName: Double]>([:])

    init(clock: RunClock) {
        self.clock = clock
    }

    /// Runs `work` and counts its time to `stage`.
    func measure<Value>(_ stage: StageName, _ work: () throws -> Value) rethrows -> Value {
        let started = clock.instant
        defer { add(clock.seconds(since: started), to: stage) }
        return try work()
    }

    /// Counts time measured elsewhere (a partition's, summed over partitions) to `stage`.
    func add(_ seconds: Double, to stage: StageName) {
        spent.withLock { $0[stage, default: 0] += seconds }
    }

    func seconds(of stage: StageName) -> Double {
        spent.withLock { $0[stage] ?? 0 }
    }
}
