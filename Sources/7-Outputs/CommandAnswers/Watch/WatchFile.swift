import Basics
import FoodModel
import Foundation
import YAMLConfig

/// Reads a watch file (docs/watch.md): every error names the file, the line and the key, as
/// a pipeline file's do.
public enum WatchFile {
    static let ruleKeys: Set<String> = ["label", "item", "term", "not", "restaurant", "campus"]

    public static func read(_ file: URL) throws -> WatchList {
        let root = try YAMLFile.mapping(of: file, what: "watch file",
                                        emptyHint: ": list what to watch under `watch:` (docs/watch.md)")
        try root.allowOnly(["watch", "days"])
        let rules = try root.required("watch").sequence()
        guard !rules.isEmpty else { throw try root.required("watch").error("lists nothing to watch") }
        return WatchList(rules: try rules.map(rule), days: try root.optional("days")?.int(in: 1...366))
    }

    private static func rule(_ value: YAMLValue) throws -> WatchRule {
        let entry = try YAMLMapping(value)
        try entry.allowOnly(ruleKeys)
        guard ["item", "term", "restaurant", "campus"].contains(where: entry.keys.contains) else {
            throw value.error("names nothing to watch for: give an item, a term, a restaurant or a campus")
        }
        return WatchRule(label: try entry.optional("label")?.string(),
                         item: try entry.optional("item").map { NamePattern(try $0.string()) },
                         terms: try terms(entry.optional("term")), excluded: try terms(entry.optional("not")),
                         restaurant: try entry.optional("restaurant").map { NamePattern(try $0.string()) },
                         campus: try entry.optional("campus")?.string())
    }

    /// One term or a list of them, each a term of the one vocabulary.
    private static func terms(_ value: YAMLValue?) throws -> [String] {
        guard let value else { return [] }
        let values = (try? value.sequence()) ?? [value]
        return try values.map { each in
            let text = try each.string()
            guard let term = term(named: text) else {
                throw each.error("unknown term \"\(text)\"; the terms are "
                                 + Vocabulary.terms.map(\.name).joined(separator: ", "))
            }
            return term
        }
    }

    /// A term of the vocabulary by its name, its label or a singular (`peanut`, `tree nut`,
    /// `Tree nuts`), as a person writes it.
    static func term(named text: String) -> String? {
        let key = text.lowercased().replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: "-", with: "_")
        return Vocabulary.terms.first { term in
            term.name == key || term.name == key + "s" || term.label.lowercased() == text.lowercased()
        }?.name
    }
}
