import Foundation
import Synchronization

/// Runs a few blocking jobs at once, each on a thread of its own, and waits for all of them.
///
/// Threads rather than Dispatch's pool: a job that waits on the disk (fsync) must not hold
/// back one that needs a core, and Dispatch sizes its pool to the cores.
enum SideBySide {
    /// Throws the error of the first job, in the order given, that failed.
    static func run(_ jobs: [@Sendable () throws -> Void]) throws {
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
        finished.wait()
        if let first = errors.withLock({ $0.min { $0.key < $1.key }?.value }) {
            throw first
        }
    }
}
