/// Five numbers that describe a distribution.
struct Spread {
    var minimum: Double
    var lowerQuartile: Double
    var median: Double
    var upperQuartile: Double
    var maximum: Double

    /// How many items there are (the sum of the counts).
    var count: Int

    /// Quartiles by linear interpolation between closest ranks, over values each counted as
    /// many times as it was served: a decade of menus is a million items but a few thousand
    /// labels, so the items are never listed one by one. Nil for no values.
    init?(counted values: [(value: Double, count: Int)]) {
        let sorted = values.filter { $0.count > 0 }.sorted { $0.value < $1.value }
        count = sorted.reduce(0) { $0 + $1.count }
        guard let first = sorted.first, let last = sorted.last else { return nil }
        // The value at each rank, from the running totals of the counts.
        var ends: [Int] = []
        ends.reserveCapacity(sorted.count)
        var total = 0
        for entry in sorted {
            total += entry.count
            ends.append(total)
        }
        func value(atRank rank: Int) -> Double {
            var low = 0, high = ends.count - 1
            while low < high {
                let middle = (low + high) / 2
                if ends[middle] > rank { high = middle } else { low = middle + 1 }
            }
            return sorted[low].value
        }
        let count = self.count
        func quantile(_ q: Double) -> Double {
            let position = q * Double(count - 1)
            let low = Int(position.rounded(.down)), high = Int(position.rounded(.up))
            let lowValue = value(atRank: low)
            return lowValue + (value(atRank: high) - lowValue) * (position - Double(low))
        }
        minimum = first.value
        lowerQuartile = quantile(0.25)
        median = quantile(0.5)
        upperQuartile = quantile(0.75)
        maximum = last.value
    }
}
