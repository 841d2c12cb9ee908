import Basics
import FoodModel
import Foundation
import Pipeline
import Snapshot

/// A run's figures in Prometheus's text exposition format (`--metrics FILE`), for monitoring that
/// scrapes a file, as node_exporter's textfile collector does: written beside the file, then
/// renamed over it, so a scrape never reads half of it. The run's figures come from its
/// manifest; what is served (the stale partitions of the snapshot `latest` points at, how old
/// its data is) from that snapshot, whatever the night did. A run that ended without a manifest
/// (stopped, or failed before it could check) still says when it ended and how, and keeps the
/// times of the last success and the last publication from the file it replaces.
public struct RunMetrics {
    /// How the run ended, one label value per way; the one that happened is 1, the others 0.
    public enum Outcome: String, CaseIterable, Sendable {
        case published, unchanged
        case publishedStale = "published_stale"
        case notPublished = "not_published"
        case failed, interrupted
        /// A subset run (`--partition`) that harvested its partitions of a night still incomplete.
        case harvested
    }

    var pipeline: String
    var outcome: Outcome
    var finished: Date
    /// When the last clean run finished: one that published, or found its snapshot current, with
    /// no partition carried stale. A night the site is down publishes every day stale: no success.
    var lastSuccess: Date?
    /// When the last run that published (stale partitions or not), or found latest current, finished.
    var lastPublish: Date?
    var manifest: RunManifest?
    /// The stale partitions of the snapshot `latest` points at after the run; nil when none is
    /// published yet.
    var servedStale: [StalePartition]?

    init(pipeline: String, outcome: Outcome, finished: Date, manifest: RunManifest?, servedStale: [StalePartition]?,
         previous: String?) {
        self.pipeline = pipeline
        self.outcome = outcome
        self.finished = finished
        self.manifest = manifest
        self.servedStale = servedStale
        let published = [.published, .unchanged, .publishedStale].contains(outcome)
        let clean = published && outcome != .publishedStale && (servedStale ?? []).isEmpty
        lastSuccess = clean ? finished : previous.flatMap { Self.timestamp(Self.lastSuccessName, in: $0, pipeline: pipeline) }
        lastPublish = published ? finished : previous.flatMap { Self.timestamp(Self.lastPublishName, in: $0, pipeline: pipeline) }
    }

    static let lastSuccessName = "commissary_last_success_timestamp_seconds"
    static let lastPublishName = "commissary_last_publish_timestamp_seconds"

    /// The oldest moment what `latest` serves was known to be current: the last publication, or
    /// the fetch of the oldest partition it carries stale. `time() -` this is the served data's age.
    var servedDataTime: Date? {
        guard let lastPublish else { return nil }
        let kept = (servedStale ?? []).compactMap {
            ISOTimestamp.date(fromString: $0.keptFetchedAt) ?? ISOTimestamp.date(fromMillisecondString: $0.keptFetchedAt)
        }
        return ([lastPublish] + kept).min()
    }

    /// The outcome of a run that returned its report.
    public static func outcome(of report: RunReport) -> Outcome {
        if report.unchanged { return .unchanged }
        if report.manifest.status == .harvested { return .harvested }
        guard report.published else { return report.manifest.status == .interrupted ? .interrupted : .notPublished }
        return report.stale.isEmpty ? .published : .publishedStale
    }

    func text() -> String {
        var out = MetricsText(pipeline: pipeline)
        out.gauge("commissary_run_finished_timestamp_seconds", "When the last run finished (Unix time).",
                  [([:], finished.timeIntervalSince1970)])
        if let lastSuccess {
            out.gauge(Self.lastSuccessName,
                      "When the last run that published, or found its snapshot current, with no partition stale, finished (Unix time).",
                      [([:], lastSuccess.timeIntervalSince1970)])
        }
        if let lastPublish {
            out.gauge(Self.lastPublishName,
                      "When the last run that published (stale partitions or not), or found latest current, finished (Unix time).",
                      [([:], lastPublish.timeIntervalSince1970)])
        }
        out.gauge("commissary_run_outcome", "How the last run ended: 1 for its outcome, 0 for the others.",
                  Outcome.allCases.map { (["outcome": $0.rawValue], $0 == outcome ? 1 : 0) })
        if let servedStale {
            out.gauge("commissary_served_stale_partitions",
                      "Partitions the snapshot latest serves carries from their last good version, whatever the last run did.",
                      [([:], Double(servedStale.count))])
        }
        if let servedDataTime {
            out.gauge("commissary_served_data_timestamp_seconds",
                      "The oldest moment what latest serves was known current: the last publication, or the fetch of its "
                        + "oldest stale partition (Unix time); time() minus it is the served data's age.",
                      [([:], servedDataTime.timeIntervalSince1970)])
        }
        if let manifest { append(manifest, to: &out) }
        return out.text
    }

