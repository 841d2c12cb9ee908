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
}
