import FoodModel
import Foundation
import SourceAdapters
import Testing

/// Quirks from Sources/1-Sources/SourceAdapters/TheMealDB/README.md that the saved files do not all show, written as small bodies.
@Suite("Wire quirks")
struct WireQuirkTests {
    static func one(_ json: String) throws -> Recipe {
        let recipes = try MealDB.decodeMeals(Data(json.utf8), location: "inline")
        return try #require(recipes.first)
    }

    @Test func dumpMayBeABareArray() throws {
        let recipes = try MealDB.decodeMeals(
            Data(#"[{"idMeal":"1","strMeal":"A"},{"idMeal":"2","strMeal":"B"}]"#.utf8), location: "dump.json")
        #expect(recipes.map(\.name) == ["A", "B"])
    }

    @Test func olderPayloadsNameTheAlternate_strDrinkAlternate() throws {
        #expect(try Self.one(#"{"meals":[{"idMeal":"1","strMeal":"A","strDrinkAlternate":"Alt"}]}"#)
            .alternateName == "Alt")
        #expect(try Self.one(#"{"meals":[{"idMeal":"1","strMeal":"A","strMealAlternate":"New"}]}"#)
            .alternateName == "New")
    }

    @Test func blankSlotsAreAbsentAndUnknownKeysIgnored() throws {
        let recipe = try Self.one(#"""
        {"meals":[{"idMeal":"7","strMeal":" Soup ","strCountry":"X","strIngredient1":"Salt",
        "strMeasure1":null,"strIngredient2":" ","strMeasure2":" ","strIngredient3":"",
        "strIngredient4":" Olive Oil ","strMeasure4":"1 tblsp ","strYoutube":"","strSource":"",
        "strTags":"Halloween,","dateModified":null,"strInstructions":"STEP 1\r\nBoil.\r\n\r\nStep 2:\r\nServe."}]}
        """#)
        #expect(recipe.name == "Soup")
        #expect(recipe.ingredients.map(\.position) == [1, 4])
        #expect(recipe.ingredients[0].measure.kind == .absent)
        #expect(recipe.ingredients[1].ingredient.name == "Olive Oil")
        #expect(recipe.ingredients[1].ingredient.key == "olive oil")
        #expect(recipe.ingredients[1].measure.raw == "1 tblsp")
        #expect(recipe.ingredients[1].measure.unit == "tbsp")
        #expect(recipe.youtubeURL == nil && recipe.sourceURL == nil && recipe.modifiedAt == nil)
        #expect(recipe.tags == ["Halloween"])
        #expect(recipe.steps == ["Boil.", "Serve."])
    }

    @Test func tagsAreDeduplicatedInOrder() throws {
        let recipe = try Self.one(#"{"meals":[{"idMeal":"1","strMeal":"A","strTags":" Meat, Pie ,Meat,,Pie"}]}"#)
        #expect(recipe.tags == ["Meat", "Pie"])
    }

    @Test func numericIdIsReadAsText() throws {
        let recipe = try Self.one(#"{"meals":[{"idMeal":52764,"strMeal":"A","dateModified":"2016-08-31 11:56:43"}]}"#)
        #expect(recipe.id.id == "52764")
        #expect(recipe.modifiedAt == "2016-08-31 11:56:43")
    }
}