    private func append(_ manifest: RunManifest, to out: inout MetricsText) {
        out.gauge("commissary_stage_seconds", "Seconds each stage of the last run took.",
                  manifest.stages.map { (["stage": $0.name.rawValue], $0.seconds) })
        let statuses = [PartitionStatus.fetched, .reused, .unchanged, .changed, .stale, .failed]
        out.gauge("commissary_partitions", "Partitions of the last run by what became of them.",
                  statuses.map { status in
                      (["status": status.rawValue], Double(manifest.partitions.filter { $0.status == status }.count))
                  })
        out.gauge("commissary_documents", "Documents the last run read.", [([:], Double(manifest.inputs.count))])
        out.gauge("commissary_rows", "Rows of each table of the snapshot the last run built.",
                  manifest.rowCounts.sorted { $0.key < $1.key }.map { (["table": $0.key], Double($0.value)) })
        out.gauge("commissary_labelled_ratio", "Share (0 to 1) of each source's menu items whose food carries a label.",
                  manifest.checks.compactMap { check in
                      guard check.name == "labelled_share", let source = check.source, let value = check.value
                      else { return nil }
                      return (["source": source], value)
                  })
        let failing = Dictionary(grouping: manifest.checks.filter { !$0.passed }, by: \.severity.rawValue)
        out.gauge("commissary_checks_failed", "Checks of the last run that did not pass, by severity.",
                  ["error", "warning", "stale", "info"].map { (["severity": $0], Double(failing[$0]?.count ?? 0)) })
        if let megabytes = manifest.peakMemoryMB {
            out.gauge("commissary_peak_memory_bytes", "The run's peak resident memory (VmHWM), as its manifest gives it.",
                      [([:], Double(megabytes) * 1_048_576)])
        }
    }

    /// Replaces the metrics file at `path` with this run's figures, keeping the last success and
    /// publication of the file it replaces when this run had none. `served`: the snapshot
    /// `latest` points at after the run, if any; one that cannot be read leaves its figures out.
    public static func record(_ outcome: Outcome, of pipeline: String, manifest: RunManifest?, served: URL?,
                              at path: String) throws {
        // A named pipe there is no previous file, rather than a wait for a writer at the run's end.
        let previous = (try? RegularFile.contents(of: path, what: "metrics file"))
            .map { String(decoding: $0, as: UTF8.self) }
        let servedStale = served.flatMap { try? SnapshotReader.stalePartitions(of: $0) }
        try RunMetrics(pipeline: pipeline, outcome: outcome, finished: Date(), manifest: manifest,
                       servedStale: servedStale, previous: previous).write(to: path)
    }

    /// Writes the text beside `path`, then renames it over `path`; the folder is made if need be.
    func write(to path: String) throws {
        let target = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
        } catch {
            throw Failure.fileSystem("cannot create the metrics file's folder", path: target.deletingLastPathComponent().path,
                                     cause: error)
        }
        let aside = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier)").path
        do {
            try Durability.writeNewFile(Data(text().utf8), to: aside)
            try Durability.rename(from: aside, to: target.path)
        } catch {
            try? FileManager.default.removeItem(atPath: aside)
            throw error
        }
    }

    /// The time the gauge `name` of a metrics file written for `pipeline` holds, if any.
    static func timestamp(_ name: String, in text: String, pipeline: String) -> Date? {
        let prefix = "\(name){pipeline=\"\(MetricsText.escape(pipeline))\"} "
        return text.split(separator: "\n").lazy
            .first { $0.hasPrefix(prefix) }
            .flatMap { Double($0.dropFirst(prefix.count)) }
            .flatMap { $0.isFinite ? Date(timeIntervalSince1970: $0) : nil }
    }
}

/// Prometheus's text exposition format: `# HELP`, `# TYPE`, then one sample a line, each with
/// the pipeline's label first.
private struct MetricsText {
    let pipeline: String
    private(set) var text = ""

    init(pipeline: String) {
        self.pipeline = pipeline
    }

    mutating func gauge(_ name: String, _ help: String, _ samples: [([String: String], Double)]) {
        guard !samples.isEmpty else { return }
        text += "# HELP \(name) \(help)\n# TYPE \(name) gauge\n"
        for (labels, value) in samples {
            let pairs = [("pipeline", pipeline)] + labels.sorted { $0.key < $1.key }
            text += name + "{" + pairs.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",") + "} "
                + Self.number(value) + "\n"
        }
    }

    /// A label value: backslash, double quote and line feed escaped, as the format asks.
    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    private static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
