import Foundation
@testable import Pipeline
import Testing

@Suite struct RunIdTests {
    /// Retention keeps "the last N" by name, and three runs can start within one second (the
    /// retention test does exactly that): ids must sort in start order to the millisecond.
    @Test func runIdsOfOneDaySortInTheOrderTheRunsStarted() throws {
        let start = try #require(ISO8601DateFormatter().date(from: "2026-11-22T04:33:27Z"))
        let instants = (0..<50).map { start.addingTimeInterval(Double($0) * 0.002) }
        let ids = instants.map(StageContext.makeRunId(at:))
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
        #expect(ids[0].hasPrefix("043327000"))
        #expect(ids.allSatisfy { $0.count == 11 && $0.allSatisfy(\.isHexDigit) })
    }
}
