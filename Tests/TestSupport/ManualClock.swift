import Basics
import Foundation
import Synchronization

/// A clock that moves only when a test moves it, handed to the code under test as a `RunClock`:
/// spacing, back-off and deadlines then happen in the order the test sets, at once and whatever
/// the machine's load.
///
/// Written here rather than taken from swift-clocks (`TestClock`), which would bring three
/// packages for one type and advances by yielding a number of times, a guess; this one lets a
/// test wait until a task really waits on it (`advanceToNextWakeUp`).
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        public var offset: Duration
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Waiter {
        var id: UInt64
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextId: UInt64 = 0
        var waiters: [Waiter] = []
        /// Waits cancelled before they were registered.
        var cancelled: Set<UInt64> = []
        /// Tests waiting for a task to wait on the clock.
        var watchers: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    /// The wall-clock time at `Instant(offset: .zero)`.
    private let wallStart: Date

    public init(wallStart: Date = Date(timeIntervalSince1970: 1_791_763_200)) {
        self.wallStart = wallStart
    }

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// Time as the code under test sees it: this clock, and a wall clock that moves with it.
    public var runClock: RunClock {
        RunClock(now: { [self] in wallStart.addingTimeInterval(Self.seconds(now.offset)) }, clock: self)
    }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            state.nextId += 1
            return state.nextId
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, watchers): (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    state.waiters.append(Waiter(id: id, deadline: deadline, continuation: continuation))
                    defer { state.watchers = [] }
                    return (nil, state.watchers)
                }
                if let outcome { continuation.resume(with: outcome) }
                for watcher in watchers { watcher.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on by `duration` and wakes every task whose time has come.
    public func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.waiters.filter { $0.deadline <= now }
            state.waiters.removeAll { $0.deadline <= now }
            return due
        }
        for waiter in due { waiter.continuation.resume() }
    }

    /// Waits until some task waits on the clock, then moves the clock to the earliest wake-up;
    /// returns without moving it when the waiting task is cancelled.
    public func advanceToNextWakeUp() async {
        while !Task.isCancelled {
            if let earliest = state.withLock({ $0.waiters.map(\.deadline).min() }) {
                advance(by: now.duration(to: earliest))
                return
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (watcher: CheckedContinuation<Void, Never>) in
                    let registered = state.withLock { state in
                        guard state.waiters.isEmpty, !Task.isCancelled else { return false }
                        state.watchers.append(watcher)
                        return true
                    }
                    if !registered { watcher.resume() }
                }
            } onCancel: {
                let watchers = state.withLock { state in
                    defer { state.watchers = [] }
                    return state.watchers
                }
                for watcher in watchers { watcher.resume() }
            }
        }
    }

    /// Runs `operation` while moving the clock to each wake-up as soon as a task waits on it: a
    /// program that waits on this clock runs as if every wait were over at once, in order.
    public func driving<T: Sendable>(_ operation: () async throws -> T) async rethrows -> T {
        let driver = Task { while !Task.isCancelled { await advanceToNextWakeUp() } }
        defer { driver.cancel() }
        return try await operation()
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
