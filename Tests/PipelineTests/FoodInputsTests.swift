import FoodModel
import Foundation
import Nutrition
@testable import Pipeline
import Testing

/// A night keeps the food tables and the nutrition review without making them when this digest
/// is the last night's, so every input they are made from must move it: each is changed here in
/// turn, and each change must give another digest, while the same inputs in another order give
/// the same one.
@Suite struct FoodInputsTests {
    private let burger = FoodID(source: "ucla-menu", recipeId: "400317")
    private let fries = FoodID(source: "ucla-menu", recipeId: "061005")

    private struct Inputs {
        var foods: [FoodID: Food]
        var days: [ServiceDay]
        var legend: [DietaryCode]
        var standard: DailyValueStandard?
        var unfilled: [FoodID] = []

        func digest() throws -> String {
            var menus = MenuDigest()
            for day in days { try menus.add(MenuDigest.Day(day), servedBy: "ucla-menu") }
            return FoodInputs.digest(foods: foods, menus: menus, legend: legend, standard: standard, unfilled: unfilled)
        }
    }

    private func day(_ items: [MenuItem]) -> ServiceDay {
        ServiceDay(date: ServiceDate("2026-10-10")!, meals: [
            Meal(name: "Lunch", restaurants: [Restaurant(name: "Epicuria", sections: [Section(name: "Grill", foods: items)])]),
        ])
    }

    private func item(_ id: FoodID, _ name: String, portion: String = "1 each", codes: [String] = []) -> MenuItem {
        MenuItem(source: id.source, recipeId: id.recipeId, name: name, portion: portion, codes: codes)
    }

    private func inputs() -> Inputs {
        let fat = NutrientValue(key: NutrientKey("total_fat"), name: "Total Fat", amount: 21.3, unit: "g",
                                printedDailyValuePercent: 33)
        return Inputs(
            foods: [burger: Food(id: burger, name: "Bruin Burger", servingSize: "1 each", nutrients: [fat], codes: ["V"]),
                    fries: Food(id: fries, name: "Fries")],
            days: [day([item(burger, "Bruin Burger", codes: ["V"]), item(fries, "Fries", codes: ["VG"])])],
            legend: [DietaryCode(code: "V", label: "Vegetarian", kind: .dietary, terms: ["vegetarian"]),
                     DietaryCode(code: "VG", label: "Vegan", kind: .dietary, terms: ["vegan"])],
            standard: DailyValueStandard(name: "fda-2016", description: "the 2016 rule",
                                         values: [NutrientKey("total_fat"): .init(amount: 78, unit: .g)]))
    }

    @Test func theSameInputsInAnotherOrderGiveTheSameDigest() throws {
        let first = inputs()
        var reordered = first
        reordered.foods = Dictionary(uniqueKeysWithValues: first.foods.reversed())
        reordered.days = [day([item(fries, "Fries", codes: ["VG"]), item(burger, "Bruin Burger", codes: ["V"])])]
        #expect(try first.digest() == reordered.digest())
    }

    @Test func everyInputMovesTheDigest() throws {
        let base = inputs()
        let original = try base.digest()
        var changes: [(String, Inputs)] = []
        var changed = base
        changed.foods[burger]?.nutrients[0].amount = 22.3
        changes.append(("a nutrient's amount", changed))
        changed = base
        changed.foods[fries]?.ingredients = "potatoes, oil"
        changes.append(("a food's ingredients", changed))
        changed = base
        changed.foods[fries] = nil
        changes.append(("a food's page gone", changed))
        changed = base
        changed.days = [day([item(burger, "Bruin Burger", codes: ["V", "AEGG"]), item(fries, "Fries", codes: ["VG"])])]
        changes.append(("a code printed on the menu", changed))
        changed = base
        changed.days = [day([item(burger, "Bruin Burger", portion: "2 each", codes: ["V"]), item(fries, "Fries", codes: ["VG"])])]
        changes.append(("a portion printed on the menu", changed))
        changed = base
        changed.days = [day([item(burger, "Bruin Burger", codes: ["V"]), item(fries, "Fries", codes: ["VG"]),
                             item(FoodID(source: "ucla-menu", recipeId: "123456"), "Soup")])]
        changes.append(("a food on the menu without a page", changed))
        changed = base
        changed.legend[1].label = "Vegan (plant based)"
        changes.append(("a code's label in the legend", changed))
        changed = base
        changed.legend.reverse()
        changes.append(("the legend's order", changed))
        changed = base
        changed.legend[0].presence = .mayContain
        changes.append(("a code's presence", changed))
        changed = base
        changed.standard?.values[NutrientKey("total_fat")]?.amount = 65
        changes.append(("a daily value", changed))
        changed = base
        changed.standard?.dailyReferenceValues = []
        changes.append(("the standard's reference values", changed))
        changed = base
        changed.standard = nil
        changes.append(("no standard", changed))
        changed = base
        changed.unfilled = [fries]
        changes.append(("a label of zeros", changed))
        for (what, inputs) in changes {
            #expect(try inputs.digest() != original, "\(what)")
        }
        #expect(Set(try changes.map { try $0.1.digest() }).count == changes.count)
    }
}
