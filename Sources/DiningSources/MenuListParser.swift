import FoodModel
import HTML

/// Reads the station lists shared by the overview and the detailed menu:
/// `li.sect-item` (station name as its own text) holding `li.menu-item`s.
enum MenuListParser {
    static func sections(_ sectionNodes: [HTMLNode], url: String) throws -> [Section] {
        try sectionNodes.map { node in
            let items = try node.select(within("li", class: "menu-item"))
                .map { try menuItem($0, url: url) }
            return Section(name: node.ownText, foods: items)
        }
    }

    /// One item. The name is the wrapper's whole text, so a side printed before the link
    /// ("w/ Toasted Herb & Cheese Bread") keeps its "w/". Codes are the images beside the link,
    /// not the ones the tooltip repeats with their long text.
    static func menuItem(_ node: HTMLNode, url: String) throws -> MenuItem {
        let links = try node.select(within("a", class: "recipelink"))
        guard let link = links.first(where: { RecipeLink(href: $0.attribute("href") ?? "") != nil }),
              let target = RecipeLink(href: link.attribute("href") ?? "")
        else {
            throw InputError("menu item \"\(node.text.prefix(80))\" has no link to a /Recipes/ page",
                             at: url)
        }
        let wrapper = try node.first(within("span", class: "tooltip-target-wrapper"))
        let name = wrapper?.text.nonEmpty ?? link.text
        guard !name.isEmpty else {
            throw InputError("menu item for recipe \(target.recipeId) has no name", at: url)
        }
        let outsideTooltip = "not(ancestor::div[\(XPathPredicate.hasClass("item-description-wrapper")) or \(XPathPredicate.hasClass("item-description"))])"
        let codes = try node.texts(".//img[\(XPathPredicate.hasClass("webcode-16px"))][\(outsideTooltip)]/@alt")
        let description = try node.first(within("div", class: "tt-description"))?.text.nonEmpty
        return MenuItem(source: UCLAMenuSite.sourceName, recipeId: target.recipeId, name: name,
                        portion: target.portion, codes: codes.filter { !$0.isEmpty }.uniquedInOrder(),
                        description: description)
    }
}
