import FoodModel
import Foundation
import SourceAdapters
import Testing
import TestSupport

/// The icon legend of Penn's real cafés answer (`cor_icons`, 22 icons, the same table in each of
/// its 15 cafés), printed by the items of a menus answer written from it: the real St. Olaf answer
/// with one listed item per icon, each printing its icon by label (`{id: label}`), as 2022 answers
/// do. What each icon means is read by hand from the legend's descriptions.
@Suite struct BonAppetitLegendTests {
    /// The allergen icons (`allergen: "1"`, "May contain peanuts. All menu items are prepared in
    /// an open kitchen that handles all major allergens."), with the terms their words name.
    static let mayContain: [String: [String]] = [
        "Peanut": ["peanuts"], "Tree Nut": ["tree_nuts"], "Fish": ["fish"], "Shellfish": ["crustacean_shellfish"],
        "Wheat/Gluten": ["wheat", "gluten"], "Soy": ["soybeans"], "Milk": ["milk"], "Egg": ["eggs"],
    ]
    /// The icons that name a diet of the vocabulary; the other ten name programmes, advisories
    /// or "Ask Us", and no term.
    static let diets: [String: [String]] = [
        "Vegetarian": ["vegetarian"], "Vegan": ["vegan"], "Halal": ["halal"], "Kosher": ["kosher"], "Jain": ["jain"],
    ]

    /// The legend of Penn's café 593 (1920 Commons), by icon id.
    static func pennLegend() throws -> [String: [String: Any]] {
        let top = try #require(try JSONSerialization.jsonObject(
            with: SharedData.load(BonAppetitCafesTests.file)) as? [String: Any])
        let campuses = try #require((top["result_data"] as? [String: Any])?["campuses"] as? [String: Any])
        let cafe = try #require(((campuses["203"] as? [String: Any])?["cafes"] as? [String: Any])?["593"] as? [String: Any])
        return try #require(cafe["cor_icons"] as? [String: [String: Any]])
    }

    /// The St. Olaf answer whose first listed items print one icon each of `legend`, by label
    /// under its id, with `table` as the answer's own icon table (none: left out). Returns the
    /// answer and which item prints which icon label.
    static func menus(legend: [String: [String: Any]], table: [String: Any]?) throws -> (Data, [String: String]) {
        var top = try #require(try JSONSerialization.jsonObject(with: SharedData.load(BonAppetitTests.file)) as? [String: Any])
        let day = try #require((top["days"] as? [[String: Any]])?.first)
        let cafe = try #require((day["cafes"] as? [String: Any])?["261"] as? [String: Any])
        let dayparts = (cafe["dayparts"] as? [[[String: Any]]] ?? []).flatMap { $0 }
        var listed: [String] = []
        for id in dayparts.flatMap({ $0["stations"] as? [[String: Any]] ?? [] }).flatMap({ $0["items"] as? [String] ?? [] })
        where !listed.contains(id) { listed.append(id) }
        var items = try #require(top["items"] as? [String: Any])
        var printing: [String: String] = [:]
        for ((iconId, icon), itemId) in zip(legend.sorted(by: { $0.key < $1.key }), listed) {
            var item = try #require(items[itemId] as? [String: Any])
            let label = try #require(icon["label"] as? String)
            item["cor_icon"] = [iconId: label]
            items[itemId] = item
            printing[itemId] = label
        }
        #expect(printing.count == legend.count)
        top["items"] = items
        top["cor_icons"] = table
        return (try JSONSerialization.data(withJSONObject: top), printing)
    }

    /// Each item's one code, read through the adapter, with what the adapter's legend says it means.
    static func meanings(of data: Data, printing: [String: String]) throws -> [String: DietaryCode?] {
        let parsed = try BonAppetitMenu.parse(data, location: "legend.json")
        let legend = Dictionary(BonAppetitAdapter().legend.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
        var meanings: [String: DietaryCode?] = [:]
        for (itemId, label) in printing {
            let food = try #require(parsed.foods.first { $0.id.recipeId == itemId })
            #expect(food.codes.count == 1, "\(label): \(food.codes)")
            meanings[label] = food.codes.first.flatMap { legend[$0] }
        }
        return meanings
    }

    @Test func everyIconOfTheLegendIsKnownAndTheAllergensMayBeThere() throws {
        let legend = try Self.pennLegend()
        #expect(legend.count == 22)
        let (data, printing) = try Self.menus(legend: legend, table: legend)
        let meanings = try Self.meanings(of: data, printing: printing)
        for (label, meaning) in meanings {
            let code = try #require(meaning, "\(label) is an unknown code")
            if let terms = Self.mayContain[label] {
                #expect(code.kind == .allergen && code.presence == .mayContain && code.terms == terms, "\(label)")
                #expect(code.code == "may contain " + label.lowercased())
            } else {
                #expect(code.presence == .contains, "\(label)")
                #expect(code.terms == Self.diets[label] ?? [], "\(label): \(code.terms)")
            }
        }
        #expect(meanings["Ask Us"]??.kind == .allergen)
        #expect(meanings["Raw/Undercooked"]??.kind == .dietary)
        #expect(meanings["Organic"]??.kind == .sustainability && meanings["Garden Grown"]??.kind == .sustainability)
    }

    /// Penn's wrapper leaves the icon table out: the platform's allergen icons are still read as
    /// its legend reads them everywhere (may contain), not as a label's "contains".
    @Test func withoutATableTheAllergenIconsStillMayBeThere() throws {
        let legend = try Self.pennLegend()
        let (withTable, printing) = try Self.menus(legend: legend, table: legend)
        let (withoutTable, _) = try Self.menus(legend: legend, table: nil)
        let read = try Self.meanings(of: withTable, printing: printing)
        #expect(try Self.meanings(of: withoutTable, printing: printing).mapValues { $0?.code } == read.mapValues { $0?.code })
    }

    /// A café whose legend describes its milk icon as what the dish holds ("Contains milk.")
    /// gets the plain code, which means contains; one that does not say whether an icon is an
    /// allergen (`allergen: "0"`) states nothing more than its label.
    @Test func anAllergenIconThatSaysContainsIsAContains() throws {
        var legend = try Self.pennLegend()
        legend["258"]?["description"] = "Milk: Contains milk."
        let (data, printing) = try Self.menus(legend: legend, table: legend)
        let milk = try #require(try Self.meanings(of: data, printing: printing)["Milk"] ?? nil)
        #expect(milk.code == "milk" && milk.presence == .contains && milk.terms == ["milk"])
    }
}
