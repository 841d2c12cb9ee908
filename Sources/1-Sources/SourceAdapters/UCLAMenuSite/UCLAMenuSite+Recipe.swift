import Basics
import FoodModel
import Foundation
import HTML
import SourceReading

extension UCLAMenuSite {
    /// Reads an item's recipe page (`/Recipes/{id}/{portion}`): name, description, codes and
    /// the whole Nutrition Facts box.
    ///
    /// The description, the box and the ingredient lines are optional (some items have no
    /// label); a page without the recipe's name is not a recipe page and is an error.
    public static func parseRecipe(_ data: Data, url: String, charset: String?,
                                   recipeId: String) throws -> Food {
        try withPage(data, url: url, charset: charset) { page in
            let parts = RecipePageParts(page)
            guard let name = parts.name?.text.nonEmpty else {
                throw Failure.badInput("no recipe name (div.recipecontainer h2): not a recipe page, or its layout changed",
                                       at: url)
            }
            var food = Food(id: FoodID(source: sourceName, recipeId: recipeId), name: name)
            food.description = parts.description?.text.nonEmpty
            food.codes = parts.codes.filter { !$0.isEmpty }.uniquedInOrder()
            if let box = parts.nutritionBox { readNutritionFacts(box, into: &food) }
            readIngredientLines(parts.paragraphs, into: &food)
            return food
        }
    }

    /// The parts of a recipe page, found in one walk over it instead of five XPath scans of the
    /// whole page each: the first `h2` inside `div.recipecontainer`, the first `div.description`
    /// inside `div.productinfo`, the `alt` of every image inside `div.prodwebcode`, the first
    /// `div.nfbox`, and every paragraph.
    private struct RecipePageParts {
        var name: HTMLNode?
        var description: HTMLNode?
        var codes: [String] = []
        var nutritionBox: HTMLNode?
        var paragraphs: [HTMLNode] = []

        private struct Inside {
            var recipe = false
            var productInfo = false
            var webCodes = false
        }

        init(_ page: HTMLDocument) {
            page.rootElement?.forEachElement(below: Inside()) { element, outer in
                var inside = outer
                if element.isElement(named: "div") {
                    if element.hasClass("recipecontainer") { inside.recipe = true }
                    if element.hasClass("productinfo") { inside.productInfo = true }
                    if element.hasClass("prodwebcode") { inside.webCodes = true }
                    if outer.productInfo, description == nil, element.hasClass("description") { description = element }
                    if nutritionBox == nil, element.hasClass("nfbox") { nutritionBox = element }
                } else if element.isElement(named: "h2") {
                    if outer.recipe, name == nil { name = element }
                } else if element.isElement(named: "img") {
                    if outer.webCodes, let alt = element.attribute("alt") { codes.append(alt.whitespaceNormalized) }
                } else if element.isElement(named: "p") {
                    paragraphs.append(element)
                }
                return inside
            }
        }
    }

    /// The box is the label, per serving: a page with one has a label even when no row reads.
    private static func readNutritionFacts(_ box: HTMLNode, into food: inout Food) {
        food.labelBasis = .serving
        let parts = LabelBoxParts(box)
        if let serving = parts.serving?.text {
            food.servingSize = String(LabelScanner.withoutServingSizeLabel(serving)).nonEmpty
        }
        if let calories = parts.calories?.text {
            food.calories = NutritionLabelRow.firstNumber(in: calories)
        }
        for row in parts.rows {
            let label = row.text { $0.isElement(named: "span") && $0.hasClass("nfdvval") }
            let parsed = NutritionLabelRow(label)
            let printedPercent = row.elements(named: "span", class: "nfdvvalnum", limit: 1).first
                .flatMap { NutritionLabelRow.firstNumber(in: $0.text) }
            food.nutrients.append(NutrientValue(
                key: NutrientNaming.key(forLabel: parsed.name), name: parsed.name,
                amount: parsed.amount, unit: parsed.unit, printedDailyValuePercent: printedPercent))
        }
        // Vitamins and minerals are printed as a percentage only.
        for nameSpan in parts.vitaminNames {
            let name = nameSpan.text
            guard !name.isEmpty else { continue }
            let percent = nameSpan.followingSibling(named: "span", class: "nfvitpct")
                .flatMap { NutritionLabelRow.firstNumber(in: $0.text) }
            food.nutrients.append(NutrientValue(
                key: NutrientNaming.key(forLabel: name), name: name, amount: nil, unit: nil,
                printedDailyValuePercent: percent))
        }
    }

    /// The parts of a Nutrition Facts box, found in one walk over it instead of an XPath query
    /// each, since a query per part walked the page once per part: the first `p.nfserv`
    /// and `p.nfcal`, every `p.nfnutrient` row (name and amount, its printed percentage in a
    /// `span.nfdvval`), and every `span.nfvitname` (a vitamin or mineral, its percentage in the
    /// `span.nfvitpct` after it), each in page order.
    private struct LabelBoxParts {
        var serving: HTMLNode?
        var calories: HTMLNode?
        var rows: [HTMLNode] = []
        var vitaminNames: [HTMLNode] = []

        init(_ box: HTMLNode) {
            box.forEachElement(below: ()) { element, _ in
                if element.isElement(named: "p") {
                    if serving == nil, element.hasClass("nfserv") { serving = element }
                    if calories == nil, element.hasClass("nfcal") { calories = element }
                    if element.hasClass("nfnutrient") { rows.append(element) }
                } else if element.isElement(named: "span"), element.hasClass("nfvitname") {
                    vitaminNames.append(element)
                }
                return ()
            }
        }
    }

    /// "INGREDIENTS: ..." and "ALLERGENS*: Milk, Eggs" paragraphs, found by their printed
    /// labels rather than by their place in `div.ingred_allergen`.
    private static func readIngredientLines(_ paragraphs: [HTMLNode], into food: inout Food) {
        for line in paragraphs.map(\.text) {
            if let list = LabelScanner.list(after: "INGREDIENTS", in: line) {
                food.ingredients = String(list).nonEmpty
            } else if let list = LabelScanner.list(after: "ALLERGENS", asterisk: true, in: line) {
                food.allergens = list.split(separator: ",")
                    .map { String($0).whitespaceNormalized }.filter { !$0.isEmpty }
            }
        }
    }
}
