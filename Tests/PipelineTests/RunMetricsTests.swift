import Basics
import Foundation
import Snapshot
import Testing
import TestSupport

/// `run --metrics FILE`: the run's figures in Prometheus's text format, for monitoring that scrapes
/// a file. Each night's file is read back with Prometheus's own Python parser where the test
/// tools are installed (`scripts/test` installs `prometheus_client` beside sqlite-utils), else
/// line by line, and its figures are compared with the run's manifest, read as JSON.
@Suite struct RunMetricsTests {
    /// One sample: its name, its labels and its value.
    struct Sample: Hashable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    @Test func eachNightsFiguresMatchItsManifestAndAFailedNightKeepsTheLastSuccess() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, site) = try SampleCopy.make(in: workspace)
        let metrics = workspace.appendingPathComponent("metrics/commissary.prom").path
        // The cron line's first night: neither the events' folder nor the metrics' exists yet.
        let events = workspace.appendingPathComponent("state/nightly.jsonl").path
        let arguments = ["run", spec.path, "--workspace", workspace.path, "--quiet", "--events", events,
                         "--metrics", metrics]

        let good = try await CommissaryProcess.run(arguments)
        #expect(good.status == 0, "\(good.error)")
        #expect(FileManager.default.fileExists(atPath: events))
        let first = try Self.samples(in: metrics)
        let manifest = try Self.latestManifest(in: workspace)
        try Self.expectFigures(first, match: manifest, outcome: "published")
        let firstSuccess = try #require(Self.value(first, "commissary_last_success_timestamp_seconds"))
        #expect(firstSuccess == Self.value(first, "commissary_run_finished_timestamp_seconds"))
        #expect(firstSuccess == Self.value(first, "commissary_last_publish_timestamp_seconds"))
        #expect(firstSuccess == Self.value(first, "commissary_served_data_timestamp_seconds"))
        #expect(Self.value(first, "commissary_served_stale_partitions") == 0)
        // All three sample days are read from their pages, every item carries a label.
        #expect(Self.value(first, "commissary_partitions", ["status": "fetched"]) == 5)
        #expect(Self.value(first, "commissary_labelled_ratio", ["source": "ucla-menu"]) == 1)
        // Prometheus's linter finds nothing to say of the names, units and help texts.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/promtool") {
            let lint = try ExternalProgram.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "/usr/bin/promtool check metrics < '\(metrics)'"])
            #expect(lint.status == 0 && lint.output.isEmpty, "\(lint.output)")
        }

        // A day's page gone: the day is published from its last good version (exit 6).
        try FileManager.default.removeItem(at: site.appendingPathComponent("Menus/2026-10-11.html"))
        let stale = try await CommissaryProcess.run(arguments)
        #expect(stale.status == 6, "\(stale.error)")
        let second = try Self.samples(in: metrics)
        try Self.expectFigures(second, match: try Self.latestManifest(in: workspace), outcome: "published_stale")
        // Published, but with a day carried stale: no success (the data is not all fresh), a
        // publication, and the served data as old as the kept day's fetch on the first night.
        #expect(Self.value(second, "commissary_served_stale_partitions") == 1)
        #expect(Self.value(second, "commissary_last_success_timestamp_seconds") == firstSuccess)
        let secondPublish = try #require(Self.value(second, "commissary_last_publish_timestamp_seconds"))
        #expect(secondPublish == Self.value(second, "commissary_run_finished_timestamp_seconds") && secondPublish > firstSuccess)
        let latest = workspace.appendingPathComponent("snapshots/latest-sample")
        let kept = try QueryResult.run("SELECT kept_fetched_at FROM _stale", on: latest).rows
        guard case .text(let keptAt)? = kept.first?.first else { Issue.record("no _stale row: \(kept)"); return }
        let keptTime = try #require(ISOTimestamp.date(fromString: keptAt)).timeIntervalSince1970
        #expect(Self.value(second, "commissary_served_data_timestamp_seconds") == keptTime)
        #expect(keptTime < firstSuccess)

        // A check blocks the night: nothing published, the last success is the night before's.
        let text = try String(contentsOf: spec, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "min_menu_items: 100\n", with: "min_menu_items: 100000\n").utf8)
            .write(to: spec)
        let blocked = try await CommissaryProcess.run(arguments)
        #expect(blocked.status == 3, "\(blocked.error)")
        let third = try Self.samples(in: metrics)
        try Self.expectFigures(third, match: try Self.latestManifest(in: workspace), outcome: "not_published")
        // Nothing published: what is served is still the second night's snapshot, stale day and all.
        #expect(Self.value(third, "commissary_last_success_timestamp_seconds") == firstSuccess)
        #expect(Self.value(third, "commissary_last_publish_timestamp_seconds") == secondPublish)
        #expect(Self.value(third, "commissary_served_stale_partitions") == 1)
        #expect(Self.value(third, "commissary_served_data_timestamp_seconds") == keptTime)
        #expect(try #require(Self.value(third, "commissary_run_finished_timestamp_seconds")) > secondPublish)
        #expect(Self.value(third, "commissary_checks_failed", ["severity": "error"]) ?? 0 >= 1)

        // The pipeline file refused (an unknown key): a failed night all the same, with the first
        // three metrics, named by the file, and the last success still the night before's.
        try Data((text + "\nnot_a_key: 1\n").utf8).write(to: spec)
        let refused = try await CommissaryProcess.run(arguments)
        #expect(refused.status == 1, "\(refused.error)")
        let fourth = try Self.samples(in: metrics)
        #expect(Self.value(fourth, "commissary_run_outcome", ["outcome": "failed", "pipeline": "sample"]) == 1)
        #expect(Self.value(fourth, "commissary_last_success_timestamp_seconds") == firstSuccess)
        #expect(Self.value(fourth, "commissary_last_publish_timestamp_seconds") == secondPublish)
        #expect(Self.value(fourth, "commissary_served_stale_partitions") == 1)
        let refusedAt = try #require(Self.value(fourth, "commissary_run_finished_timestamp_seconds"))
        #expect(refusedAt >= Self.value(third, "commissary_run_finished_timestamp_seconds") ?? .infinity)
        // Written aside and renamed: nothing but the file is left in its folder.
        let folder = URL(fileURLWithPath: metrics).deletingLastPathComponent().path
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["commissary.prom"])
    }

    /// The figures every night's file holds, against its manifest: the outcome, a stage's seconds,
    /// partitions by status, rows by table, documents, peak memory.
    static func expectFigures(_ samples: [Sample], match manifest: [String: Any], outcome: String) throws {
        for sample in samples { #expect(sample.labels["pipeline"] == "sample", "\(sample)") }
        let outcomes = samples.filter { $0.name == "commissary_run_outcome" }
        #expect(outcomes.count == 7)
        #expect(outcomes.filter { $0.value == 1 }.map { $0.labels["outcome"] } == [outcome])

        let stages = try #require(manifest["stages"] as? [[String: Any]])
        #expect(samples.filter { $0.name == "commissary_stage_seconds" }.count == stages.count)
        for stage in stages {
            let name = try #require(stage["name"] as? String)
            // Foundation's JSONSerialization reads some 17-digit reals a unit in the last place
            // off, so the two readings agree to within a few of those units, not bit for bit.
            let written = try #require(value(samples, "commissary_stage_seconds", ["stage": name]))
            let recorded = try #require(stage["seconds"] as? Double)
            #expect(abs(written - recorded) <= 4 * recorded.ulp, "\(name): \(written) against \(recorded)")
        }
        let partitions = try #require(manifest["partitions"] as? [[String: Any]])
        for status in ["fetched", "reused", "unchanged", "changed", "stale", "failed"] {
            let counted = partitions.filter { $0["status"] as? String == status }.count
            #expect(value(samples, "commissary_partitions", ["status": status]) == Double(counted), "\(status)")
        }
        let rows = try #require(manifest["row_counts"] as? [String: Int])
        #expect(samples.filter { $0.name == "commissary_rows" }.count == rows.count)
        for (table, count) in rows {
            #expect(value(samples, "commissary_rows", ["table": table]) == Double(count), "\(table)")
        }
        let inputs = try #require(manifest["inputs"] as? [Any])
        #expect(value(samples, "commissary_documents") == Double(inputs.count))
        let megabytes = try #require(manifest["peak_memory_mb"] as? Int)
        #expect(value(samples, "commissary_peak_memory_bytes") == Double(megabytes) * 1_048_576)
    }

    static func value(_ samples: [Sample], _ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { sample in
            sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value }
        }?.value
    }

    /// The newest run's manifest (beside its snapshot, or under `state/runs/` when nothing was
    /// published), as JSON.
    static func latestManifest(in workspace: URL) throws -> [String: Any] {
        let keys: [URLResourceKey] = [.contentModificationDateKey]
        let files = (FileManager.default.enumerator(at: workspace, includingPropertiesForKeys: keys)?
            .compactMap { $0 as? URL } ?? [])
            .filter { $0.lastPathComponent.hasSuffix(".manifest.json") }
        func modified(_ file: URL) -> Date {
            (try? file.resourceValues(forKeys: Set(keys)).contentModificationDate) ?? .distantPast
        }
        let newest = try #require(files.max { modified($0) < modified($1) })
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: newest)) as? [String: Any])
    }

    /// The file's samples, by Prometheus's parser when it is installed.
    static func samples(in path: String) throws -> [Sample] {
        if let parsed = try prometheusParser(path) { return parsed }
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }
            .map { line in
                let open = try #require(line.firstIndex(of: "{"))
                let close = try #require(line.lastIndex(of: "}"))
                var labels: [String: String] = [:]
                for pair in line[line.index(after: open)..<close].split(separator: ",") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    labels[String(parts[0])] = String(parts[1].dropFirst().dropLast())
                }
                return Sample(name: String(line[..<open]), labels: labels,
                              value: try #require(Double(line[line.index(close, offsetBy: 2)...])))
            }
    }

    /// `prometheus_client.parser` over the file, its samples as JSON; nil when the test tools'
    /// Python does not have it.
    static func prometheusParser(_ path: String) throws -> [Sample]? {
        let python = Paths.packageRoot.appendingPathComponent(".build/tools/bin/python3")
        guard FileManager.default.isExecutableFile(atPath: python.path) else { return nil }
        let script = """
            import json, sys
            try:
                from prometheus_client.parser import text_string_to_metric_families
            except ImportError:
                sys.exit(3)
            families = text_string_to_metric_families(open(sys.argv[1]).read())
            print(json.dumps([[s.name, s.labels, s.value] for f in families for s in f.samples]))
            """
        let parsed = try ExternalProgram.run(python, ["-c", script, path])
        if parsed.status == 3 { return nil }
        #expect(parsed.status == 0, "Prometheus's parser refused \(path): \(parsed.output)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(parsed.output.utf8)) as? [[Any]])
        return try rows.map { row in
            Sample(name: try #require(row[0] as? String), labels: try #require(row[1] as? [String: String]),
                   value: try #require((row[2] as? NSNumber)?.doubleValue))
        }
    }
}
