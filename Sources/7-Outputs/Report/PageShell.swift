import Foundation

/// The document around the sections: head, style, the title line, the first section (the
/// headline) and a row of links to the others, in one file with nothing from elsewhere.
enum PageShell {
    static func document(name: String, previous: URL?, sections: [String]) -> String {
        document(name: name, basis: "Built from the snapshot alone"
                    + (previous.map { " and, for its changes, from " + $0.lastPathComponent } ?? "") + ".",
                 sections: sections)
    }

    /// `basis`: the line under the title that says what the page was made from.
    static func document(name: String, basis: String, sections: [String]) -> String {
        let links = sections.dropFirst().compactMap(link).joined(separator: " ")
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(HTML.escape(name)): Commissary report</title>
            <style>
            \(PageStyle.css)
            </style></head><body><main>
            <header class="top"><h1>\(HTML.escape(name))</h1><p class="basis">\(HTML.escape(basis))</p></header>
            \(sections.first ?? "")
            <nav>\(links)</nav>
            \(sections.dropFirst().joined(separator: "\n"))
            </main></body></html>

            """
    }

    /// A link to a section, from its id and heading (`<section id="…"><h2>…</h2>`), so a new
    /// section is listed without being named twice.
    private static func link(_ section: String) -> String? {
        guard let id = section.range(of: "<section id=\""),
              let idEnd = section.range(of: "\">", range: id.upperBound..<section.endIndex),
              let heading = section.range(of: "<h2>"),
              let headingEnd = section.range(of: "</h2>", range: heading.upperBound..<section.endIndex)
        else { return nil }
        return "<a href=\"#\(section[id.upperBound..<idEnd.lowerBound])\">\(section[heading.upperBound..<headingEnd.lowerBound])</a>"
    }
}
