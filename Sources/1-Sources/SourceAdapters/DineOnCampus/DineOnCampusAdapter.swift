import FoodModel
import Foundation
import YAMLConfig

/// DineOnCampus (Nutricloud/Webtrition), the menu platform of many US campuses: its public v1
/// API per location, period and day (Sources/1-Sources/SourceAdapters/DineOnCampus/README.md).
public struct DineOnCampusAdapter: SourceAdapter {
    /// A location of the site: its id in the API and its name as the campus publishes it.
    public struct Place: Hashable, Sendable {
        public var id: String
        public var name: String

        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    public struct Settings: SourceSettings, Hashable {
        /// The locations to read; empty when they are found from `site`.
        public var locations: [Place]
        /// The site whose every location is read, listed by the API each run.
        public var site: String?

        public init(locations: [Place], site: String? = nil) {
            self.locations = locations
            self.site = site
        }
    }

    public init() {}

    public let name = "dineoncampus"
    public let summary = "a DineOnCampus site (api.dineoncampus.com v1): each location's periods per day, labels, filters"
    public let folder = "DineOnCampus"
    public let keys: Set<String> = ["locations", "site_id"]
    public var needsDates: Bool { true }
    public var legend: [DietaryCode] { DineOnCampusCodes.legend }

    public func problem(reading location: Location) -> String? {
        if case .file = location {
            return "a DineOnCampus source is the API root (https://api.dineoncampus.com); read a saved answer with "
                + "`commissary parse --adapter dineoncampus`"
        }
        return nil
    }

    /// `locations`: a list of `{id, name}`, the ids as the API's paths use them; or `site_id`,
    /// whose every location the API lists (with their names) each run. One of the two.
    public func settings(from entry: YAMLMapping, location: Location, folder: URL) throws -> any SourceSettings {
        let siteNode = try entry.optional("site_id")
        let site = try siteNode.map { node in
            let site = try node.string()
            guard !site.isEmpty, site.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                throw node.error("\"\(site)\" is not a DineOnCampus site id (letters and digits)")
            }
            return site
        }
        guard let node = try entry.optional("locations") else {
            guard let site else {
                throw try entry.required("locations").error("name the locations ({id, name}) or the site (site_id)")
            }
            return Settings(locations: [], site: site)
        }
        if let siteNode { throw siteNode.error("give either site_id or locations, not both") }
        var locations: [Place] = []
        for item in try node.sequence() {
            let mapping = try YAMLMapping(item)
            try mapping.allowOnly(["id", "name"])
            let idNode = try mapping.required("id")
            let id = try idNode.string()
            guard !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                throw idNode.error("\"\(id)\" is not a DineOnCampus location id (letters and digits)")
            }
            locations.append(Place(id: id, name: try mapping.required("name").string()))
        }
        guard !locations.isEmpty else { throw node.error("name at least one location ({id, name})") }
        return Settings(locations: locations)
    }

    public func harvester(for source: SourceSpec, run: HarvestSetup) throws -> any Harvester {
        let settings = try settings(of: source, as: Settings.self)
        return DineOnCampusHarvester(source: source, base: run.base(of: source), days: run.days(of: source) ?? [],
                                     locations: settings.locations, site: settings.site)
    }

    public var pageFormats: [PageFormat] {
        [
            PageFormat(name: "menu", hasLabels: true) { page, hints in
                let parsed = try DineOnCampusMenu.parse(page.body, restaurant: "unnamed location", date: hints.date,
                                                        location: page.url)
                return PageReading(.dayWithFoods(parsed.day, parsed.foods), problems: parsed.problems)
            },
        ]
    }
}
