import Basics
import FoodModel
import Pipeline

extension Failure {
    /// What a finished run says last when it did not simply publish: the site could not be
    /// reached, a blocking check, or stale days; nil for a clean run. Each names at most five
    /// partitions; the manifest lists them all.
    public static func ending(of report: RunReport) -> Failure? {
        let blocked = !report.published && !report.unchanged
        guard blocked || !report.stale.isEmpty else { return nil }
        if report.unreachable { return unreachable(report) }
        if blocked { return notPublished(report.blockingChecks.map(\.message), manifest: report.manifestPath) }
        return publishedStale(report)
    }

    /// Every partition that failed or is stale could not reach its site: the network's trouble
    /// (exit 4), whatever the checks said of the data that is missing because of it.
    static func unreachable(_ report: RunReport) -> Failure {
        let troubled = report.failedPartitions + report.stalePartitions
        let list = abridged(troubled.map(\.brief), rest: { "and \($0) more: see the manifest \(report.manifestPath)" })
        let outcome = report.published
            ? "published with \(report.stalePartitions.count) stale \(noun(report.stalePartitions)), each its last good version"
            : "not published; the previous snapshot stays latest"
        return Failure(.unreachable, "the site could not be reached for \(troubled.count) partition(s): \(list); "
                       + outcome + manifestNote(list, report.manifestPath))
    }

    /// Published (or still current) with partitions carried from their last good version: a
    /// warning, since the snapshot is served. The days, and labels kept from the latest snapshot.
    static func publishedStale(_ report: RunReport) -> Failure {
        let days = report.stalePartitions.map(\.brief)
        let labels = report.manifest.checks.filter { $0.name == "stale_labels" }.map(\.message)
        let named = days.isEmpty ? report.stale : days + labels
        let what = report.unchanged ? "still current" : "published"
        let count = days.isEmpty ? "\(named.count) stale day(s)" : "\(days.count) stale \(noun(report.stalePartitions))"
        return Failure(.publishedStale, "\(what) with \(count): "
                       + abridged(named) + "; each its last good version, listed in _stale of "
                       + (report.snapshotPath ?? "the snapshot"))
    }

    /// A blocking check stopped the publication; the last good snapshot stays `latest`.
    static func notPublished(_ reasons: [String], manifest: String) -> Failure {
        let said = reasons.joined(separator: "; ")
        return Failure(.blocked, "not published: " + said + manifestNote(said, manifest))
    }

    /// "day(s)" when every partition is a service day, "partition(s)" when one is not (`hours`).
    private static func noun(_ partitions: [RunManifest.Partition]) -> String {
        partitions.allSatisfy { ServiceDate($0.key) != nil } ? "day(s)" : "partition(s)"
    }

    /// ` (manifest: path)`, unless the line names the manifest already.
    private static func manifestNote(_ line: String, _ manifest: String) -> String {
        line.contains(manifest) ? "" : " (manifest: \(manifest))"
    }
}
