import Testing
@testable import Report

/// The quartiles of the report's nutrition charts, from each label's value and the number of
/// items served with it rather than from a list of every item. Expected values worked out by
/// hand: with n items sorted, the q-quantile sits at rank q × (n − 1), between two ranks by
/// linear interpolation.
@Suite struct SpreadTests {
    @Test func fourDistinctValuesInterpolateBetweenRanks() throws {
        let spread = try #require(Spread(counted: [(4, 1), (1, 1), (3, 1), (2, 1)]))
        // Ranks 0...3 hold 1, 2, 3, 4: 25% at 0.75 → 1.75, median at 1.5 → 2.5, 75% at 2.25 → 3.25.
        #expect(spread.count == 4)
        #expect(spread.minimum == 1 && spread.maximum == 4)
        #expect(spread.lowerQuartile == 1.75 && spread.median == 2.5 && spread.upperQuartile == 3.25)
    }

    @Test func countsWeighAValueAsThatManyItems() throws {
        // 10 served three times and 20 once: ranks hold 10, 10, 10, 20; 75% at 2.25 is a quarter
        // of the way from 10 to 20. A value served on no item counts for nothing.
        let spread = try #require(Spread(counted: [(20, 1), (10, 3), (500, 0)]))
        #expect(spread.count == 4)
        #expect(spread.minimum == 10 && spread.lowerQuartile == 10 && spread.median == 10)
        #expect(spread.upperQuartile == 12.5 && spread.maximum == 20)
    }

    @Test func noItemsIsNoSpread() {
        #expect(Spread(counted: []) == nil)
        #expect(Spread(counted: [(7, 0)]) == nil)
    }
}
