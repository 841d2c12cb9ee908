import FoodModel
import Foundation
import Snapshot
import Testing

/// Last night's labels read back from a snapshot (`LatestSnapshot.readLabels`), as a night that
/// keeps a label it lost tonight reads them: each food as it was written, in batches.
struct PublishedLabelsTests {
    private static let source = "ucla-menu"

    /// A food whose every field the snapshot keeps is set: a label with a "less than" row, codes,
    /// allergens, a serving, a basis, a batch, and a composition with a heading and a sub-recipe.
    private static func fullFood(sauce: FoodID) -> Food {
        var food = Food(
            id: FoodID(source: source, recipeId: "100"), name: "Chicken Tikka", description: "Grilled, in sauce",
            servingSize: "4 oz", calories: 210,
            nutrients: [
                NutrientValue(key: .sodium, name: "Sodium", amount: 480, unit: "mg", printedDailyValuePercent: 21),
                NutrientValue(key: .totalFat, name: "Total Fat", amount: 9.5, unit: "g", printedDailyValuePercent: 12),
                NutrientValue(key: .transFat, name: "Trans Fat", amount: nil, unit: "g", printedAmount: "<1",
                              amountBelow: 1),
            ],
            ingredients: "Chicken, Yogurt, Spices", allergens: ["Milk", "Soy"], codes: ["AMLK", "ASOY"],
            labelBasis: .serving)
        food.serving = ServingSize(amount: 4, unit: "oz")
        food.batchPortions = 48
        food.components = [
            FoodComponent(name: "Marinade", isHeading: true),
            FoodComponent(name: "Chicken thigh", amount: 10, unit: "lb"),
            FoodComponent(name: "Tikka sauce", amount: 2, unit: "qt", food: sauce, isSubRecipe: true),
        ]
        return food
    }

    private static func plainFood(_ number: Int) -> Food {
        Food(id: FoodID(source: source, recipeId: String(1000 + number)), name: "Dish \(number)", servingSize: "1 each",
             nutrients: [NutrientValue(key: .sodium, name: "Sodium", amount: Double(number), unit: "mg")],
             labelBasis: .serving)
    }

    /// A day that serves every food of `foods`, so that each is written with its page.
    private static func dataset(_ foods: [Food]) -> Dataset {
        let items = foods.map { MenuItem(source: $0.id.source, recipeId: $0.id.recipeId, name: $0.name, portion: "1") }
        let day = ServiceDay(date: ServiceDate("2026-10-10")!, meals: [
            Meal(name: "Lunch", restaurants: [Restaurant(name: "Covel", sections: [Section(name: "Grill", foods: items)])]),
        ])
        return Dataset(serviceDays: [day], foods: Dictionary(uniqueKeysWithValues: foods.map { ($0.id, $0) }))
    }

    @Test func everyFieldOfALabelComesBackAsItWasWritten() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sauce = FoodID(source: Self.source, recipeId: "101")
        let full = Self.fullFood(sauce: sauce)
        // A food with a page and no label row: nothing to keep.
        let bare = Food(id: sauce, name: "Tikka sauce", servingSize: "2 oz")
        let snapshot = try SnapshotStore(directory: folder.appendingPathComponent("snapshots")).publish(
            try stage(Self.dataset([full, bare]), in: folder), fileName: "demo-2026-10-12-r1.sqlite", pipeline: "demo")
        let unknown = FoodID(source: Self.source, recipeId: "999")
        let read = try LatestSnapshot(reading: snapshot).readLabels { try $0.foods([unknown, sauce, full.id]) }
        #expect(Array(read.keys) == [full.id])
        #expect(read[full.id] == full)
    }

    @Test func aThousandFoodsAskedForAreAllRead() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 1,201 foods, more than SQLite binds values in one statement by default in older builds
        // (999): named in one JSON list, they are read in one query per table.
        let foods = (0...1200).map(Self.plainFood)
        let snapshot = try SnapshotStore(directory: folder.appendingPathComponent("snapshots")).publish(
            try stage(Self.dataset(foods), in: folder), fileName: "demo-2026-10-12-r1.sqlite", pipeline: "demo")
        let read = try LatestSnapshot(reading: snapshot).readLabels { try $0.foods(foods.map(\.id).reversed()) }
        #expect(read.count == 1201)
        #expect(read[foods[0].id]?.nutrients.first?.amount == 0)
        #expect(read[foods[777].id]?.nutrients.first?.amount == 777)
        #expect(read[foods[1200].id]?.name == "Dish 1200")
    }

    @Test func theTypicalLabelIsTheRowsPerFoodWithALabel() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sauce = FoodID(source: Self.source, recipeId: "101")
        // 3 rows and 1 row over two foods with a label; the food without one does not count.
        let foods = [Self.fullFood(sauce: sauce), Self.plainFood(1), Food(id: sauce, name: "Tikka sauce")]
        let snapshot = try SnapshotStore(directory: folder.appendingPathComponent("snapshots")).publish(
            try stage(Self.dataset(foods), in: folder), fileName: "demo-2026-10-12-r1.sqlite", pipeline: "demo")
        #expect(try LatestSnapshot(reading: snapshot).readLabels { try $0.typicalRowCount() } == 2)
        #expect(try LatestSnapshot(reading: snapshot).readLabels { try $0.meta()["run_id"] } == "r1")
    }
}
