import Basics
import FoodModel
import Foundation
import YAMLConfig

/// Bon Appétit, the café platform of about a thousand colleges and companies: one request per
/// day for all of a source's cafés (`menus?cafe=…&date=…`), dayparts as meals, stations as
/// sections; the cafés answer, once a run, for the cafés' places, hours and closed days
/// (Sources/1-Sources/SourceAdapters/BonAppetit/README.md).
public struct BonAppetitAdapter: SourceAdapter {
    public struct Settings: SourceSettings, Hashable {
        /// The cafés' ids, in the pipeline's order (`cafes: [261, 262]`).
        public var cafes: [String]
        /// Read the cafés answer once a run for the cafés' places, hours and closed days
        /// (`cafes_answer: false` keeps to the menus, whose dayparts then give the hours).
        public var cafesAnswer: Bool

        public init(cafes: [String], cafesAnswer: Bool = true) {
            self.cafes = cafes
            self.cafesAnswer = cafesAnswer
        }
    }

    public init() {}

    public let name = "bonappetit"
    public let summary = "Bon Appétit cafés (legacy.cafebonappetit.com API 2): a day's menus of the cafés per request, icons; the cafés answer once a run for places, hours and closed days"
    public let folder = "BonAppetit"
    public let keys: Set<String> = ["cafes", "cafes_answer"]
    public var needsDates: Bool { true }
    public var legend: [DietaryCode] { BonAppetitCodes.legend }

    public func problem(reading location: Location) -> String? {
        if case .file = location {
            return "a Bon Appétit source is the API's root (https://legacy.cafebonappetit.com) or a folder mirroring its "
                + "paths (api/2/menus@cafe=...); read a saved answer with `commissary parse --adapter bonappetit`"
        }
        return nil
    }

    public func settings(from entry: YAMLMapping, location: Location, folder: URL) throws -> any SourceSettings {
        let node = try entry.required("cafes")
        let cafes = try node.sequence().map { value -> String in
            let text = try value.string()
            // An id goes into the request's query: digits only, as the platform numbers cafés.
            guard !text.isEmpty, text.count <= 12, text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw value.error("\"\(text)\" is not a Bon Appétit café id (a number, such as 261)")
            }
            return text
        }
        guard !cafes.isEmpty else { throw node.error("name at least one café id (cafes: [261])") }
        return Settings(cafes: cafes, cafesAnswer: try entry.optional("cafes_answer")?.bool() ?? true)
    }

    public func harvester(for source: SourceSpec, run: HarvestSetup) throws -> any Harvester {
        BonAppetitHarvester(source: source, base: run.base(of: source), days: run.days(of: source) ?? [],
                            settings: try settings(of: source, as: Settings.self))
    }

    public var pageFormats: [PageFormat] {
        [
            PageFormat(name: "menus", hasLabels: true) { page, hints in
                let parsed = try BonAppetitMenu.parse(page.body, location: page.url)
                let day = parsed.days.first { $0.date == hints.date } ?? parsed.days.first
                guard let day else { throw Failure.badInput("the answer holds no day", at: page.url) }
                let served = Set(day.menuItems.map(\.food))
                return PageReading(.dayWithFoods(day, parsed.foods.filter { served.contains($0.id) }), problems: parsed.problems)
            },
            PageFormat(name: "cafes") { page, hints in
                let parsed = try BonAppetitCafes.parse(page.body, days: hints.date.map { [$0] }, location: page.url)
                return PageReading(.hours(parsed.hours), problems: parsed.problems)
            },
        ]
    }
}
