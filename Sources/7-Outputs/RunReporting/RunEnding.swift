import Basics
import FoodModel
import Pipeline

extension Failure {
    /// What a finished run says last when it did not simply publish: the site could not be
    /// reached, a blocking check, or stale days; nil for a clean run. Each names at most five
    /// partitions; the manifest lists them all.
    public static func ending(of report: RunReport) -> Failure? {
        if report.manifest.status == .harvested { return harvestedAndTroubled(report) }
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
        let list = abridged(byReason(troubled), rest: { "and \($0) more: see the manifest \(report.manifestPath)" })
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

    /// A subset run (`--partition`) ends well when each of its partitions was harvested; one that
    /// could not reach its site is retried (exit 4), one whose data was refused is the input's
    /// fault (exit 1). A partition published from its last good version counts as not harvested.
    static func harvestedAndTroubled(_ report: RunReport) -> Failure? {
        let troubled = report.failedPartitions + report.stalePartitions
        guard !troubled.isEmpty else { return nil }
        if report.unreachable { return unreachable(report) }
        let list = abridged(byReason(troubled), rest: { "and \($0) more: see the manifest \(report.manifestPath)" })
        return Failure(.refusedPartition, "\(troubled.count) partition(s) could not be harvested: \(list)"
                       + manifestNote(list, report.manifestPath))
    }

    /// A blocking check stopped the publication; the last good snapshot stays `latest`.
    static func notPublished(_ reasons: [String], manifest: String) -> Failure {
        let said = reasons.joined(separator: "; ")
        return Failure(.blocked, "not published: " + said + manifestNote(said, manifest))
    }

    /// The partitions, those that failed for the same reason at one source said once: an outage
    /// stops every day with the same error, which was repeated day after day (six days made a
    /// mail of 1,182 characters). A group names its first address; the manifest has every one.
    /// libcurl says how long each attempt took ("Failed to connect … after 2 ms: …"), which
    /// differs from day to day for the same refusal: reasons are told apart without it, and a
    /// group says its reason without it; a partition alone keeps its own.
    static func byReason(_ partitions: [RunManifest.Partition]) -> [String] {
        var groups: [(source: String, reason: String, first: String, address: String?, keys: [String])] = []
        for partition in partitions {
            let (address, said) = addressAndReason(partition.message ?? partition.status.rawValue)
            let reason = said.replacing(#/ after \d+ (ms|milliseconds)/#, with: "")
            if let index = groups.firstIndex(where: { $0.source == partition.source && $0.reason == reason }) {
                groups[index].keys.append(partition.key)
            } else {
                groups.append((partition.source, reason, said, address, [partition.key]))
            }
        }
        return groups.map { group in
            guard group.keys.count > 1 else {
                return "\(group.keys[0]) (\(group.source): \(group.address.map { "\($0): " } ?? "")\(group.first))"
            }
            return abridged(group.keys) + " (\(group.source), each: \(group.reason)"
                + (group.address.map { "; the first at \($0)" } ?? "") + ")"
        }
    }

    /// A partition's message as the address it names first and what happened there
    /// ("http://…/menus/2025-04-11.json: Failed to connect …"); no address when it names none.
    private static func addressAndReason(_ message: String) -> (address: String?, reason: String) {
        guard message.hasPrefix("http://") || message.hasPrefix("https://") || message.hasPrefix("/"),
              let colon = message.range(of: ": ") else { return (nil, message) }
        return (String(message[..<colon.lowerBound]), String(message[colon.upperBound...]))
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
