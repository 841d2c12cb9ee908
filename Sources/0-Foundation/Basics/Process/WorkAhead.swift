import Foundation

/// A value worked out on another thread from the moment it is made, for a reader that goes on
/// with the next piece meanwhile and takes the value, in order, when it needs it: a recipe
/// spool's next batch decoded while the writer inserts this one; a dump's batch of meals decoded
/// while the reader finds the next.
public final class WorkAhead<Value>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written once by the working thread before `done` is signalled, read after the wait.
    private var result: Result<Value, any Error>?
    /// Whether the reader waited already; touched by the reading thread alone.
    private var waited = false

    public init(_ work: @escaping @Sendable () throws -> Value) {
        AheadThread.shared.run { [self] in
            result = Result { try work() }
            done.signal()
        }
    }

    /// The same, on a thread made for this work alone: a piece done once in a run that nothing
    /// given to the shared thread before it may delay (a staging database's schema, which the
    /// run's first write waits for, whatever else the process has under way).
    public static func onAThreadOfItsOwn(_ work: @escaping @Sendable () throws -> Value) -> WorkAhead {
        let ahead = WorkAhead()
        Thread {
            ahead.result = Result { try work() }
            ahead.done.signal()
        }.start()
        return ahead
    }

    private init() {}

    /// The value, once worked out; the work's error, if it threw. Waits only the first time.
    public func value() throws -> Value {
        if !waited {
            done.wait()
            waited = true
        }
        guard let result else { preconditionFailure("the work signalled before keeping its result") }
        return try result.get()
    }
}

/// The thread `WorkAhead`'s work runs on, a piece at a time in the order given, for as long as
/// the process lives.
///
/// It is not one of the dispatch pool's, which has a thread per core and runs the run's tasks:
/// work that spreads itself over every core from there (`mappedOnEveryCore`) found no other
/// thread free and ran on one core alone. It is one thread, made once: a thread for each piece
/// gave each its own allocator arena, which kept what it freed and added a third to the peak
/// memory of a hundred thousand recipes. A piece of work must not wait for another given to it:
/// that one would wait behind it.
private final class AheadThread: @unchecked Sendable {
    static let shared = AheadThread()

    private let waiting = NSCondition()
    /// Guarded by `waiting`.
    private var work: [@Sendable () -> Void] = []

    private init() {
        let thread = Thread { [self] in
            while true { next()() }
        }
        thread.name = "commissary.work-ahead"
        thread.start()
    }

    func run(_ piece: @escaping @Sendable () -> Void) {
        waiting.lock()
        work.append(piece)
        waiting.signal()
        waiting.unlock()
    }

    /// The next piece given, once there is one.
    private func next() -> @Sendable () -> Void {
        waiting.lock()
        defer { waiting.unlock() }
        while work.isEmpty { waiting.wait() }
        return work.removeFirst()
    }
}
