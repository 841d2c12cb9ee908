import Foundation
import Synchronization

/// Runs a few blocking jobs at once, each on a thread of its own, and waits for all of them.
///
/// Threads rather than Dispatch's pool: a job that waits on the disk (fsync) must not hold
/// back one that needs a core, and Dispatch sizes its pool to the cores.
enum SideBySide {
    /// Throws the error of the first job, in the order given, that failed. `whileWaiting` is
    /// called on the waiting thread every `pollInterval` until the jobs are done: a thread's
    /// task (a stop asked for, `Task.isCancelled`) is known only there.
    static func run(_ jobs: [@Sendable () throws -> Void], whileWaiting: (() -> Void)? = nil) throws {
        let errors = Mutex<[Int: any Error]>([:])
        let finished = DispatchGroup()
        for (index, job) in jobs.enumerated() {
            finished.enter()
            Thread {
                do {
                    try job()
                } catch {
                    errors.withLock { $0[index] = error }
                }
                finished.leave()
            }.start()
        }
        if let whileWaiting {
            while finished.wait(timeout: .now() + pollInterval) == .timedOut { whileWaiting() }
        } else {
            finished.wait()
        }
        if let first = errors.withLock({ $0.min { $0.key < $1.key }?.value }) {
            throw first
        }
    }

    static let pollInterval = DispatchTimeInterval.milliseconds(10)
}

/// A stop asked for, raised on one thread and seen on others.
public final class StopRequest: Sendable {
    private let raised: Mutex<Bool>

    init(raised: Bool) {
        self.raised = Mutex(raised)
    }

    func raise() {
        raised.withLock { $0 = true }
    }

    public var isRaised: Bool { raised.withLock { $0 } }
}
