import Basics
import FoodModel
import Foundation
import HTML
import SourceReading

extension UCLAMenuSite {
    /// Reads an overview page (`/Menus/...`): one day, every meal, every hall.
    ///
    /// Each `h2#page-header` ("Brunch Menu for Today, October 13, 2019") opens a meal and gives
    /// its absolute date; the relative word is ignored because it depends on when the page was
    /// saved. The `div.menu-block`s that follow it, in document order, are that meal's halls.
    public static func parseOverview(_ data: Data, url: String, charset: String?) throws -> ServiceDay {
        try withPage(data, url: url, charset: charset) { page in
            var meals: [(header: MealHeader, restaurants: [Restaurant])] = []
            for node in headersAndBlocks(page) {
                if node.isElement(named: "h2") {
                    guard let header = MealHeader(node.text) else {
                        throw Failure.badInput("meal header \"\(node.text)\" is not \"<Meal> Menu for ..., <Month> <D>, <YYYY>\"",
                                               at: url)
                    }
                    meals.append((header, []))
                } else {
                    guard !meals.isEmpty else {
                        throw Failure.badInput("a div.menu-block comes before any h2#page-header", at: url)
                    }
                    meals[meals.count - 1].restaurants.append(try restaurant(node, url: url))
                }
            }
            guard let date = meals.first?.header.date else {
                throw Failure.badInput("no meal header (h2#page-header) found: not a menu overview page, or its layout changed",
                                       at: url)
            }
            guard meals.contains(where: { !$0.restaurants.isEmpty }) else {
                throw Failure.badInput("meal headers found but no restaurant (div.menu-block): the layout changed",
                                       at: url)
            }
            let dates = Set(meals.map(\.header.date))
            guard dates.count == 1 else {
                let listed = dates.sorted().map(\.description).joined(separator: ", ")
                throw Failure.badInput("the meals on one overview page have different dates (\(listed))", at: url)
            }
            return ServiceDay(date: date, meals: meals.map {
                Meal(name: $0.header.meal, restaurants: $0.restaurants)
            })
        }
    }

    /// `//h2[@id='page-header'] | //div[menu-block]` in document order, found in one walk over
    /// the page that does not go inside a block (headers are outside them, and blocks do not
    /// nest): the union's two scans of the whole tree were most of what reading an overview cost
    /// beyond parsing it.
    private static func headersAndBlocks(_ page: HTMLDocument) -> [HTMLNode] {
        var found: [HTMLNode] = []
        page.rootElement?.forEachElement(below: ()) { element, _ in
            if element.isElement(named: "h2") {
                if element.attribute("id") == "page-header" { found.append(element) }
            } else if element.isElement(named: "div"), element.hasClass("menu-block") {
                found.append(element)
                return nil
            }
            return ()
        }
        return found
    }

    private static func restaurant(_ block: HTMLNode, url: String) throws -> Restaurant {
        guard let name = block.elements(named: "h3", class: "col-header", limit: 1).first?.text.nonEmpty else {
            throw Failure.badInput("a div.menu-block has no h3.col-header naming its restaurant", at: url)
        }
        let stations = block.elements(named: "li", class: "sect-item", nested: false)
        let sections = try MenuListParser.sections(stations, url: url)
        return Restaurant(name: name, sections: sections)
    }
}

/// "Brunch Menu for Today, October 13, 2019" → Brunch on 2019-10-13.
struct MealHeader: Hashable {
    var meal: String
    var date: ServiceDate

    /// Built once rather than on every call; `nonisolated(unsafe)` for the reason given on
    /// `PrintedDates.absoluteDate`.
    nonisolated(unsafe) private static let pattern = /(?i)^\s*(?<meal>.+?)\s+Menu\s+for\b(?<rest>.*)$/

    init?(_ text: String) {
        guard let match = text.wholeMatch(of: Self.pattern),
              let date = PrintedDates.firstAbsoluteDate(in: String(match.output.rest))
        else { return nil }
        meal = String(match.output.meal)
        self.date = date
    }
}
