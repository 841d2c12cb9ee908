import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// `nutrition_details` as the items API prints it (`{label, value, unit}`), added to one item of
/// the real St. Olaf answer: 2022 answers print "< 1" for fibre and protein below a gram.
@Suite struct BonAppetitBoundsTests {
    private func answer(withDetails details: [String: Any], on id: String) throws -> Data {
        var top = try #require(try JSONSerialization.jsonObject(
            with: SharedData.load(BonAppetitTests.file)) as? [String: Any])
        var items = try #require(top["items"] as? [String: Any])
        var item = try #require(items[id] as? [String: Any])
        item["nutrition_details"] = details
        items[id] = item
        top["items"] = items
        return try JSONSerialization.data(withJSONObject: top)
    }

    private func firstItemId() throws -> String {
        let top = try #require(try JSONSerialization.jsonObject(
            with: SharedData.load(BonAppetitTests.file)) as? [String: Any])
        return try #require((top["items"] as? [String: Any])?.keys.sorted().first)
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
