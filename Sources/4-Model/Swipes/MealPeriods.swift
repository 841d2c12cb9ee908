import FoodModel

/// Which meal periods a day has, and which of them a plan's swipes of that day go to.
///
/// The periods of a day are those of the menus actually published for it (a weekend has Brunch
/// and Dinner, the 2016 dataset calls brunch Lunch, Thanksgiving Sunday 2016 served Dinner only);
/// a day with no published menu falls back to the defaults of the plans file.
public struct MealPeriods: Hashable, Sendable, Codable {
    /// Monday to Friday, in serving order.
    public var weekdays: [String]
    /// Saturday and Sunday.
    public var weekends: [String]
    /// The periods a day's swipes go to first. BruinLife's 14 uses two swipes a weekday and its
    /// 11 one on some days: a student who eats fewer meals than are served skips breakfast
    /// first, so Dinner comes first here. A period not listed (Late Night) ranks last.
    public var priority: [String]

    public init(weekdays: [String], weekends: [String], priority: [String]) {
        self.weekdays = weekdays
        self.weekends = weekends
        self.priority = priority
    }

    public func defaults(on date: ServiceDate) -> [String] {
        date.isoWeekday >= 6 ? weekends : weekdays
    }

    /// The rank of a period: lower goes first; names compare without case.
    func rank(of period: String) -> Int {
        priority.firstIndex { $0.lowercased() == period.lowercased() } ?? priority.count
    }

    /// Spreads `swipes` over the day's periods (in serving order): one to each of the best ranked
    /// periods; what is left over (more swipes than periods) goes to the best ranked period when
    /// the plan allows several swipes a period, and is forfeited otherwise.
    func spread(_ swipes: Int, over periods: [String], severalPerPeriod: Bool) -> [Int] {
        guard !periods.isEmpty, swipes > 0 else { return periods.map { _ in 0 } }
        let ranked = periods.indices.sorted { (rank(of: periods[$0]), -$0) < (rank(of: periods[$1]), -$1) }
        var spread = periods.map { _ in 0 }
        for index in ranked.prefix(swipes) { spread[index] = 1 }
        if severalPerPeriod, swipes > periods.count, let best = ranked.first {
            spread[best] += swipes - periods.count
        }
        return spread
    }
}
