import Foundation

/// Time as a run sees it: the wall clock that stamps what it records, and the clock it waits and
/// measures on (politeness spacing, retry back-off, the fetch deadline, stage timings).
///
/// One value is handed to a run and everything under it, so that tests can hand in a clock they
/// advance themselves instead of sleeping; `.system` is the real time every command uses.
public struct RunClock: Sendable {
    /// A moment on the waiting clock, as the time since the `RunClock` value was made: any
    /// clock's instants become comparable values this way. Moments of one value compare; those of
    /// two values made apart do not share an origin.
    public struct Instant: Sendable, Hashable, Comparable {
        public let sinceOrigin: Duration

        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.sinceOrigin < rhs.sinceOrigin }
        public static func + (lhs: Instant, rhs: Duration) -> Instant { Instant(sinceOrigin: lhs.sinceOrigin + rhs) }
        public static func - (lhs: Instant, rhs: Instant) -> Duration { lhs.sinceOrigin - rhs.sinceOrigin }
    }

    /// The wall-clock time, for stamps that are written (run ids, `_runs`, events, `fetched_at`).
    public let now: @Sendable () -> Date
    /// The clock that waits and measures.
    public let clock: any Clock<Duration>
    private let elapsed: @Sendable () -> Duration

    public init<C: Clock>(now: @escaping @Sendable () -> Date, clock: C) where C.Duration == Duration {
        let origin = clock.now
        self.now = now
        self.clock = clock
        self.elapsed = { origin.duration(to: clock.now) }
    }

    /// The real time: `Date()` and the continuous clock (which, unlike the suspending one, keeps
    /// counting while the machine sleeps, as a deadline in wall time must).
    public static let system = RunClock(now: { Date() }, clock: ContinuousClock())

    /// The current moment on the waiting clock.
    public var instant: Instant { Instant(sinceOrigin: elapsed()) }

    /// Seconds from `start` to now on the waiting clock, as stage and partition timings record them.
    public func seconds(since start: Instant) -> Double {
        let (seconds, attoseconds) = (instant - start).components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Waits until `deadline` on the waiting clock; throws when the task is cancelled.
    public func sleep(until deadline: Instant) async throws {
        try await sleep(for: deadline - instant)
    }

    /// Waits `duration` on the waiting clock; throws when the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        try await clock.sleep(for: max(duration, .zero))
    }
}
