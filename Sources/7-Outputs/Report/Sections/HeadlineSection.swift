/// The first screen: the night's verdict in words, then a strip of figures (dates covered,
/// items, labelled share, stale days, warnings, errors), each a link to the section that
/// explains it.
enum HeadlineSection {
    static func html(_ context: ReportContext) throws -> String {
        let figures = try NightFigures.read(context)
        let meta = try context.queries.meta()
        let verdict = self.verdict(figures)
        let built = [meta["pipeline"].map { "pipeline \($0)" }, meta["built_at"].map { "built \($0)" }]
            .compactMap { $0 }.joined(separator: ", ")
        let strip = [
            figure("dates covered", "\(figures.calendarDays) days",
                   figures.firstDay.map { "\($0) to \(figures.lastDay ?? $0)" } ?? "no menus", link: "coverage"),
            figure("menu items", "\(figures.items)", "\(figures.restaurants) restaurants", link: "coverage"),
            figure("labelled", HTML.percent(figures.labelledItems, of: figures.items),
                   "\(figures.labelledItems) items carry a label", link: "labels"),
            figure("stale", "\(figures.staleDays.count)", figures.staleDays.isEmpty ? "none" : "carried from earlier fetches",
                   link: "coverage", tone: figures.staleDays.isEmpty ? "" : "warn"),
            figure("warnings", "\(figures.failedWarnings)", "of \(figures.warnings) warning checks", link: "checks",
                   tone: figures.failedWarnings == 0 ? "" : "warn"),
            figure("errors", "\(figures.failedErrors.count)", figures.failedErrors.isEmpty ? "nothing blocked" : "blocking",
                   link: "checks", tone: figures.failedErrors.isEmpty ? "" : "bad"),
        ]
        return "<section id=\"headline\"><p class=\"verdict \(HTML.escape(verdict.tone))\"><strong>\(HTML.escape(verdict.word))</strong> "
            + "\(HTML.escape(verdict.line))</p>\n<div class=\"strip\">\(strip.joined())</div>"
            + (built.isEmpty ? "" : "<p class=\"built\">\(HTML.escape(built))</p>") + "</section>"
    }

    private static func figure(_ key: String, _ value: String, _ detail: String, link: String, tone: String = "") -> String {
        "<a class=\"figure \(HTML.escape(tone))\" href=\"#\(HTML.escape(link))\"><span class=\"k\">\(HTML.escape(key))</span>"
            + "<span class=\"v\">\(HTML.escape(value))</span><span class=\"d\">\(HTML.escape(detail))</span></a>"
    }

    /// "Was last night good?" in one word and one line: blocking failures first, then what was
    /// published but is not fresh or whole, then warnings.
    static func verdict(_ figures: NightFigures) -> (word: String, line: String, tone: String) {
        if !figures.failedErrors.isEmpty {
            return ("Not good.", "\(figures.failedErrors.count) blocking check(s) failed: "
                    + figures.failedErrors.joined(separator: ", ") + ".", "bad")
        }
        if figures.items == 0 { return ("Empty.", "The snapshot holds no menu item.", "bad") }
        var gaps: [String] = []
        if !figures.staleDays.isEmpty {
            gaps.append("\(figures.staleDays.count) stale partition(s) published from an earlier fetch")
        }
        if figures.missingDays > 0 { gaps.append("\(figures.missingDays) day(s) with no menu at all") }
        if figures.labelledItems * 2 < figures.items {
            gaps.append("only \(HTML.percent(figures.labelledItems, of: figures.items)) of the items carry a label")
        }
        let warned = figures.failedWarnings == 0 ? "" : "; \(figures.failedWarnings) warning(s) to read"
        if !gaps.isEmpty { return ("Published, with gaps:", gaps.joined(separator: "; ") + warned + ".", "warn") }
        if figures.failedWarnings > 0 {
            return ("Good,", "with \(figures.failedWarnings) warning(s) to read; every blocking check passed.", "warn")
        }
        return ("Good:", "every check passed and every day from the first to the last has a menu.", "good")
    }
}
