/// The plans of one plans file with what they share: default meal periods, and how many terms
/// and weeks a year's price covers.
public struct PlanCatalog: Hashable, Sendable, Codable {
    public var plans: [MealPlan]
    public var periods: MealPeriods
    public var termsPerYear: Int
    public var weeksPerTerm: Int

    public init(plans: [MealPlan], periods: MealPeriods, termsPerYear: Int, weeksPerTerm: Int) {
        self.plans = plans
        self.periods = periods
        self.termsPerYear = termsPerYear
        self.weeksPerTerm = weeksPerTerm
    }

    public func plan(_ code: String) -> MealPlan? {
        plans.first { $0.code.lowercased() == code.lowercased() }
    }

    public func pricePerSwipe(of plan: MealPlan) -> Double? {
        plan.pricePerSwipe(termsPerYear: termsPerYear, weeksPerTerm: weeksPerTerm)
    }
}
