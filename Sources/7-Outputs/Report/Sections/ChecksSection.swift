/// The run's checks grouped by kind, failures first: each kind's counts, its first few entries
/// on one line each, the rest folded; the checks that passed folded into one line at the end.
enum ChecksSection {
    /// Entries shown before the fold.
    static let shown = 3

    static func html(_ context: ReportContext) throws -> String {
        guard let checks = try context.queries.recordedChecks() else {
            return HTML.section("checks", "Checks", HTML.none("This snapshot records no checks."))
        }
        let records = checks.map {
            CheckGroup.Record(name: $0.name, severity: $0.severity, passed: $0.passed, message: $0.message ?? "")
        }
        guard !records.isEmpty else { return HTML.section("checks", "Checks", HTML.none("The run recorded no checks.")) }
        let groups = CheckGroup.grouped(records)
        let failing = groups.filter { $0.failed > 0 }, passing = groups.filter { $0.failed == 0 }
        let failedCount = failing.reduce(0) { $0 + $1.failed }
        var content = "<p>\(records.count) checks of \(groups.count) kinds: \(failedCount) failed or stale, "
            + "\(records.count - failedCount) passed.</p>"
        content += failing.map(block).joined(separator: "\n")
        if !passing.isEmpty {
            let rows = passing.flatMap { group in group.entries.map { [group.name, group.severity, $0.text] } }
            content += HTML.folded("\(passing.reduce(0) { $0 + $1.passed }) passed: "
                                   + passing.map(\.name).joined(separator: ", "),
                                   HTML.table(["check", "severity", "what it found"], rows))
        }
        return HTML.section("checks", "Checks", content)
    }

    /// One failing kind: its name, severity and counts, the first entries, the rest folded.
    private static func block(_ group: CheckGroup) -> String {
        let days = group.entries.compactMap(\.day).count
        let counts = "\(group.failed) failed" + (group.passed > 0 ? ", \(group.passed) passed" : "")
            + (days > 0 ? " · \(days) day(s)" : "")
        // The severity is read from the snapshot, which anyone may have written: escaped like the text.
        var html = "<div class=\"check\"><p class=\"check-head\"><span class=\"badge \(HTML.escape(group.severity))\">"
            + "\(HTML.escape(group.severity))</span> <code>\(HTML.escape(group.name))</code> "
            + "<span class=\"count\">\(HTML.escape(counts))</span></p><ul class=\"examples\">"
        for entry in group.entries.prefix(shown) {
            html += "<li title=\"\(HTML.escape(entry.text))\">" + (entry.day.map { "<span class=\"day\">\(HTML.escape($0))</span> " } ?? "")
                + HTML.escape(HTML.abridged(entry.text, limit: 120)) + "</li>"
        }
        html += "</ul>"
        // What the lines above leave out (later entries, the ends of long messages), folded.
        let hidden = group.entries.count - shown
        if hidden > 0 || group.entries.contains(where: { $0.text.count > 120 }) {
            let perDay = group.entries.contains { $0.day != nil } ? " (one per day)" : ""
            html += HTML.folded(hidden > 0 ? "\(hidden) more\(perDay); every message in full" : "every message in full",
                                HTML.table(["day", "what it found"], group.entries.map { [$0.day ?? "", $0.text] }))
        }
        return html + "</div>"
    }
}
