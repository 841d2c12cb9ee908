import Basics
import Foundation
@testable import Snapshot
import Synchronization
import Testing

@Suite struct SideBySideTests {
    private struct Failure: Error, Equatable {
        let job: Int
    }

    /// Each job waits for the other to start: run one after the other, both would time out.
    @Test func runsTheJobsAtTheSameTime() throws {
        let first = DispatchSemaphore(value: 0)
        let second = DispatchSemaphore(value: 0)
        let met = Mutex(0)
        try SideBySide.run([
            {
                first.signal()
                if second.wait(timeout: .now() + 10) == .success { met.withLock { $0 += 1 } }
            },
            {
                second.signal()
                if first.wait(timeout: .now() + 10) == .success { met.withLock { $0 += 1 } }
            },
        ])
        #expect(met.withLock { $0 } == 2)
    }

    @Test func everyJobRunsAndTheFirstFailureInJobOrderIsThrown() {
        let ran = Mutex<Set<Int>>([])
        let secondFailing = DispatchSemaphore(value: 0)
        let thrown = #expect(throws: Failure.self) {
            try SideBySide.run([
                { ran.withLock { _ = $0.insert(0) } },
                {
                    // Fails after job 2 (waits for it), but comes first among the failing jobs.
                    _ = secondFailing.wait(timeout: .now() + 10)
                    ran.withLock { _ = $0.insert(1) }
                    throw Failure(job: 1)
                },
                {
                    defer { secondFailing.signal() }
                    ran.withLock { _ = $0.insert(2) }
                    throw Failure(job: 2)
                },
            ])
        }
        #expect(thrown == Failure(job: 1))
        #expect(ran.withLock { $0 } == [0, 1, 2])
    }
}
