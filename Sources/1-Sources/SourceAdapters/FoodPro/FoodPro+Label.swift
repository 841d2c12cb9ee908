import Basics
import FoodModel
import Foundation
import HTML
import SourceReading

extension FoodPro {
    /// Reads a nutrition label page (`label.asp?...RecNumAndPort={id}*{portion}`).
    ///
    /// The label is a layout table: each nutrient is a cell "Total Fat 0.9g" whose next cell
    /// holds the printed "1 %"; vitamins are cells "Iron 4%". The dish's name is the text
    /// beside the page's Print button, the only landmark the page has. The page is a label per
    /// serving even when none of its cells reads as a nutrient, so the checks can report it.
    public static func parseLabel(_ data: Data, url: String, charset: String?,
                                  recipeId: String) throws -> Food {
        try withPage(data, url: url, charset: charset) { page in
            guard let name = try page.first("//input[@type='button'][@value='Print']/..")?.ownText.nonEmpty else {
                throw Failure.badInput("no dish name (the text beside the Print button): not a FoodPro label page, or its layout changed",
                                       at: url)
            }
            var food = Food(id: FoodID(source: sourceName, recipeId: recipeId), name: name, labelBasis: .serving)
            for paragraph in try page.texts("//p") {
                if let serving = paragraph.wholeMatch(of: /(?i)^serving\s+size\s*:?\s*(?<size>.+)$/) {
                    food.servingSize = String(serving.output.size)
                }
                if let calories = paragraph.firstMatch(of: /(?i)^calories\s+(?<value>\d+(?:\.\d+)?)/) {
                    food.calories = Double(calories.output.value)
                }
                if let fat = paragraph.firstMatch(of: /(?i)calories\s+from\s+fat\s+(?<value>\d+(?:\.\d+)?)/) {
                    food.nutrients.append(NutrientValue(key: .caloriesFromFat, name: "Calories from Fat",
                                                        amount: Double(fat.output.value), unit: "kcal"))
                }
            }
            var seenKeys = Set(food.nutrients.map(\.key))
            for cell in try page.select("//td[not(.//td)]") {
                guard let nutrient = try labelCell(cell), seenKeys.insert(nutrient.key).inserted else {
                    continue
                }
                food.nutrients.append(nutrient)
            }
            for cell in try page.texts("//td[not(.//td)]") {
                if let match = cell.wholeMatch(of: /(?i)^INGREDIENTS\s*:\s*(?<list>.*)$/) {
                    food.ingredients = String(match.output.list).nonEmpty
                } else if let match = cell.wholeMatch(of: /(?i)^ALLERGENS\s*\*?\s*:\s*(?<list>.*)$/) {
                    food.allergens = match.output.list.split(separator: ",")
                        .map { String($0).whitespaceNormalized }.filter { !$0.isEmpty }
                }
            }
            return food
        }
    }

    /// A nutrient cell ("Sodium 1.5mg", its %DV in the next cell) or a vitamin cell ("Iron 4%").
    /// A vitamin printed twice (the 2016 label shows "Vitamin C" twice) counts once.
    private static func labelCell(_ cell: HTMLNode) throws -> NutrientValue? {
        let text = cell.text
        if let vitamin = text.wholeMatch(of: /^(?<name>[A-Za-z][A-Za-z .]*?)\s*(?<percent>\d+(?:\.\d+)?)\s*%$/) {
            let name = String(vitamin.output.name)
            return NutrientValue(key: NutrientNaming.key(forLabel: name), name: name, amount: nil,
                                 unit: nil, printedDailyValuePercent: Double(vitamin.output.percent))
        }
        let row = NutritionLabelRow(text)
        guard let amount = row.amount, let unit = row.unit,
              ["g", "mg", "mcg"].contains(unit.lowercased()) else { return nil }
        let percentText = try cell.first("following-sibling::td[1]")?.text ?? ""
        let percent = percentText.hasSuffix("%") ? NutritionLabelRow.firstNumber(in: percentText) : nil
        return NutrientValue(key: NutrientNaming.key(forLabel: row.name), name: row.name,
                             amount: amount, unit: unit, printedDailyValuePercent: percent)
    }
}
