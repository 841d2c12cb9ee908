import FoodModel
import Foundation
import YAMLConfig

/// TheMealDB's live v1 API, walked by first letter.
public struct MealDBAPIAdapter: SourceAdapter {
    public struct Settings: SourceSettings, Hashable {
        /// The first letters and digits to walk, one partition each, in this order; nil walks
        /// all of a–z and 0–9.
        public var letters: [Character]?

        public init(letters: [Character]? = nil) {
            self.letters = letters
        }
    }

    public init() {}

    public let name = "mealdb-api"
    public let summary = "TheMealDB's live v1 API, walked by first letter, plus its categories"
    public let folder = "TheMealDB"
    public let keys: Set<String> = ["letters"]
    /// TheMealDB is a small free service: unless the pipeline says otherwise, no more than two
    /// requests a second are sent to it.
    public var defaultRequestsPerSecond: Double? { 2 }

    public func problem(reading location: Location) -> String? {
        if case .web = location { return nil }
        return "the MealDB API needs an http(s) URL such as https://www.themealdb.com"
    }

    /// `letters: abc019`: a subset of the catalogue's first characters, for a partial backfill.
    public func settings(from entry: YAMLMapping, location: Location, folder: URL) throws -> any SourceSettings {
        guard let node = try entry.optional("letters") else { return Settings() }
        let letters = Array(try node.string().lowercased())
        for letter in letters where !MealDBAPIHarvester.allLetters.contains(letter) {
            throw node.error("\"\(letter)\" is not one of a–z or 0–9")
        }
        guard Set(letters).count == letters.count else { throw node.error("lists a letter twice") }
        return Settings(letters: letters)
    }

    public func harvester(for source: SourceSpec, run: HarvestSetup) throws -> any Harvester {
        MealDBAPIHarvester(source: source, letters: try settings(of: source, as: Settings.self).letters,
                           base: run.base(of: source))
    }

    /// The API answers in the dump's format (whose adapter keeps the old `mealdb` name).
    public var pageFormats: [PageFormat] {
        MealDBDumpAdapter().pageFormats.map { format in
            var format = format
            format.aliases = []
            return format
        }
    }
}
