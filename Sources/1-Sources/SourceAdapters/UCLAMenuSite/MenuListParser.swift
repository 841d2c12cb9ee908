import Basics
import FoodModel
import HTML
import SourceReading

/// Reads the station lists shared by the overview and the detailed menu:
/// `li.sect-item` (station name as its own text) holding `li.menu-item`s.
enum MenuListParser {
    static func sections(_ sectionNodes: [HTMLNode], url: String) throws -> [Section] {
        try sectionNodes.map { node in
            let items = try node.elements(named: "li", class: "menu-item", nested: false)
                .map { try menuItem($0, url: url) }
            return Section(name: node.ownText, foods: items)
        }
    }

    /// One item. The name is the wrapper's whole text, so a side printed before the link
    /// ("w/ Toasted Herb & Cheese Bread") keeps its "w/". Codes are the images beside the link,
    /// not the ones the tooltip repeats with their long text.
    ///
    /// One walk over the item's elements finds all four parts; four XPath queries per item
    /// were most of the time an overview page took to read.
    static func menuItem(_ node: HTMLNode, url: String) throws -> MenuItem {
        var link: (node: HTMLNode, target: RecipeLink)?
        var wrapper: HTMLNode?
        var description: HTMLNode?
        var codes: [String] = []
        node.forEachElement(below: false) { element, insideTooltip in
            if element.isElement(named: "a") {
                if link == nil, element.hasClass("recipelink"),
                   let target = RecipeLink(href: element.attribute("href") ?? "") {
                    link = (element, target)
                }
            } else if element.isElement(named: "span") {
                if wrapper == nil, element.hasClass("tooltip-target-wrapper") { wrapper = element }
            } else if element.isElement(named: "img") {
                if !insideTooltip, element.hasClass("webcode-16px"), let alt = element.attribute("alt") {
                    codes.append(alt.whitespaceNormalized)
                }
            } else if element.isElement(named: "div") {
                if description == nil, element.hasClass("tt-description") { description = element }
                return insideTooltip || element.hasClass("item-description-wrapper")
                    || element.hasClass("item-description")
            }
            return insideTooltip
        }
        guard let link else {
            throw Failure.badInput("menu item \"\(node.text.prefix(80))\" has no link to a /Recipes/ page",
                                   at: url)
        }
        let name = wrapper?.text.nonEmpty ?? link.node.text
        guard !name.isEmpty else {
            throw Failure.badInput("menu item for recipe \(link.target.recipeId) has no name", at: url)
        }
        return MenuItem(source: UCLAMenuSite.sourceName, recipeId: link.target.recipeId, name: name,
                        portion: link.target.portion, codes: codes.filter { !$0.isEmpty }.uniquedInOrder(),
                        description: description?.text.nonEmpty)
    }
}
