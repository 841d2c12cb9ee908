import FoodModel
import Foundation
import HTML

/// A CBORD NetNutrition nutrition label, the HTML its `NutritionDetail/ShowItemNutritionLabel`
/// answers for one item (docs/sources/netnutrition.md): the item's name in the label header, the
/// serving size beside "Serving Size", calories, one row per nutrient (the name and the amount
/// in the left part, the printed %DV in the right), ingredients and the "Contains" allergens.
///
/// Rows are found by their classes and read by their text, never by position: institutions
/// configure which nutrients their labels show. An amount printed as "NA" is kept as printed.
public enum NetNutritionLabel {
    public static let sourceName = "netnutrition"

    public static func parse(_ data: Data, itemId: String, url: String, charset: String?) throws -> Food {
        try withPage(data, url: url, charset: charset) { page in
            guard let name = try page.first(anywhere("td", class: "cbo_nn_LabelHeader"))?.text.nonEmpty else {
                throw InputError("no item name (td.cbo_nn_LabelHeader): not a NetNutrition label", at: url)
            }
            var food = Food(id: FoodID(source: sourceName, recipeId: itemId), name: name)
            food.servingSize = try page.first(
                "//div[normalize-space(.)='Serving Size']/following-sibling::div[1]")?.text.nonEmpty
            food.serving = food.servingSize.flatMap(ServingSize.init(printed:))
            if let calories = try page.first(
                "//*[\(XPathPredicate.hasClass("cbo_nn_LabelSubHeader"))][.//*[normalize-space(.)='Calories']]"
                    + "//div[\(XPathPredicate.hasClass("inline-div-right"))]")?.text,
               case .number(let value) = PrintedAmount(calories) {
                food.calories = value
                food.nutrients.append(NutrientValue(key: .calories, name: "Calories", amount: value, unit: "kcal"))
            }
            let rows = "//div[\(XPathPredicate.hasClass("cbo_nn_LabelBorderedSubHeader")) or "
                + "\(XPathPredicate.hasClass("cbo_nn_LabelNoBorderSubHeader"))]"
            for row in try page.select(rows) {
                guard let left = try row.first(within("div", class: "inline-div-left")),
                      var nutrient = try nutrient(left) else { continue }
                let right = try row.first(within("div", class: "inline-div-right"))?.text ?? ""
                nutrient.printedDailyValuePercent = NutritionLabelRow.firstNumber(in: right)
                guard !food.nutrients.contains(where: { $0.key == nutrient.key }) else { continue }
                food.nutrients.append(nutrient)
            }
            food.ingredients = try page.first(anywhere("span", class: "cbo_nn_LabelIngredients"))?.text.nonEmpty
            if let allergens = try page.first(anywhere("span", class: "cbo_nn_LabelAllergens"))?.text {
                food.allergens = allergens.split(separator: ",").map { String($0).whitespaceNormalized }
                    .filter { !$0.isEmpty }.uniquedInOrder()
                food.codes = food.allergens
            }
            return food
        }
    }

    /// The left part of a row: "Total Fat" and "15g" in two spans, "Trans Fat" and "NA", or the
    /// added-sugars line "Include NA Added Sugars" / "Includes 2g Added Sugars" in one.
    private static func nutrient(_ left: HTMLNode) throws -> NutrientValue? {
        let text = left.text
        if let added = text.wholeMatch(of: /(?i)^includes?\s+(?<amount>\S+)\s+added\s+sugars?$/) {
            return value(name: "Added Sugars", printed: String(added.output.amount))
        }
        let spans = try left.select("./span").map(\.text).filter { !$0.isEmpty }
        guard spans.count >= 2, let printed = spans.last else { return nil }
        return value(name: spans.dropLast().joined(separator: " "), printed: printed)
    }

    /// "15g" is 15 g; "0.96mg" 0.96 mg; "NA" is printed only; "<1g" is below 1 g.
    private static func value(name: String, printed: String) -> NutrientValue {
        let unitStart = printed.lastIndex { !$0.isLetter && $0 != "µ" }.map(printed.index(after:)) ?? printed.startIndex
        var amountText = String(printed[..<unitStart])
        var unit: String? = String(printed[unitStart...]).nonEmpty
        if amountText.isEmpty {
            // No digits at all ("NA"): the whole text is the mark, with no unit.
            amountText = printed
            unit = nil
        }
        var nutrient = NutrientValue(key: NutrientNaming.key(forLabel: name), name: name, amount: nil, unit: unit)
        switch PrintedAmount(amountText) {
        case .number(let amount): nutrient.amount = amount
        case let reading: reading.record(printed, in: &nutrient)
        }
        return nutrient
    }
}
