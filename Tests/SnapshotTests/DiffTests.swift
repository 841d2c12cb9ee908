import FoodModel
import Foundation
import Snapshot
import Testing

/// Diffs of snapshots of the small dataset (Support.swift) and of edited copies of it, whose
/// every change is made here, so the expected change list is known without running the code.
@Suite struct DiffTests {
    private let burger = FoodID(source: "ucla-menu", recipeId: "400317")
    private let penne = RecipeID(source: "mealdb", id: "52771")

    private func publish(_ dataset: Dataset, runId: String, in folder: URL) throws -> URL {
        let staging = try stage(dataset, in: folder, runId: runId)
        defer { staging.discard() }
        return try SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
            .publish(staging, fileName: "demo-2026-10-12-\(runId).sqlite", pipeline: "demo")
    }

    private func edited() -> Dataset {
        var dataset = smallDataset()
        // Saturday, Brunch, De Neve, Grill: the fries (the only appearance of that food) go.
        dataset.serviceDays[0].meals[0].restaurants[1].sections[0].foods.removeLast()
        dataset.foods[burger]?.nutrients[0].amount = 25
        dataset.foods[burger]?.nutrients.append(
            NutrientValue(key: .sodium, name: "Sodium", amount: 500, unit: "mg", printedDailyValuePercent: nil))
        dataset.recipes[penne]?.tags.append("Quick")
        let soup = Recipe(id: RecipeID(source: "mealdb", id: "52800"), name: "Lentil Soup", category: "Vegetarian",
                          steps: ["Simmer."], tags: [], ingredients: [])
        dataset.recipes[soup.id] = soup
        return dataset
    }

    @Test func snapshotsOfTheSameDataByDifferentRunsDoNotDiffer() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try publish(smallDataset(), runId: "r1", in: folder)
        let second = try publish(smallDataset(), runId: "r2", in: folder)
        let diff = try SnapshotDiff.between(first, second)
        #expect(diff.isEmpty)
        #expect(diff.text() == "No differences in foods, menu items, nutrients or recipes.\n")
    }

    @Test func listsExactlyTheEditsMade() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = try publish(smallDataset(), runId: "r1", in: folder)
        let new = try publish(edited(), runId: "r2", in: folder)
        let diff = try SnapshotDiff.between(old, new)

        #expect(diff.foodsAdded.isEmpty)
        #expect(diff.foodsRemoved == [.init(id: "ucla-menu:061005", name: "Fries")])
        #expect(diff.foodsChanged.isEmpty)
        #expect(diff.menuItemsAdded.isEmpty)
        #expect(diff.menuItemsRemoved == [.init(date: "2026-10-10", meal: "Brunch", restaurant: "De Neve",
                                                section: "Grill", foodId: "ucla-menu:061005", item: "Fries",
                                                portion: "1", description: nil)])
        #expect(diff.nutrientsChanged.map { "\($0.foodId) \($0.nutrientKey) \($0.field) \($0.old?.description ?? "NULL") \($0.new?.description ?? "NULL")" }
                == ["ucla-menu:400317 sodium amount NULL 500",
                    "ucla-menu:400317 sodium unit NULL mg",
                    "ucla-menu:400317 total_fat amount 21.3 25"])
        #expect(diff.recipesAdded == [.init(id: "mealdb:52800", name: "Lentil Soup")])
        #expect(diff.recipesRemoved.isEmpty)
        #expect(diff.recipesChanged == [.init(id: "mealdb:52771", name: "Spicy Arrabiata Penne", changes: [
            .init(field: "tags", old: .text("Curry, Pasta"), new: .text("Curry, Pasta, Quick")),
        ])])

        #expect(diff.text() == """
            Foods removed (1):
              - ucla-menu:061005 Fries
            Menu items removed (1):
              - 2026-10-10 Brunch, De Neve / Grill: Fries (ucla-menu:061005, portion 1)
            Nutrients changed (3):
              ~ ucla-menu:400317 Bruin Cheeseburger: sodium amount NULL → "500"
              ~ ucla-menu:400317 Bruin Cheeseburger: sodium unit NULL → "mg"
              ~ ucla-menu:400317 Bruin Cheeseburger: total_fat amount "21.3" → "25"
            Recipes added (1):
              + mealdb:52800 Lentil Soup
            Recipes changed (1):
              ~ mealdb:52771 Spicy Arrabiata Penne: tags "Curry, Pasta" → "Curry, Pasta, Quick"

            """)

        // Reversed, additions become removals.
        let back = try SnapshotDiff.between(new, old)
        #expect(back.foodsAdded == diff.foodsRemoved)
        #expect(back.menuItemsAdded == diff.menuItemsRemoved)
        #expect(back.recipesRemoved == diff.recipesAdded)
    }

    @Test func jsonUsesSnakeCaseKeysAndNullForMissingValues() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let diff = try SnapshotDiff.between(try publish(smallDataset(), runId: "r1", in: folder),
                                            try publish(edited(), runId: "r2", in: folder))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(try diff.json().utf8)) as? [String: Any])
        let nutrients = try #require(object["nutrients_changed"] as? [[String: Any]])
        #expect(nutrients.count == 3)
        #expect(nutrients[0]["food_id"] as? String == "ucla-menu:400317")
        #expect(nutrients[0]["old"] is NSNull)
        // A number stays a number (sodium 500 mg); the unit beside it is text.
        #expect((nutrients[0]["new"] as? NSNumber)?.intValue == 500 && !(nutrients[0]["new"] is String))
        #expect(nutrients[1]["new"] as? String == "mg")
        let removed = try #require(object["menu_items_removed"] as? [[String: Any]])
        #expect(removed.first?["description"] is NSNull)
        #expect((object["foods_added"] as? [Any])?.isEmpty == true)
    }
}
