import Foundation
import Testing
import TestSupport

/// `deploy/`: the systemd service and timer and the crontab line of the nightly refresh.
@Suite struct DeployFilesTests {
    static let deploy = Paths.packageRoot.appendingPathComponent("deploy")

    static func text(_ name: String) throws -> String {
        try String(contentsOf: deploy.appendingPathComponent(name), encoding: .utf8)
    }

    /// The command the crontab line runs, after `cd /srv/commissary &&`.
    static func cronCommand() throws -> String {
        let line = try #require(try text("crontab").split(separator: "\n").first { !$0.hasPrefix("#") && !$0.isEmpty })
        let command = try #require(line.range(of: "&& ")).upperBound
        return String(line[command...])
    }

    /// systemd reads both units without a complaint (`systemd-analyze verify` exits 0 and says
    /// nothing), with the service's paths pointed at this build and a folder of the test's.
    @Test func systemdReadsTheServiceAndTimerWithoutAComplaint() throws {
        let analyze = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        guard FileManager.default.isExecutableFile(atPath: analyze.path) else { return }
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let service = try Self.text("commissary-nightly.service")
            .replacingOccurrences(of: "/usr/local/bin/commissary", with: CommissaryProcess.binary.path)
            .replacingOccurrences(of: "/srv/commissary", with: folder.path)
        try Data(service.utf8).write(to: folder.appendingPathComponent("commissary-nightly.service"))
        try Data(try Self.text("commissary-nightly.timer").utf8).write(to: folder.appendingPathComponent("commissary-nightly.timer"))
        let verified = try ExternalProgram.run(analyze, ["verify"] + ["service", "timer"].map {
            folder.appendingPathComponent("commissary-nightly.\($0)").path
        })
        #expect(verified.status == 0, "\(verified.output)")
        #expect(verified.output.isEmpty, "\(verified.output)")
    }

    /// The service runs what the crontab line runs, the README and docs/pipelines.md show that
    /// line, and its command works on the first night in an empty folder (no `state/` yet), with
    /// the sample in place of the nightly pipeline.
    @Test func theCronCommandWorksTheFirstNightInAnEmptyFolder() async throws {
        let command = try Self.cronCommand()
        #expect(try Self.text("commissary-nightly.service").contains("ExecStart=\(command)\n"))
        // The full path: cron's PATH is /usr/bin:/bin, where a bare `commissary` is not (exit 127).
        let documented = "15 2 * * *  cd /srv/commissary && " + command + "\n"
        for document in ["README.md", "docs/pipelines.md"] {
            let text = try String(contentsOf: Paths.packageRoot.appendingPathComponent(document), encoding: .utf8)
            #expect(text.contains(documented), "\(document) shows another cron line than deploy/crontab")
        }
        let words = command.split(separator: " ").map(String.init)
        #expect(words.prefix(3) == ["/usr/local/bin/commissary", "run", "Pipelines/nightly-ucla.yml"])
        #expect(FileManager.default.fileExists(atPath: Paths.pipelines.appendingPathComponent("nightly-ucla.yml").path))

        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (spec, _) = try SampleCopy.make(in: folder)
        let night = try ExternalProgram.run(CommissaryProcess.binary, ["run", spec.path] + words.dropFirst(3), in: folder)
        #expect(night.status == 0, "\(night.output)")
        #expect(night.output.isEmpty, "--quiet says nothing on a good night")
        for written in ["state/nightly.jsonl", "state/metrics/commissary.prom"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(written).path), "\(written)")
        }
    }

    /// `scripts/sample` runs in the checkout: every folder a run makes in its workspace is one
    /// `.gitignore` names, so a quick start leaves `git status` clean (the parse cache's
    /// `cache/` was left untracked).
    @Test func whatARunMakesInTheCheckoutIsIgnored() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (spec, _) = try SampleCopy.make(in: folder)
        let workspace = folder.appendingPathComponent("workspace")
        let night = try ExternalProgram.run(CommissaryProcess.binary, ["run", spec.path, "--workspace", workspace.path, "--quiet"])
        #expect(night.status == 0, "\(night.output)")
        let made = try FileManager.default.contentsOfDirectory(atPath: workspace.path).sorted()
        #expect(made.contains("cache") && made.contains("snapshots"), "\(made)")
        let ignored = try String(contentsOf: Paths.packageRoot.appendingPathComponent(".gitignore"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        for name in made {
            #expect(ignored.contains("/\(name)/"), "\(name)/ is made by a run and not in .gitignore")
        }
    }

    /// Prometheus's own tool accepts the alert rules, and they fire as their comments say, on
    /// series made up as `promtool test rules` reads them: the site down for two nights (each
    /// night published stale, so the served data's time stays at the last good fetch) pages
    /// after 36 hours; a night that published cleanly pages nothing.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/promtool"), "scripts/test installs prometheus"))
    func theAlertRulesLoadAndFireOnAnOutage() throws {
        let promtool = URL(fileURLWithPath: "/usr/bin/promtool")
        let rules = Self.deploy.appendingPathComponent("commissary-alerts.yml")
        let checked = try ExternalProgram.run(promtool, ["check", "rules", rules.path])
        #expect(checked.status == 0, "\(checked.output)")
        #expect(checked.output.contains("SUCCESS: 5 rules found"), "\(checked.output)")

        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A sample a minute (Prometheus forgets a series after 5 minutes without one). "down":
        // the last good fetch at 0, every night since republished stale, so the served time
        // stays 0; at 40 h the data is 40 h old. "fine" is current all along.
        let tests = """
            rule_files: [\(rules.path)]
            evaluation_interval: 1m
            tests:
              - interval: 1m
                input_series:
                  - series: 'commissary_served_data_timestamp_seconds{pipeline="down"}'
                    values: '0x2880'
                  - series: 'commissary_served_data_timestamp_seconds{pipeline="fine"}'
                    values: '0+60x2880'
                  - series: 'commissary_run_finished_timestamp_seconds{pipeline="down"}'
                    values: '0+60x2880'
                  - series: 'commissary_run_finished_timestamp_seconds{pipeline="fine"}'
                    values: '0+60x2880'
                  - series: 'commissary_served_stale_partitions{pipeline="down"}'
                    values: '0 6x2879'
                  - series: 'commissary_labelled_ratio{pipeline="fine",source="ucla"}'
                    values: '0.7x2880'
                alert_rule_test:
                  - eval_time: 30h
                    alertname: CommissaryServedDataOld
                    exp_alerts: []
                  - eval_time: 40h
                    alertname: CommissaryServedDataOld
                    exp_alerts:
                      - exp_labels: {severity: page, pipeline: down}
                        exp_annotations:
                          summary: "down: what latest serves was last known current 1d 16h 0m 0s ago"
                          description: "Read the last run's line in the cron mail or the journal, and its manifest under state/runs/."
                  - eval_time: 40h
                    alertname: CommissaryStalePartitionsServed
                    exp_alerts:
                      - exp_labels: {severity: ticket, pipeline: down}
                        exp_annotations:
                          summary: "down: latest carries 6 partition(s) from their last good version"
                  - eval_time: 40h
                    alertname: CommissaryLabelsMissing
                    exp_alerts: []
                  - eval_time: 40h
                    alertname: CommissaryNoRun
                    exp_alerts: []
            """
        let file = folder.appendingPathComponent("commissary-alerts.test.yml")
        try Data(tests.utf8).write(to: file)
        let tested = try ExternalProgram.run(promtool, ["test", "rules", file.path])
        #expect(tested.status == 0, "\(tested.output)")
    }
}
