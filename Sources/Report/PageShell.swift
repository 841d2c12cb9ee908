import Foundation

/// The document around the sections: head, style, the title line and a row of links to the
/// sections, in one file with nothing from elsewhere.
enum PageShell {
    static let contents = [("coverage", "Coverage"), ("checks", "Checks"), ("labels", "Label coverage"),
                           ("changes", "Changes"), ("diets", "Diets"), ("nutrition", "Nutrition"),
                           ("swipes", "Swipes"), ("recipes", "Recipes")]

    static func document(name: String, previous: URL?, sections: [String]) -> String {
        let links = contents.map { "<a href=\"#\($0.0)\">\(HTML.escape($0.1))</a>" }.joined(separator: " ")
        let basis = "Built from the snapshot alone"
            + (previous.map { " and, for its changes, from " + $0.lastPathComponent } ?? "") + "."
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
}
