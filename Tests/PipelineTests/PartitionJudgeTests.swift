import FoodModel
import Foundation
@testable import Pipeline
import Testing

/// The rules a partition's new fetch is judged by, with figures worked out by hand.
@Suite struct PartitionJudgeTests {
    private let judge = PartitionJudge(policy: CheckPolicy(maxDayDrop: 0.5, minItemsPerMeal: 1))

    private func summary(items: [String: Int], withCodes: Int = 0, recipes: Int = 0) -> PartitionSummary {
        var summary = PartitionSummary()
        summary.itemsByMeal = items
        summary.menuItems = items.values.reduce(0, +)
        summary.itemsWithCodes = withCodes
        summary.recipes = recipes
        return summary
    }

    @Test func aServedMealWithNoItemsIsNeverValid() {
        let problems = judge.problems(summary(items: ["Lunch": 0, "Dinner": 12]), lastGood: nil, usual: nil)
        #expect(problems == ["Lunch has 0 menu item(s) (a served meal needs at least 1)"])
    }

    @Test func fallsAreMeasuredAgainstTheLastGoodFetch() {
        let lastGood = summary(items: ["Lunch": 40, "Dinner": 20], withCodes: 30)
        // 60 → 31 items is a fall of 48%: allowed. Dinner 20 → 9 is 55%: refused. Codes 16 of 31
        // (52%) against 30 of 60 (50%): fine.
        let fewer = summary(items: ["Lunch": 22, "Dinner": 9], withCodes: 16)
        #expect(judge.problems(fewer, lastGood: lastGood, usual: nil)
            == ["9 Dinner menu items against 20 in the last good fetch"])
        // Codes on 3 of 60 items (5%) against 50%.
        let uncoded = summary(items: ["Lunch": 40, "Dinner": 20], withCodes: 3)
        #expect(judge.problems(uncoded, lastGood: lastGood, usual: nil)
            == ["share of menu items with codes 5% against the last good fetch's 50%"])
        // A dump of 100 recipes against 442.
        #expect(judge.problems(summary(items: [:], recipes: 100), lastGood: summary(items: [:], recipes: 442), usual: nil)
            == ["100 recipes against 442 in the last good fetch"])
    }

    @Test func aFirstFetchIsJudgedOnItsShareOfCodesAgainstTheSourcesUsualFigure() {
        let usual = summary(items: ["Lunch": 300], withCodes: 150)
        // Counts are not compared with other days (a Sunday is smaller than a Monday), shares are.
        #expect(judge.problems(summary(items: ["Brunch": 30], withCodes: 14), lastGood: nil, usual: usual).isEmpty)
        #expect(judge.problems(summary(items: ["Brunch": 30], withCodes: 2), lastGood: nil, usual: usual)
            == ["share of menu items with codes 7% against the source's usual 50%"])
        // A last good fetch of four items is no reference for a share; the source's usual is.
        #expect(judge.problems(summary(items: ["Brunch": 30], withCodes: 2), lastGood: summary(items: ["Brunch": 4]),
                               usual: usual).count == 1)
        // Four items are too few to judge a share at all.
        #expect(judge.problems(summary(items: ["Brunch": 4]), lastGood: nil, usual: usual).isEmpty)
    }

    // MARK: - A degraded structure

    @Test func placeholderNamesAreASignPastATenthOfTheItems() {
        var day = summary(items: ["Lunch": 40])
        // 4 of 40 is a tenth: allowed; 5 of 40 is not.
        day.itemsInUnnamedSections = 4
        day.itemsNamedByID = 4
        #expect(judge.degradation(day, lastGood: nil) == ([], []))
        day.itemsInUnnamedSections = 5
        #expect(judge.degradation(day, lastGood: nil).refusals
            == ["5 of 40 menu item(s) are in sections the source did not name (placeholder_names)"])
        day.itemsInUnnamedSections = 0
        day.itemsNamedByID = 40
        #expect(judge.degradation(day, lastGood: nil).refusals
            == ["40 of 40 menu item(s) are named only by their id (placeholder_names)"])
    }

    @Test func aMealARestaurantNoLongerServesIsASign() {
        var lastGood = summary(items: ["Lunch": 40, "Dinner": 20])
        lastGood.mealsByRestaurant = ["Covel": ["Dinner", "Lunch"], "De Neve": ["Dinner", "Lunch"], "Feast": ["Dinner"]]
        var now = summary(items: ["Lunch": 40])
        // Feast is gone altogether: required restaurants judge that, not this sign.
        now.mealsByRestaurant = ["Covel": ["Lunch"], "De Neve": ["Lunch"]]
        #expect(judge.degradation(now, lastGood: lastGood).refusals
            == ["Dinner is gone from Covel, De Neve, which served it in the last good fetch (missing_meals)"])
        // A meal added is no sign, and without a last good fetch nothing is compared.
        now.mealsByRestaurant = ["Covel": ["Brunch", "Dinner", "Lunch"], "De Neve": ["Dinner", "Lunch"]]
        #expect(judge.degradation(now, lastGood: lastGood) == ([], []))
        now.mealsByRestaurant = [:]
        #expect(judge.degradation(now, lastGood: nil) == ([], []))
    }

    @Test func mostLabelsOfZerosAreASign() {
        var day = summary(items: ["Lunch": 40])
        day.labels = 24
        day.zeroedLabels = 12
        // Half is allowed (real days have a few labels nobody filled in); more is not.
        #expect(judge.degradation(day, lastGood: nil) == ([], []))
        day.zeroedLabels = 13
        #expect(judge.degradation(day, lastGood: nil).refusals == ["13 of 24 label(s) read print only zeros (zeroed_labels)"])
        // Nineteen labels are too few to judge: a day that reads a handful of new foods may
        // well draw several that nobody filled in.
        day.labels = 19
        day.zeroedLabels = 19
        #expect(judge.degradation(day, lastGood: nil) == ([], []))
    }

    @Test func eachSignIsRefusedOrWarnedAsThePolicySays() {
        var policy = CheckPolicy()
        policy.degradedDay = DegradedDayPolicy(placeholderNames: .warn, missingMeals: .refuse, zeroedLabels: .warn)
        let judge = PartitionJudge(policy: policy)
        var lastGood = summary(items: ["Lunch": 10, "Dinner": 10])
        lastGood.mealsByRestaurant = ["Covel": ["Dinner", "Lunch"]]
        var now = summary(items: ["Lunch": 10])
        now.mealsByRestaurant = ["Covel": ["Lunch"]]
        now.itemsNamedByID = 10
        now.labels = 20
        now.zeroedLabels = 20
        let verdict = judge.degradation(now, lastGood: lastGood)
        #expect(verdict.refusals == ["Dinner is gone from Covel, which served it in the last good fetch (missing_meals)"])
        #expect(verdict.warnings == ["10 of 10 menu item(s) are named only by their id (placeholder_names)",
                                     "20 of 20 label(s) read print only zeros (zeroed_labels)"])
    }

    /// A summary the ledger kept before these figures were counted still reads.
    @Test func anOlderSummaryReadsWithTheNewFiguresAtZero() throws {
        let old = Data(#"{"menuItems":12,"itemsByMeal":{"Lunch":12},"itemsWithCodes":3,"recipes":0}"#.utf8)
        let read = try JSONDecoder().decode(PartitionSummary.self, from: old)
        #expect(read.menuItems == 12 && read.itemsByMeal == ["Lunch": 12] && read.itemsWithCodes == 3)
        #expect(read.mealsByRestaurant.isEmpty && read.labels == 0 && read.itemsNamedByID == 0)
    }
}
