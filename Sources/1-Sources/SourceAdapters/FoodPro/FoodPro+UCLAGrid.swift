import Basics
import FoodModel
import Foundation
import HTML
import SourceReading

extension FoodPro {
    /// Reads UCLA's FoodPro menu grid (`default.asp?date=6%2F20%2F2016&meal=1`, until 2016).
    ///
    /// Each `table.menugridtable` is one meal: a `td.menumealheader` ("Breakfast Menu for Monday,
    /// June 20, 2016", whose absolute date is the day's), one `td.menulocheader` per hall, then
    /// rows whose `td.menugridcell` / `td.menugridcell_last` cells are the halls' columns, in
    /// header order. A cell lists `li.categoryN` (a station) followed by `li.levelN` items, each
    /// an `a.itemlink` / `a.itemlinkt` to `recipedetail.asp?RecipeNumber=031001&PortionSize=6`
    /// (the recipe number keeps its leading zeros) with `img.webcode` marks whose `alt` is the
    /// legend's wording, mapped to web codes by `webCode(forLegend:)`. An empty cell holds only
    /// `span.category0`. Halls keep their printed names ("Covel Dining", "Sproul Dining"): the
    /// location codes of their links (01 De Neve, 02 Bruin Plate, earlier Sproul, 04 Feast at
    /// Rieber, 06 Hedrick, 07 Covel) name buildings whose halls were renamed over the years.
    ///
    /// Sides: FoodPro lists what is served with a dish as the lines after it that start with
    /// "w/" or "&" (`li.level3`: "Belgian Waffle", "w/ Chocolate Syrup", "& Peach Topping").
    /// Each has its own recipe number, portion and marks, so each is a menu item of its own,
    /// served with the dish above it (`MenuItem.servedWith`): a vegetarian omelet bar served
    /// with bacon is a vegetarian dish and a side of bacon, and neither takes the other's marks.
    ///
    /// Returns nil for a page without a menu grid: FoodPro's answer for a meal a day does not
    /// serve. Throws `Failure` for a grid it cannot read (no meal header or date, a row
    /// with more cells than halls, an item link without a recipe number).
    public static func parseUCLAMenuGrid(_ data: Data, url: String, charset: String?) throws -> ServiceDay? {
        try withPage(data, url: url, charset: charset) { page in
            let tables = try page.select(anywhere("table", class: "menugridtable"))
            guard !tables.isEmpty else { return nil }
            var date: ServiceDate?
            var meals: [Meal] = []
            for table in tables {
                let (name, printedDate) = try mealHeader(of: table, url: url)
                if let date, date != printedDate {
                    throw Failure.badInput("the page's meals are of different days (\(date) and \(printedDate))", at: url)
                }
                date = printedDate
                let restaurants = try gridRestaurants(of: table, url: url)
                if let index = meals.firstIndex(where: { $0.name == name }) {
                    meals[index].restaurants += restaurants
                } else {
                    meals.append(Meal(name: name, restaurants: restaurants))
                }
            }
            guard let date else { return nil }
            return ServiceDay(date: date, meals: meals)
        }
    }

    /// "Breakfast Menu for Monday, June 20, 2016" → ("Breakfast", 2016-06-20).
    private static func mealHeader(of table: HTMLNode, url: String) throws -> (String, ServiceDate) {
        guard let header = try table.first(within("td", class: "menumealheader"))?.text.nonEmpty else {
            throw Failure.badInput("a menu grid without its meal header (td.menumealheader)", at: url)
        }
        guard let match = header.firstMatch(of: /(?i)^(?<meal>.+?)\s+menu\s+for\b/) else {
            throw Failure.badInput("meal header \"\(header)\" does not read \"<Meal> Menu for <date>\"", at: url)
        }
        guard let date = PrintedDates.firstAbsoluteDate(in: header) else {
            throw Failure.badInput("meal header \"\(header)\" prints no date such as \"June 20, 2016\"", at: url)
        }
        return (String(match.output.meal).whitespaceNormalized, date)
    }

    /// The halls of one meal's grid, in header order, each with the stations of every row.
    private static func gridRestaurants(of table: HTMLNode, url: String) throws -> [Restaurant] {
        let halls = try table.select(within("td", class: "menulocheader")).map(\.text)
        var sections = Array(repeating: [Section](), count: halls.count)
        let cellTest = "\(XPathPredicate.hasClass("menugridcell")) or \(XPathPredicate.hasClass("menugridcell_last"))"
        for row in try table.select(".//tr[td[\(cellTest)]]") {
            let cells = try row.select("td[\(cellTest)]")
            guard cells.count <= halls.count else {
                throw Failure.badInput("a menu grid row has \(cells.count) cells for \(halls.count) halls", at: url)
            }
            for (column, cell) in cells.enumerated() {
                for section in try cellSections(cell, url: url) {
                    if let index = sections[column].firstIndex(where: { $0.name == section.name }) {
                        sections[column][index].foods += section.foods
                    } else {
                        sections[column].append(section)
                    }
                }
            }
        }
        return zip(halls, sections).compactMap { hall, sections in
            sections.isEmpty ? nil : Restaurant(name: hall, sections: sections)
        }
    }

    /// The stations of one cell, each side linked to the dish above it.
    private static func cellSections(_ cell: HTMLNode, url: String) throws -> [Section] {
        var sections: [Section] = []
        for line in try cell.select(".//li") {
            let classes = (line.attribute("class") ?? "").split(separator: " ")
            if classes.contains(where: { $0.hasPrefix("category") }) {
                sections.append(Section(name: line.text, foods: []))
                continue
            }
            guard classes.contains(where: { $0.hasPrefix("level") }),
                  var item = try gridItem(line, url: url) else { continue }
            if sections.isEmpty { sections.append(Section(name: "", foods: [])) }
            let lead = line.ownText
            if lead.hasPrefix("w/") || lead.hasPrefix("&") {
                let foods = sections[sections.count - 1].foods
                item.servedWith = foods.lastIndex { $0.servedWith == nil }
            }
            sections[sections.count - 1].foods.append(item)
        }
        return sections.filter { !$0.foods.isEmpty }
    }

    /// One `li.levelN` line: its item link, recipe number, portion and marks.
    private static func gridItem(_ line: HTMLNode, url: String) throws -> MenuItem? {
        let linkTest = "\(XPathPredicate.hasClass("itemlink")) or \(XPathPredicate.hasClass("itemlinkt"))"
        guard let link = try line.first(".//a[\(linkTest)]") else { return nil }
        let query = QueryParameters(href: link.attribute("href") ?? "")
        guard let recipeId = query["RecipeNumber"]?.whitespaceNormalized.nonEmpty else {
            throw Failure.badInput("item link \"\(link.text)\" has no RecipeNumber", at: url)
        }
        let codes = try line.texts(".//img[\(XPathPredicate.hasClass("webcode"))]/@alt")
            .filter { !$0.isEmpty }.map(webCode(forLegend:))
        return MenuItem(source: sourceName, recipeId: recipeId, name: link.text,
                        portion: query["PortionSize"]?.whitespaceNormalized.nonEmpty,
                        codes: codes.uniquedInOrder())
    }
}
