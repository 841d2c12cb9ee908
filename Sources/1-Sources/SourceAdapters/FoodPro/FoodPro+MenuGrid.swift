import Basics
import FoodModel
import Foundation
import HTML
import SourceReading

extension FoodPro {
    /// Reads Berkeley's "today's entrées" page: one cell per hall and meal, each item a link to
    /// its label (`label.asp?locationName=CROSSROADS&dtdate=3%2F31%2F2016&RecNumAndPort=153002*4`).
    ///
    /// Hall, date, recipe id and portion come from the item's own link, which survives layout
    /// changes better than the cell's position; the meal is the bold heading before the link.
    /// The page prints no stations, so each hall's items sit in one section with an empty name.
    /// Dietary marks are font colours explained by the page's legend; the legend's word
    /// ("Vegan") becomes the web code it means (`VG`, see `webCode(forLegend:)`).
    public static func parseMenuGrid(_ data: Data, url: String, charset: String?) throws -> ServiceDay {
        try withPage(data, url: url, charset: charset) { page in
            let legend = try colourLegend(page)
            var meals: [(name: String, restaurants: [(name: String, items: [MenuItem])])] = []
            var dates = Set<ServiceDate>()
            for link in try page.select("//a[contains(@href, 'label.asp')]") {
                let query = QueryParameters(href: link.attribute("href") ?? "")
                guard let target = query["RecNumAndPort"], let recipeId = target.split(separator: "*").first,
                      let hall = query["locationName"]?.whitespaceNormalized.nonEmpty
                else {
                    throw Failure.badInput("item link \"\(link.text)\" has no RecNumAndPort or locationName", at: url)
                }
                guard let meal = try link.first("preceding::b[1]")?.text.nonEmpty else {
                    throw Failure.badInput("item \"\(link.text)\" has no meal heading before it", at: url)
                }
                if let printed = query["dtdate"], let date = slashedDate(printed) {
                    dates.insert(date)
                }
                let portion = target.split(separator: "*").dropFirst().first.map(String.init)
                let codes = try link.texts(".//font/@color").compactMap { legend[$0.lowercased()] }
                let item = MenuItem(source: sourceName, recipeId: String(recipeId), name: link.text,
                                    portion: portion, codes: codes.uniquedInOrder())
                let mealIndex = meals.firstIndex { $0.name == meal } ?? {
                    meals.append((meal, []))
                    return meals.count - 1
                }()
                if let hallIndex = meals[mealIndex].restaurants.firstIndex(where: { $0.name == hall }) {
                    meals[mealIndex].restaurants[hallIndex].items.append(item)
                } else {
                    meals[mealIndex].restaurants.append((hall, [item]))
                }
            }
            if dates.isEmpty, let printed = PrintedDates.firstAbsoluteDate(in: try page.first("/*")?.text ?? "") {
                dates.insert(printed)
            }
            guard dates.count == 1, let date = dates.first else {
                throw Failure.badInput(dates.isEmpty ? "the page prints no date"
                                       : "the items' links name different dates", at: url)
            }
            return ServiceDay(date: date, meals: meals.map { meal in
                Meal(name: meal.name, restaurants: meal.restaurants.map {
                    Restaurant(name: $0.name, sections: [Section(name: "", foods: $0.items)])
                })
            })
        }
    }

    /// Font colour (lower-cased) → the web code of the legend's word for it, from the innermost
    /// table that holds the word "Legend".
    private static func colourLegend(_ page: HTMLDocument) throws -> [String: String] {
        var legend: [String: String] = [:]
        let entries = "//table[not(.//table)][.//td[contains(., 'Legend')]]//font[@color]"
        for font in try page.select(entries) where !font.text.contains("Legend") && !font.text.isEmpty {
            if let colour = font.attribute("color")?.lowercased() {
                legend[colour] = webCode(forLegend: font.text)
            }
        }
        return legend
    }

    /// FoodPro's `M/D/YYYY`.
    private static func slashedDate(_ text: String) -> ServiceDate? {
        let parts = text.split(separator: "/").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return ServiceDate(year: parts[2], month: parts[0], day: parts[1])
    }
}

/// The decoded query parameters of a link, first value wins.
struct QueryParameters {
    private var values: [String: String] = [:]

    init(href: String) {
        guard let start = href.firstIndex(of: "?") else { return }
        let query = href[href.index(after: start)...].prefix { $0 != "#" }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            guard let name = parts.first.map(decode), values[name] == nil else { continue }
            values[name] = parts.count > 1 ? decode(parts[1]) : ""
        }
    }

    subscript(name: String) -> String? { values[name] }
}
