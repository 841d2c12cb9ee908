import Feeds
import Foundation
import Snapshot

/// Links to the snapshot's open feeds (docs/feeds.md), where its folder is beside the snapshot
/// (`publish: feeds: true`); nil otherwise, so a page without feeds is the page it always was.
/// The links are relative: they hold for the page written beside the snapshot.
enum FeedsSection {
    static func html(for snapshot: URL) -> String? {
        let folderName = snapshot.lastPathComponent + SnapshotStore.feedsSuffix
        guard let index = FeedIndex.read(in: snapshot.deletingLastPathComponent().appendingPathComponent(folderName)) else {
            return nil
        }
        let base = folderName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? folderName
        func link(_ path: String, _ text: String) -> String {
            "<a href=\"\(HTML.escape(base + "/" + path))\">\(HTML.escape(text))</a>"
        }
        let rows = index.restaurants.map { entry in
            let name = entry.name + (entry.campus.map { " (\($0))" } ?? "")
            let days = entry.dates.map { link("\(entry.slug)/\($0).json", $0) }.joined(separator: " ")
            return "<tr><td>\(HTML.escape(name))</td><td>\(link(entry.openmensa, "OpenMensa XML"))</td>"
                + "<td>\(link(entry.icalendar, "iCalendar"))</td><td>\(days)</td></tr>"
        }.joined(separator: "\n")
        let content = "<p>Per restaurant: an OpenMensa feed, a calendar to subscribe to, and a JSON file per day; "
            + "what there is: \(link("index.json", "index.json")).</p>\n"
            + "<table><thead><tr><th>restaurant</th><th>menus</th><th>meal times</th><th>days (JSON)</th></tr></thead>"
            + "<tbody>\n\(rows)\n</tbody></table>"
        return HTML.section("feeds", "Open feeds", content)
    }
}
