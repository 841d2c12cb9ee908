import Foundation

extension AdapterRegistry {
    /// Every adapter as a row of a Markdown table: its name, what it reads, its own keys, whether
    /// it needs `dates`, the locations it reads, its page formats with their old `parse` names,
    /// and its folder (its code, and what its source publishes in `README.md`).
    /// The adapter tables of README.md and docs/pipelines.md are this output (`commissary
    /// adapters`) and a test fails when they differ, so an adapter documents itself by its
    /// registry line.
    public static func markdownTable() -> String {
        var lines = [
            "| adapter | reads | keys | `dates` | location | page formats (`parse --page`; old names) | folder |",
            "|---|---|---|---|---|---|---|",
        ]
        for adapter in all {
            let keys = adapter.keys.subtracting(["dates"]).sorted().map { "`\($0)`" }
            let dates = adapter.needsDates ? "required" : adapter.keys.contains("dates") ? "optional" : "–"
            let formats = adapter.pageFormats.map { format in
                format.aliases.isEmpty
                    ? "`\(format.name)`"
                    : "`\(format.name)` (" + format.aliases.map { "`\($0)`" }.joined(separator: ", ") + ")"
            }
            let cells = ["`\(adapter.name)`", adapter.summary, keys.isEmpty ? "–" : keys.joined(separator: ", "), dates,
                         locationKinds(of: adapter), formats.joined(separator: ", "),
                         "`Sources/1-Sources/SourceAdapters/\(adapter.folder)/`"]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The kinds of location an adapter reads, as the adapter itself answers for one of each.
    private static func locationKinds(of adapter: any SourceAdapter) -> String {
        let kinds: [(String, Location)] = [
            ("URL", .web("https://example.org")),
            ("folder", .directory(URL(fileURLWithPath: "/"))),
            ("file", .file(URL(fileURLWithPath: "/menu.json"))),
        ]
        return kinds.filter { adapter.problem(reading: $0.1) == nil }.map(\.0).joined(separator: ", ")
    }
}
