import FoodModel
import Foundation
import HTML

extension UCLAMenuSite {
    /// Reads an item's recipe page (`/Recipes/{id}/{portion}`): name, description, codes and
    /// the whole Nutrition Facts box.
    ///
    /// The description, the box and the ingredient lines are optional (some items have no
    /// label); a page without the recipe's name is not a recipe page and is an error.
    public static func parseRecipe(_ data: Data, url: String, charset: String?,
                                   recipeId: String) throws -> Food {
        try withPage(data, url: url, charset: charset) { page in
            guard let name = try page.first(anywhere("div", class: "recipecontainer") + "//h2")?
                .text.nonEmpty
            else {
                throw InputError("no recipe name (div.recipecontainer h2): not a recipe page, or its layout changed",
                                 at: url)
            }
            var food = Food(id: FoodID(source: sourceName, recipeId: recipeId), name: name)
            food.description = try page.first(
                anywhere("div", class: "productinfo") + "//div[\(XPathPredicate.hasClass("description"))]")?
                .text.nonEmpty
            food.codes = try page.texts(anywhere("div", class: "prodwebcode") + "//img/@alt")
                .filter { !$0.isEmpty }.uniquedInOrder()
            try readNutritionFacts(page, into: &food)
            try readIngredientLines(page, into: &food)
            return food
        }
    }

    private static func readNutritionFacts(_ page: HTMLDocument, into food: inout Food) throws {
        guard let box = try page.first(anywhere("div", class: "nfbox")) else { return }
        if let serving = try box.first(within("p", class: "nfserv"))?.text {
            food.servingSize = String(withoutServingSizeLabel(serving)).nonEmpty
        }
        if let calories = try box.first(within("p", class: "nfcal"))?.text {
            food.calories = NutritionLabelRow.firstNumber(in: calories)
        }
        let percentSpan = "span[\(XPathPredicate.hasClass("nfdvval"))]"
        for row in try box.select(within("p", class: "nfnutrient")) {
            let label = try row.texts(".//text()[not(ancestor::\(percentSpan))]")
                .joined(separator: " ").whitespaceNormalized
            let parsed = NutritionLabelRow(label)
            let printedPercent = try row.first(within("span", class: "nfdvvalnum"))
                .flatMap { NutritionLabelRow.firstNumber(in: $0.text) }
            food.nutrients.append(NutrientValue(
                key: NutrientNaming.key(forLabel: parsed.name), name: parsed.name,
                amount: parsed.amount, unit: parsed.unit, printedDailyValuePercent: printedPercent))
        }
        // Vitamins and minerals are printed as a percentage only.
        for nameSpan in try box.select(within("span", class: "nfvitname")) {
            let name = nameSpan.text
            guard !name.isEmpty else { continue }
            let percent = try nameSpan.first("following-sibling::span[\(XPathPredicate.hasClass("nfvitpct"))]")
                .flatMap { NutritionLabelRow.firstNumber(in: $0.text) }
            food.nutrients.append(NutrientValue(
                key: NutrientNaming.key(forLabel: name), name: name, amount: nil, unit: nil,
                printedDailyValuePercent: percent))
        }
    }

    /// "INGREDIENTS: ..." and "ALLERGENS*: Milk, Eggs" paragraphs, found by their printed
    /// labels rather than by their place in `div.ingred_allergen`.
    private static func readIngredientLines(_ page: HTMLDocument, into food: inout Food) throws {
        for line in try page.texts("//p") {
            if let list = LabelScanner.list(after: "INGREDIENTS", in: line) {
                food.ingredients = String(list).nonEmpty
            } else if let list = LabelScanner.list(after: "ALLERGENS", asterisk: true, in: line) {
                food.allergens = list.split(separator: ",")
                    .map { String($0).whitespaceNormalized }.filter { !$0.isEmpty }
            }
        }
    }

    /// "Serving Size: 1 each" → "1 each"; text without the label is kept whole.
    static func withoutServingSizeLabel(_ text: String) -> Substring {
        var scanner = LabelScanner(text)
        guard scanner.skip(word: "SERVING"), scanner.skipWhitespace(), scanner.skip(word: "SIZE") else {
            return text[...]
        }
        scanner.skipWhitespace()
        _ = scanner.skip(":")
        scanner.skipWhitespace()
        return scanner.rest
    }
}
