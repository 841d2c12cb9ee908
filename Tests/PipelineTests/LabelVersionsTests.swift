import FoodModel
@testable import Pipeline
import Testing

/// A food's labels as versions, item by item: an item served with its food's label that day, or
/// with the one printed with it, points at that label's version; what makes two labels one
/// version includes what their amounts are per.
@Suite struct LabelVersionsTests {
    private static let tofu = FoodID(source: "nutrislice", recipeId: "1309638")

    private static func label(_ calories: Double, serving: String, basis: LabelBasis? = .serving) -> PrintedLabel {
        PrintedLabel(servingSize: serving, calories: calories,
                     nutrients: [NutrientValue(key: .calories, name: "Calories", amount: calories, unit: "kcal")],
                     basis: basis)
    }

    private static func food(_ label: PrintedLabel) -> Food {
        label.applied(to: Food(id: tofu, name: "Tofu", codes: ["soy"]))
    }

    private static func day(_ date: String, lunch: PrintedLabel? = nil, dinner: PrintedLabel? = nil) -> ServiceDay {
        func meal(_ name: String, _ label: PrintedLabel?) -> Meal {
            Meal(name: name, restaurants: [Restaurant(name: "Four Lakes Market", sections: [
                Section(name: "Entree", foods: [MenuItem(source: "nutrislice", recipeId: "1309638", name: "Tofu", label: label)]),
            ])])
        }
        return ServiceDay(date: ServiceDate(date)!, meals: [meal("Lunch", lunch), meal("Dinner", dinner)])
    }

    @Test func eachItemPointsAtTheVersionPrintedWithIt() throws {
        let small = Self.label(90, serving: "3 oz")
        let large = Self.label(135, serving: "4.5 oz")
        var versions = LabelVersions()
        #expect(versions.record([Self.food(small)], on: Self.day("2025-08-17")) == [1, 1])
        #expect(versions.record([Self.food(small)], on: Self.day("2025-08-18", dinner: large)) == [1, 2])
        #expect(versions.record([Self.food(small)], on: Self.day("2025-08-21")) == [1, 1])
        let known = try #require(versions.versions[Self.tofu])
        #expect(known.map { PrintedLabel(of: $0.food) } == [small, large])
        // A day counts once for a version however many of its items print it.
        #expect(known.map(\.days) == [3, 1])
        #expect(known.map(\.first) == [ServiceDate("2025-08-17"), ServiceDate("2025-08-18")])
        #expect(known.map(\.last) == [ServiceDate("2025-08-21"), ServiceDate("2025-08-18")])
        #expect(known[1].food.codes == ["soy"])
        #expect(versions.itemsOnLaterVersions == 1)
    }

    /// The same amounts per serving and per 100 g are two labels; the food's row takes the first,
    /// its basis with it.
    @Test func theBasisIsPartOfTheLabel() throws {
        let perServing = Self.label(90, serving: "3 oz")
        let perHundredGrams = Self.label(90, serving: "3 oz", basis: .hundredGrams)
        var versions = LabelVersions()
        #expect(versions.record([Self.food(perHundredGrams)], on: Self.day("2025-08-17")) == [1, 1])
        #expect(versions.record([Self.food(perServing)], on: Self.day("2025-08-18")) == [2, 2])
        var foods = [Self.tofu: Self.food(perServing)]
        versions.setFirstLabels(in: &foods)
        #expect(foods[Self.tofu]?.labelBasis == .hundredGrams)
    }

    /// An item whose own label declares nothing gets no version; its food's label is versioned.
    @Test func aLabelWithoutNutrientsHasNoVersion() {
        var versions = LabelVersions()
        let empty = PrintedLabel(servingSize: "1 each", basis: .serving)
        #expect(versions.record([Self.food(Self.label(90, serving: "3 oz"))], on: Self.day("2025-08-17", dinner: empty))
                == [1, nil])
        #expect(versions.record([Food(id: Self.tofu, name: "Tofu")], on: Self.day("2025-08-18")) == [nil, nil])
    }
}
