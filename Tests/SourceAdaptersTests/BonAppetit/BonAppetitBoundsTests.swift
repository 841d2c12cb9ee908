import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// `nutrition_details` as the items API prints it (`{label, value, unit}`), added to one item of
/// the real St. Olaf answer: 2022 answers print "< 1" for fibre and protein below a gram.
@Suite struct BonAppetitBoundsTests {
    private func answer(withDetails details: [String: Any], on id: String) throws -> Data {
        try answer(withDetails: [id: details])
    }

    /// The real answer with `nutrition_details` given to the items of these ids.
    private func answer(withDetails detailsByItem: [String: [String: Any]]) throws -> Data {
        var top = try #require(try JSONSerialization.jsonObject(
            with: SharedData.load(BonAppetitTests.file)) as? [String: Any])
        var items = try #require(top["items"] as? [String: Any])
        for (id, details) in detailsByItem {
            var item = try #require(items[id] as? [String: Any])
            item["nutrition_details"] = details
            items[id] = item
        }
        top["items"] = items
        return try JSONSerialization.data(withJSONObject: top)
    }

    private func firstItemId() throws -> String {
        try #require(try itemIds().first)
    }

    private func itemIds() throws -> [String] {
        let top = try #require(try JSONSerialization.jsonObject(
            with: SharedData.load(BonAppetitTests.file)) as? [String: Any])
        return try #require((top["items"] as? [String: Any])?.keys.sorted())
    }

    /// Units are judged per declared unit: vitamin D declared 2 mg on one item (implausible: read
    /// in mcg) and 40 IU on another, which stays 40 IU. The unit of the first item the answer's
    /// dictionary happened to give was forced on every item, so from one parse to the next the IU
    /// were read as micrograms, 40 times too many, or the 2 stayed milligrams.
    @Test func eachDeclaredUnitIsJudgedOnItsOwnAndAlwaysAlike() throws {
        let ids = try itemIds()
        try #require(ids.count >= 2)
        let data = try answer(withDetails: [
            ids[0]: ["vitaminD": ["label": "Vitamin D", "value": "2", "unit": "mg"]],
            ids[1]: ["vitaminD": ["label": "Vitamin D", "value": "40", "unit": "IU"]],
        ])
        for _ in 0..<10 {
            let parsed = try BonAppetitMenu.parse(data, location: "units.json")
            let first = try #require(parsed.foods.first { $0.id.recipeId == ids[0] }?.nutrients.first { $0.name == "Vitamin D" })
            let second = try #require(parsed.foods.first { $0.id.recipeId == ids[1] }?.nutrients.first { $0.name == "Vitamin D" })
            #expect(first.amount == 2 && first.unit == "mcg")
            #expect(second.amount == 40 && second.unit == "IU")
        }
    }

    /// One value no unit the others share admits (vitamin D 100 "mg" among 1.5 and 2 "mg", which
    /// are micrograms) is left out and said, and the others are read in micrograms.
    @Test func anImpossibleValueAmongOthersIsLeftOut() throws {
        let ids = try itemIds()
        try #require(ids.count >= 3)
        let data = try answer(withDetails: [
            ids[0]: ["vitaminD": ["label": "Vitamin D", "value": "1.5", "unit": "mg"]],
            ids[1]: ["vitaminD": ["label": "Vitamin D", "value": "2", "unit": "mg"]],
            ids[2]: ["vitaminD": ["label": "Vitamin D", "value": "100", "unit": "mg"]],
        ])
        let parsed = try BonAppetitMenu.parse(data, location: "units.json")
        for (id, amount) in [(ids[0], 1.5), (ids[1], 2.0)] {
            let value = parsed.foods.first { $0.id.recipeId == id }?.nutrients.first { $0.name == "Vitamin D" }
            #expect(value?.amount == amount && value?.unit == "mcg")
        }
        #expect(parsed.foods.first { $0.id.recipeId == ids[2] }?.nutrients.contains { $0.name == "Vitamin D" } == false)
        #expect(parsed.problems.contains { $0.contains("nutrition_details.vitaminD is 100 mg, more than a serving of any food holds in mcg") },
                "\(parsed.problems)")
    }

    @Test func aPrintedBoundIsABoundNotALeftOutValue() throws {
        let id = try firstItemId()
        let data = try answer(withDetails: [
            "fiberContent": ["label": "Dietary Fiber", "value": "< 1", "unit": "g"],
            "proteinContent": ["label": "Protein", "value": "<1", "unit": "g"],
            "fatContent": ["label": "Total Fat", "value": "10", "unit": "g"],
        ], on: id)
        let parsed = try BonAppetitMenu.parse(data, location: "bounds.json")
        #expect(parsed.problems.allSatisfy { !$0.contains("left out") }, "\(parsed.problems)")
        let food = try #require(parsed.foods.first { $0.id.recipeId == id })
        let fibre = try #require(food.nutrients.first { $0.name == "Dietary Fiber" })
        #expect(fibre.amount == nil && fibre.amountBelow == 1 && fibre.printedAmount == "< 1" && fibre.unit == "g")
        let protein = try #require(food.nutrients.first { $0.name == "Protein" })
        #expect(protein.amount == nil && protein.amountBelow == 1 && protein.printedAmount == "<1")
        #expect(food.nutrients.first { $0.name == "Total Fat" }?.amount == 10)
    }

    @Test func textThatIsNoAmountNorABoundIsStillLeftOutAndSaid() throws {
        let id = try firstItemId()
        let data = try answer(withDetails: ["fiberContent": ["label": "Dietary Fiber", "value": "some", "unit": "g"]], on: id)
        let parsed = try BonAppetitMenu.parse(data, location: "bounds.json")
        #expect(parsed.problems.contains { $0.contains("nutrition_details.fiberContent is \"some\", not an amount: left out") })
        let food = try #require(parsed.foods.first { $0.id.recipeId == id })
        #expect(!food.nutrients.contains { $0.name == "Dietary Fiber" })
    }
}
