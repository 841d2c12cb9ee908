import Basics
import FoodModel
import Foundation
import SourceAdapters
import Testing

@Suite("TheMealDB responses")
struct ResponseTests {
    static func meals(_ name: String) throws -> [Recipe] {
        try MealDB.decodeMeals(try TestData.data(TestData.response(name)), location: name)
    }

    @Test func lookup52765FieldByField() throws {
        let recipes = try Self.meals("lookup-52765.json")
        #expect(recipes.count == 1)
        let meal = try #require(recipes.first)
        #expect(meal.id == RecipeID(source: "mealdb", id: "52765"))
        #expect(meal.name == "Chicken Enchilada Casserole")
        #expect(meal.alternateName == nil)
        #expect(meal.category == "Chicken")
        #expect(meal.area == "Mexican")
        // Slashes are escaped on the wire (https:\/\/).
        #expect(meal.thumbnailURL == "https://www.themealdb.com/images/media/meals/qtuwxu1468233098.jpg")
        #expect(meal.youtubeURL == "https://www.youtube.com/watch?v=EtVkwVKLc_M")
        #expect(meal.sourceURL == nil)
        #expect(meal.modifiedAt == nil)
        #expect(meal.tags == ["Casserole", "Cheasy", "Meat"])
        #expect(meal.steps.count == 6)
        #expect(meal.steps[1] == "Remove chicken from the pot and shred with two forks.")
        #expect(meal.steps[2] == "Preheat oven to 375 F degrees.")
        #expect(meal.steps[3].contains("about ¼ cup of the leftover Enchilada sauce"))
        #expect(meal.steps.last == "Serve warm.")

        #expect(meal.ingredients.map(\.position) == [1, 2, 3, 4])
        #expect(meal.ingredients.map(\.ingredient.name)
                == ["Enchilada sauce", "shredded Monterey Jack cheese", "corn tortillas", "chicken breasts"])
        #expect(meal.ingredients[1].ingredient.key == "shredded monterey jack cheese")
        let sauce = meal.ingredients[0].measure
        #expect(sauce.raw == "14 oz jar")
        #expect(sauce.kind == .quantity && sauce.quantity == Rational(14) && sauce.unit == "oz")
        let cheese = meal.ingredients[1].measure
        #expect(cheese.kind == .quantity && cheese.quantity == Rational(3) && cheese.unit == "cup")
        #expect(meal.ingredients[2].measure.kind == .count && meal.ingredients[2].measure.quantity == Rational(6))
        #expect(meal.ingredients[3].measure.kind == .count && meal.ingredients[3].measure.quantity == Rational(2))
    }

    @Test func lookup52771FieldByField() throws {
        let meal = try #require(try Self.meals("lookup-52771.json").first)
        #expect(meal.id.id == "52771")
        #expect(meal.name == "Spicy Arrabiata Penne")
        #expect(meal.category == "Vegetarian")
        #expect(meal.area == "Italian")
        #expect(meal.tags == ["Pasta", "Curry"])
        #expect(meal.youtubeURL == "https://www.youtube.com/watch?v=1IszT_guI08")
        #expect(meal.steps.count == 3)
        #expect(meal.steps[0].hasPrefix("Bring a large pot of water to a boil."))
        #expect(meal.ingredients.count == 8)
        let names = meal.ingredients.map(\.ingredient.name)
        #expect(names == ["penne rigate", "olive oil", "garlic", "chopped tomatoes", "red chilli flakes",
                          "italian seasoning", "basil", "Parmigiano-Reggiano"])
        let measures = meal.ingredients.map(\.measure)
        #expect(measures[0].quantity == Rational(1) && measures[0].unit == "lb")
        #expect(measures[1].quantity == Rational(1, 4) && measures[1].unit == "cup")
        #expect(measures[2].kind == .count && measures[2].quantity == Rational(3) && measures[2].unit == "clove")
        // "1 tin " on the wire: padded, kept trimmed.
        #expect(measures[3].raw == "1 tin" && measures[3].kind == .count && measures[3].unit == "can")
        #expect(measures[4].quantity == Rational(1, 2) && measures[4].unit == "tsp")
        #expect(measures[6].quantity == Rational(6) && measures[6].unit == "leaf")
        #expect(measures[7].kind == .unquantified && measures[7].unit == "sprinkling")
    }

    @Test func searchWithThreeMeals() throws {
        let recipes = try Self.meals("search-3-meals.json")
        #expect(recipes.map(\.id.id) == ["52765", "52776", "52779"])
        #expect(recipes.map(\.name) == ["Chicken Enchilada Casserole", "Chocolate Gateau", "Cream Cheese Tart"])
        #expect(recipes[2].tags == ["Tart", "Savory"])
    }

    @Test func filterAnswersCarryIdNameAndThumbnailOnly() throws {
        let recipes = try Self.meals("filter-c-beef-trimmed.json")
        #expect(recipes.map(\.id.id) == ["52874", "52878", "53071"])
        #expect(recipes.map(\.name) == ["Beef and Mustard Pie", "Beef and Oyster pie", "Beef Asado"])
        #expect(recipes[2].thumbnailURL == "https://www.themealdb.com/images/media/meals/pkopc31683207947.jpg")
        #expect(recipes.allSatisfy { $0.ingredients.isEmpty && $0.steps.isEmpty && $0.category == nil })
    }

    @Test func categories() throws {
        let name = "categories.json"
        let categories = try MealDB.decodeCategories(try TestData.data(TestData.response(name)), location: name)
        #expect(categories.map(\.name) == ["Beef", "Chicken", "Dessert", "Lamb", "Miscellaneous", "Pasta",
                                           "Pork", "Seafood", "Side", "Starter", "Vegan", "Vegetarian",
                                           "Breakfast", "Goat"])
        #expect(categories[0].thumbnailURL == "https://www.themealdb.com/images/category/beef.png")
        #expect(categories[0].description?.hasPrefix("Beef is the culinary name for meat from cattle") == true)
        #expect(categories[13].description?.hasSuffix("often turned into goat cheese.") == true)
    }

    @Test func noMatchIsEmpty() throws {
        #expect(try MealDB.decodeMeals(Data(#"{"meals": null}"#.utf8), location: "search.php?s=zz").isEmpty)
    }

    @Test func garbageIsOneInputErrorNamingTheLocation() throws {
        let url = "https://www.themealdb.com/api/json/v1/1/search.php?f=a"
        let garbage = Data([0x3C, 0x68, 0x74, 0x6D, 0x6C, 0x3E, 0xFF, 0x00])
        let notJSON = try #require(throwsError { try MealDB.decodeMeals(garbage, location: url) })
        #expect(notJSON.place?.location == url)
        #expect(notJSON.description.hasPrefix(url))
        #expect(notJSON.message.contains("not valid JSON"))

        let noMeals = try #require(throwsError { try MealDB.decodeMeals(Data(#"{"foo":1}"#.utf8), location: "x.json") })
        #expect(noMeals.description == #"x.json: no "meals" key"#)

        let noCategories = try #require(throwsError {
            try MealDB.decodeCategories(Data(#"{"meals":[]}"#.utf8), location: "categories.php")
        })
        #expect(noCategories.description.contains(#"no "categories" key"#))
    }

    @Test func badMealNamesItsIndexInTheResponse() throws {
        let body = #"{"meals":[{"idMeal":"1","strMeal":"A"},{"idMeal":"2","strMeal":" "}]}"#
        let error = try #require(throwsError { try MealDB.decodeMeals(Data(body.utf8), location: "f.json") })
        #expect(error.place?.location == "f.json")
        #expect(error.message.contains("strMeal"))
        #expect(error.message.contains("meals[1]"))

        let wrongType = #"{"meals":[{"idMeal":"1","strMeal":"A","strTags":["x"]}]}"#
        let typeError = try #require(throwsError { try MealDB.decodeMeals(Data(wrongType.utf8), location: "g") })
        #expect(typeError.message.contains("meals[0].strTags"))
    }

    @Test func paths() {
        #expect(MealDB.letterSearchPath("a") == "/api/json/v1/1/search.php?f=a")
        #expect(MealDB.letterSearchPath("B") == "/api/json/v1/1/search.php?f=b")
        #expect(MealDB.categoriesPath == "/api/json/v1/1/categories.php")
        #expect(MealDB.sourceName == "mealdb")
    }
}

/// The Failure a call throws, or nil if it throws nothing (or something else).
func throwsError<Result>(_ body: () throws -> Result) -> Failure? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? Failure
    }
}
