import FoodModel

/// Renders a day as the site's overview page (`/Menus/YYYY-MM-DD`), item markup as on the real
/// 2019 page: a `tooltip-target-wrapper` with the recipe link and code images, then the
/// tooltip repeating each code with its long text.
enum OverviewPage {
    /// `siteId` maps an item's dataset id to its six-digit id. Items with an empty name (two in
    /// the dataset) are left out: the site never prints an item without a name, and the
    /// overview adapter rightly refuses one.
    static func render(_ day: ServiceDay, siteId: (String) throws -> String) rethrows -> String {
        var page = PageChrome.top(title: "Menus")
        for meal in day.meals {
            page += """
                <h2 id="page-header">\(escaped(meal.name)) Menu for \(weekdayName(day.date)), \(monthName(day.date)) \(day.date.day), \(day.date.year)</h2>
                    <div class="meal-detail-link"><a href="http://menu.dining.ucla.edu/Menus/\(day.date)/\(escaped(meal.name))">Detailed \(escaped(meal.name)) Menu (All Residential Restaurants) &raquo;</a></div>

            """
            for restaurant in meal.restaurants {
                page += """
                        <div class="menu-block third-col">
                            <h3 class="col-header">\(escaped(restaurant.name))</h3>
                            <ul class="sect-list">

                """
                for section in restaurant.sections {
                    page += """
                                    <li class="sect-item">
                                        \(escaped(section.name))
                                        <ul class="item-list">

                    """
                    for item in section.foods where !item.name.isEmpty {
                        page += try menuItem(item, siteId: siteId(item.recipeId))
                    }
                    page += """
                                        </ul>
                                    </li>

                    """
                }
                page += """
                            </ul>
                        </div>

                """
            }
        }
        return page + PageChrome.bottom
    }

    private static func menuItem(_ item: MenuItem, siteId: String) -> String {
        var html = """
                                            <li class="menu-item">
                                                <span class="tooltip-target-wrapper">
                                                    <a class="recipelink" href="http://menu.dining.ucla.edu/Recipes/\(siteId)/1">\(escaped(item.name))</a>

            """
        for code in item.codes {
            html += "                                                <img alt=\"\(escaped(code))\" class=\"webcode-16px\" src=\"/Content/Images/WebCodes/128px/\(escaped(code.lowercased())).png\">\n"
        }
        html += """
                                                </span>
                                                <div class="item-description-wrapper">
                                                    <div class="item-description">

            """
        for code in item.codes {
            html += "                                                    <div class=\"tt-prodwebcode\"><img alt=\"\(escaped(code))\" class=\"webcode-16px\" src=\"/Content/Images/WebCodes/128px/\(escaped(code.lowercased())).png\">&nbsp;\(codeText(code))</div>\n"
        }
        html += """
                                                    </div>
                                                </div>
                                            </li>

            """
        return html
    }

    /// The tooltip wording of the two codes the dataset carries, as the real page prints them.
    static func codeText(_ code: String) -> String {
        switch code {
        case "V": "Vegetarian Menu Option"
        case "VG": "Vegan Menu Option"
        default: escaped(code)
        }
    }

    static func weekdayName(_ date: ServiceDate) -> String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][date.isoWeekday - 1]
    }

    static func monthName(_ date: ServiceDate) -> String {
        ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
         "November", "December"][date.month - 1]
    }
}
