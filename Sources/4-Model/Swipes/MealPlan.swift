import FoodModel

/// A meal plan as UCLA sells it (docs/meal-plans.md), read from `Pipelines/plans/`.
///
/// Both kinds share the same reference week: how many swipes a student who eats every meal the
/// plan pays for uses on each weekday. What differs is what the balance counts: a Regular plan's
/// weekly allowance, or a Premier plan's pool for the whole term.
public struct MealPlan: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// A weekly allowance, one swipe per meal period, reset every Monday, no rollover.
        case regular
        /// A pool for the whole term, several swipes per period allowed, expiring at term end.
        case premier
    }

    /// `19P`, `14R`, ...
    public var code: String
    public var name: String
    public var kind: Kind
    /// Swipes of the reference week, Monday first (BruinLife's tables: 19 is 3,3,3,3,3,2,2).
    public var dailySwipes: [Int]
    /// The term pool of a Premier plan (19P: 209); nil for a Regular plan.
    public var termPool: Int?
    /// The annual price in cents, when one is given, and the academic year it is for.
    public var annualPriceCents: Int?
    public var priceYear: String?

    public init(code: String, name: String, kind: Kind, dailySwipes: [Int], termPool: Int? = nil,
                annualPriceCents: Int? = nil, priceYear: String? = nil) {
        self.code = code
        self.name = name
        self.kind = kind
        self.dailySwipes = dailySwipes
        self.termPool = termPool
        self.annualPriceCents = annualPriceCents
        self.priceYear = priceYear
    }

    /// The weekly allowance: the sum of the reference week.
    public var weeklySwipes: Int { dailySwipes.reduce(0, +) }

    /// The reference swipes of one day.
    public func swipes(on date: ServiceDate) -> Int {
        let index = date.isoWeekday - 1
        return dailySwipes.indices.contains(index) ? dailySwipes[index] : 0
    }

    /// Swipes one term of the plan buys: the pool, or the weekly allowance times the weeks a
    /// term has for meal plans (ten of instruction and finals week).
    public func swipesPerTerm(weeksPerTerm: Int) -> Int {
        termPool ?? weeklySwipes * weeksPerTerm
    }

    /// The annual price over every swipe the year buys, in dollars rounded to the cent; nil
    /// without a price.
    public func pricePerSwipe(termsPerYear: Int, weeksPerTerm: Int) -> Double? {
        let swipes = swipesPerTerm(weeksPerTerm: weeksPerTerm) * termsPerYear
        guard let cents = annualPriceCents, swipes > 0 else { return nil }
        // Rounded half up in whole cents, so that 13.5714… prints as 13.57 on every platform.
        return Double((2 * cents + swipes) / (2 * swipes)) / 100
    }
}
