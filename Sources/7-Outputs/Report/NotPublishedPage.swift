import Foundation
import Snapshot

/// The page of a night that published nothing (a blocking check, a site that could not be
/// reached): what stopped it, and what is still served, with a link to that snapshot's page.
/// Written under the snapshots' folder and made the pipeline's newest page, so that the page
/// people keep open no longer says "Good" for a night after which nothing was published.
public enum NotPublishedPage {
    /// `reasons`: what stopped the night, one line each; `served`: the snapshot `latest` still
    /// points at, if any.
    public static func html(pipeline: String, runId: String, finishedAt: String, reasons: [String], served: URL?) -> String {
        let name = "\(pipeline) (run \(runId))"
        let verdict = "<p class=\"verdict bad\"><strong>Not published.</strong> "
            + HTML.escape("The run of \(finishedAt) published nothing; the snapshot published before it is still served.")
            + "</p>"
        let why = reasons.isEmpty ? "" : "<ul>" + reasons.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>"
        let headline = "<section id=\"headline\">\(verdict)\(why)</section>"
        return PageShell.document(name: name, basis: "Built from the run's manifest and the snapshot still served.",
                                  sections: [headline, servedSection(served)])
    }

    /// What `latest` serves: its name, linked to its own page, and the partitions it carries
    /// from their last good version.
    private static func servedSection(_ served: URL?) -> String {
        guard let served else {
            return HTML.section("served", "Still served", HTML.none("Nothing: the pipeline has never published."))
        }
        let page = served.lastPathComponent + SnapshotStore.reportSuffix
        var body = "<p><a href=\"\(HTML.escape(page))\">\(HTML.escape(served.lastPathComponent))</a>"
        if let built = (try? SnapshotReader.meta(of: served))?["built_at"] { body += ", built \(HTML.escape(built))" }
        body += ".</p>"
        let stale = (try? SnapshotReader.stalePartitions(of: served)) ?? []
        body += stale.isEmpty ? "<p>It carries no partition from an earlier fetch.</p>"
            : HTML.table(["source", "partition", "kept from", "why"], stale.map {
                [$0.source, $0.partition, $0.keptFetchedAt, $0.reason]
            })
        return HTML.section("served", "Still served", body)
    }
}
