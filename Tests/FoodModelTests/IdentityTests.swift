import FoodModel
import Foundation
import Testing

@Suite struct IdentityTests {
    @Test func aFoodIsItsSourceAndRecipeIdNotItsNameOrPlace() {
        let covel = MenuItem(source: "ucla-menu", recipeId: "061005", name: "Egg White", portion: "1")
        let deNeve = MenuItem(source: "ucla-menu", recipeId: "061005", name: "Egg Whites w/ Salsa", portion: "2")
        let otherSource = MenuItem(source: "foodpro", recipeId: "061005", name: "Egg White")
        #expect(covel.food == deNeve.food)
        #expect(covel.food != otherSource.food)
        #expect(covel.food.description == "ucla-menu:061005")
    }

    @Test func recipeIdsKeepTheirLeadingZeros() {
        let id = FoodID(source: "ucla-menu", recipeId: "061005")
        #expect(id.recipeId == "061005")
        #expect(id != FoodID(source: "ucla-menu", recipeId: "61005"))
    }

    @Test func theSameDishInFiveHallsOnTenDaysIsOneFoodWithFiftyMenuItems() throws {
        let halls = ["Covel", "De Neve", "Bruin Plate", "FEAST at Rieber", "Hedrick"]
        let first = try #require(ServiceDate("2026-10-01"))
        var dataset = Dataset()
        for offset in 0..<10 {
            let restaurants = halls.map { hall in
                Restaurant(name: hall, sections: [Section(name: "Grill", foods: [
                    MenuItem(source: "ucla-menu", recipeId: "400317", name: "Bruin Cheeseburger"),
                ])])
            }
            var partition = Dataset(serviceDays: [
                ServiceDay(date: first.adding(days: offset), meals: [Meal(name: "Lunch", restaurants: restaurants)]),
            ])
            let food = Food(id: FoodID(source: "ucla-menu", recipeId: "400317"), name: "Bruin Cheeseburger")
            partition.foods[food.id] = food
            dataset.merge(partition)
        }
        #expect(dataset.serviceDays.flatMap(\.menuItems).count == 50)
        #expect(dataset.foods.count == 1)
        #expect(Set(dataset.serviceDays.flatMap(\.menuItems).map(\.food)).count == 1)
    }

    /// Two sources serving one date (two locations with the same meal names): one day, one
    /// Brunch with both restaurants side by side, the second source's other meal after it.
    @Test func anotherSourcesDayOfTheSameDateJoinsItsMeals() throws {
        let date = try #require(ServiceDate("2026-10-10"))
        let toast = MenuItem(source: "ucla-menu", recipeId: "1", name: "Toast")
        let eggs = MenuItem(source: "nutrislice", recipeId: "2", name: "Eggs")
        let soup = MenuItem(source: "nutrislice", recipeId: "3", name: "Soup")
        let first = ServiceDay(date: date, meals: [Meal(name: "Brunch", restaurants: [
            Restaurant(name: "Covel", sections: [Section(name: "Bakery", foods: [toast])]),
        ])])
        let second = ServiceDay(date: date, meals: [
            Meal(name: "Brunch", restaurants: [Restaurant(name: "Lowell", sections: [Section(name: "Entree", foods: [eggs])])]),
            Meal(name: "Dinner", restaurants: [Restaurant(name: "Lowell", sections: [Section(name: "Soups", foods: [soup])])]),
        ])
        var dataset = Dataset(serviceDays: [first])
        dataset.merge(Dataset(serviceDays: [second]))
        #expect(dataset.serviceDays.count == 1)
        let day = try #require(dataset.serviceDays.first)
        #expect(day.meals.map(\.name) == ["Brunch", "Dinner"])
        #expect(day.meals[0].restaurants.map(\.name) == ["Covel", "Lowell"])
        #expect(day.menuItems == [toast, eggs, soup])
    }

    @Test func foodsOnMenusWithoutTheirOwnPageAreKnown() throws {
        let date = try #require(ServiceDate("2026-10-10"))
        let day = ServiceDay(date: date, meals: [Meal(name: "Dinner", restaurants: [
            Restaurant(name: "Covel", sections: [Section(name: "Grill", foods: [
                MenuItem(source: "ucla-menu", recipeId: "1", name: "Burger"),
                MenuItem(source: "ucla-menu", recipeId: "2", name: "Fries"),
            ])]),
        ])])
        let burger = Food(id: FoodID(source: "ucla-menu", recipeId: "1"), name: "Burger")
        let dataset = Dataset(serviceDays: [day], foods: [burger.id: burger])
        var digest = MenuDigest()
        for day in dataset.serviceDays { try digest.add(MenuDigest.Day(day), servedBy: "ucla") }
        #expect(digest.foodsWithoutPage(in: dataset) == [FoodID(source: "ucla-menu", recipeId: "2")])
    }

    @Test func ingredientsFoldCaseAndSpacingButKeepTheirSpelling() {
        let a = Ingredient(name: "Olive Oil")
        let b = Ingredient(name: " olive  oil ")
        #expect(a.key == "olive oil")
        #expect(a.key == b.key)
        #expect(b.name == " olive  oil ")
    }

    @Test func rationalsAreKeptInLowestTerms() throws {
        let half = try #require(Rational(2, 4))
        #expect(half == Rational(1, 2))
        #expect(half.description == "1/2")
        #expect(try #require(Rational(5, -10)).description == "-1/2")
        #expect(Rational(1, 0) == nil)
        #expect(try #require(Rational(6, 3)).description == "2")
    }

    @Test func valuesRoundTripThroughJSONWithTheirIdentity() throws {
        let food = Food(
            id: FoodID(source: "ucla-menu", recipeId: "400317"), name: "Bruin Cheeseburger",
            servingSize: "1 each", calories: 459,
            nutrients: [NutrientValue(key: .totalFat, name: "Total Fat", amount: 21.3, unit: "g",
                                      printedDailyValuePercent: 33)],
            allergens: ["Milk"], codes: ["AMLK"])
        let data = try JSONEncoder().encode(food)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["recipeId"] as? String == "400317")
        #expect(object["source"] as? String == "ucla-menu")
        #expect(try JSONDecoder().decode(Food.self, from: data) == food)
    }
}
