import Basics
import Foundation
import YAMLConfig
import Yams

/// What a person decided about matches, as data (`Pipelines/nutrition/`): the curated synonyms
/// (a phrase as recipes write it → a reference food) and the overrides (an ingredient name
/// exactly as a source spells it → a reference food, or `unknown` with the reason).
public struct MatchingTables: Sendable {
    public enum Override: Sendable, Hashable {
        case food(String)
        case unknown(reason: String)
    }

    /// Keyed by `IngredientWords.phrase`.
    public var synonyms: [String: String]
    /// Keyed by the name folded to lower case with its spaces collapsed.
    public var overrides: [String: Override]
    /// The files they were read from, for a pipeline's fingerprint.
    public var files: [URL] = []

    public init(synonyms: [String: String] = [:], overrides: [String: Override] = [:]) {
        self.synonyms = synonyms
        self.overrides = overrides
    }

    /// The key of an override: the name as written, case and spacing folded.
    static func overrideKey(_ name: String) -> String {
        name.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The reference's synonym and override files, found as a pipeline's shared files are
    /// (`DataFolders`): `nutrition/<reference>-synonyms.yml` and `nutrition/<reference>-overrides.yml`.
    /// Every food they name must be in the reference.
    public static func load(for reference: NutritionReference, beside folder: URL) throws -> MatchingTables {
        try load(for: reference.name, foods: Set(reference.foods.keys), beside: folder)
    }

    /// The tables of the reference `name`, whose foods' ids are `foods`, as `load(for:beside:)` reads them.
    public static func load(for name: String, foods: Set<String>, beside folder: URL) throws -> MatchingTables {
        let reference = (name: name, foods: foods)
        let synonymsFile = DataFolders.locate("nutrition/\(reference.name)-synonyms.yml", beside: folder)
        let overridesFile = DataFolders.locate("nutrition/\(reference.name)-overrides.yml", beside: folder)
        var tables = MatchingTables()
        tables.files = [synonymsFile]
        let synonyms = try YAMLFile.mapping(of: synonymsFile, what: "synonym table")
        try synonyms.allowOnly(["reference", "synonyms"])
        for (phrase, value) in try entries(synonyms.required("synonyms")) {
            let food = try value.string()
            guard reference.foods.contains(food) else { throw value.error("\(food) is not a food of \(reference.name)") }
            let key = IngredientWords.phrase(phrase)
            guard !key.isEmpty else { throw value.error("the phrase \"\(phrase)\" has no word a match could use") }
            // A match drops words of preparation ("fresh", "chopped"), so "fresh thyme" is read as
            // "thyme": two such phrases naming two foods would leave the later one in place of the
            // earlier for both, unseen.
            if let earlier = tables.synonyms[key], earlier != food {
                throw value.error("the phrase \"\(phrase)\" is read as \"\(key)\", which an earlier phrase gives "
                                  + "\(earlier); a match cannot tell them apart: keep one")
            }
            tables.synonyms[key] = food
        }
        if FileManager.default.fileExists(atPath: overridesFile.path) {
            tables.files.append(overridesFile)
            let overrides = try YAMLFile.mapping(of: overridesFile, what: "override file")
            try overrides.allowOnly(["reference", "overrides"])
            if let list = try overrides.optional("overrides") {
                for (name, value) in try entries(list) {
                    tables.overrides[overrideKey(name)] = try override(value, of: reference)
                }
            }
        }
        return tables
    }

    /// A mapping's pairs in file order; an empty mapping (`{}`) or none at all is no entry.
    private static func entries(_ value: YAMLValue) throws -> [(String, YAMLValue)] {
        if case .scalar(let scalar) = value.node, scalar.string.isEmpty { return [] }
        return try YAMLMapping(value).entries.map { ($0.key, $0.value) }
    }

    /// `"05062"` (a food of the reference) or `{unknown: "why"}`.
    private static func override(_ value: YAMLValue, of reference: (name: String, foods: Set<String>)) throws -> Override {
        if case .mapping = value.node {
            let mapping = try YAMLMapping(value)
            try mapping.allowOnly(["unknown"])
            return .unknown(reason: try mapping.required("unknown").string())
        }
        let food = try value.string()
        guard reference.foods.contains(food) else { throw value.error("\(food) is not a food of \(reference.name)") }
        return .food(food)
    }
}
