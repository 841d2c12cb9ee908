import FoodModel
import Foundation
import YAMLConfig

/// Nutrislice, the menu platform of many US campuses and school districts: one location
/// (`school`) of one organisation, its menu types as meals, a week of menus per request
/// (Sources/1-Sources/SourceAdapters/Nutrislice/README.md).
public struct NutrisliceAdapter: SourceAdapter {
    public struct Settings: SourceSettings, Hashable {
        /// The location's slug in the API's paths (`lowell-market`).
        public var school: String
        /// The menu types' slugs (`breakfast`, `lunch`), each a meal.
        public var menuTypes: [String]
        /// The location's name as published; the slug when the pipeline gives none.
        public var restaurant: String

        public init(school: String, menuTypes: [String], restaurant: String? = nil) {
            self.school = school
            self.menuTypes = menuTypes
            self.restaurant = restaurant ?? school
        }

        /// A menu type's meal name: its slug's words, capitalised (`late-night` is "Late Night");
        /// the weeks API does not print the name.
        static func mealName(of slug: String) -> String {
            slug.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }
                .joined(separator: " ")
        }
    }

    public init() {}

    public let name = "nutrislice"
    public let summary = "a Nutrislice location (weeks API of {org}.api.nutrislice.com): menus by menu type, labels, icons"
    public let folder = "Nutrislice"
    public let keys: Set<String> = ["school", "menu_types", "restaurant"]
    public var needsDates: Bool { true }
    public var legend: [DietaryCode] { NutrisliceCodes.legend }

    public func problem(reading location: Location) -> String? {
        if case .file = location {
            return "a Nutrislice source is the organisation's API root (https://{org}.api.nutrislice.com) or a folder "
                + "mirroring its paths (menu/api/weeks/...); read a saved day with `commissary parse --adapter nutrislice`"
        }
        return nil
    }

    public func settings(from entry: YAMLMapping, location: Location, folder: URL) throws -> any SourceSettings {
        let school = try Self.slug(entry.required("school"))
        let typesNode = try entry.required("menu_types")
        let types = try typesNode.sequence().map(Self.slug)
        guard !types.isEmpty else { throw typesNode.error("name at least one menu type (breakfast, lunch, ...)") }
        return Settings(school: school, menuTypes: types, restaurant: try entry.optional("restaurant")?.string())
    }

    /// A slug goes into a URL path: letters, digits, hyphens and underscores only.
    private static func slug(_ node: YAMLValue) throws -> String {
        let text = try node.string()
        guard !text.isEmpty, text.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "_" }) else {
            throw node.error("\"\(text)\" is not a slug as Nutrislice's paths use them (letters, digits, hyphens)")
        }
        return text
    }

    public func harvester(for source: SourceSpec, run: HarvestSetup) throws -> any Harvester {
        NutrisliceHarvester(source: source, base: run.base(of: source), days: run.days(of: source) ?? [],
                            settings: try settings(of: source, as: Settings.self))
    }

    public var pageFormats: [PageFormat] {
        [
            PageFormat(name: "day", hasLabels: true) { page, hints in
                let parsed = try NutrisliceMenu.parseDocument(page.body, date: hints.date, location: page.url)
                return PageReading(.dayWithFoods(parsed.day, parsed.foods), problems: parsed.problems + parsed.notes)
            },
        ]
    }
}
