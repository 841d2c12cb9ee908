import FoodModel

/// Renders a food as its recipe page (`/Recipes/{id}/1`), Nutrition Facts box as on the real
/// 2021 recipe pages (Sources/1-Sources/SourceAdapters/UCLAMenuSite/README.md, "The recipe page").
///
/// The dataset has no description, serving size, ingredients or allergens, so those are not
/// printed. "Calories from Fat" is not printed either: the 2017–2023 label the adapters read
/// has no such line (the 2016 FDA rule dropped it), so it is the one dataset value a corpus
/// page does not carry.
enum RecipePage {
    static func render(_ food: Food) -> String {
        var page = PageChrome.top(title: food.name)
        page += """
            <div class="recipecontainer">
            <h2>\(escaped(food.name))</h2>
            <div class="productinfo">

            """
        for code in food.codes {
            page += "    <div class=\"prodwebcode\"><img alt=\"\(escaped(code))\" class=\"webcode-16px\" src=\"/Content/Images/WebCodes/128px/\(escaped(code.lowercased())).png\">&nbsp;\(OverviewPage.codeText(code))</div>\n"
        }
        page += """
            </div>
            <div class="nfbox">
            <h3 class="nftitle">Nutrition Facts</h3>
            <p class="nfamt">Amount Per Serving</p>

            """
        if let calories = food.calories {
            page += "<p class=\"nfcal\"><span class=\"nfcaltxt\">Calories</span> \(printed(calories)) </p>\n"
        }
        page += "<p class=\"nfdvhdr\">% Daily Value*</p>\n"
        let byKey = Dictionary(food.nutrients.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        for (keys, indented) in labelGroups {
            var rows = ""
            for key in keys {
                guard let nutrient = byKey[key], let amount = nutrient.amount else { continue }
                let name = indented ? escaped(nutrient.name)
                    : "<span class=\"nfmajornutrient\">\(escaped(nutrient.name))</span>"
                let percent = nutrient.printedDailyValuePercent.map {
                    "<span class=\"nfdvval\"><span class=\"nfdvvalnum\">\(printed($0))</span>%</span>"
                } ?? ""
                rows += "\(indented ? "    " : "")<p class=\"nfnutrient\">\(name) \(printed(amount))\(escaped(nutrient.unit ?? "")) \(percent)</p>\n"
            }
            page += indented && !rows.isEmpty ? "<div class=\"nfindent\">\n\(rows)</div>\n" : rows
        }
        page += "    <div class=\"nfvitbar\"></div>\n    <div class=\"nfvit\">\n"
        for key in vitaminRows {
            guard let nutrient = byKey[key], let percent = nutrient.printedDailyValuePercent else { continue }
            page += """
                        <span class="nfvitleft">
                        <span class="nfvitname">\(escaped(nutrient.name))</span>
                        <span class="nfvitpct">\(printed(percent))%</span>
                        </span>

                """
        }
        page += """
                </div>
            <div class="nfdisclaimer">*Percent Daily Values (DV) are based on a 2,000 calorie diet.</div>
            </div>
            <img alt="\(escaped(food.name))" class="recipeimage" src="/Content/Images/Recipes/placeholder.jpg">
            </div>
            """
        return page + PageChrome.bottom
    }

    /// The printed label's mass rows in order; the indented groups sit in a `div.nfindent`.
    private static let labelGroups: [([NutrientKey], Bool)] = [
        ([.totalFat], false), ([.saturatedFat, .transFat], true), ([.cholesterol, .sodium, .totalCarbohydrate], false),
        ([.dietaryFiber, .sugars], true), ([.protein], false),
    ]

    private static let vitaminRows: [NutrientKey] = [.vitaminA, .vitaminC, .calcium, .iron]
}
