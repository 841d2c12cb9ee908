import ArgumentParser
import Basics
import FoodModel
import Foundation
import Logging
import Pipeline
import RunReporting
import Snapshot
import SourceAdapters

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a pipeline: fetch, parse, compute, write, check, publish.",
        discussion: "A run whose inputs are byte-for-byte those of the latest snapshot (same code, same "
            + "pipeline) publishes nothing and says so; --force publishes anyway. "
            + ExitStatus.summary)

    @Argument(help: "The pipeline file (Pipelines/<name>.yml).")
    var pipeline: String

    @Option(help: "Run for this service day only (YYYY-MM-DD); also taken as today.")
    var date: ServiceDate?

    @Option(help: "Take this day (YYYY-MM-DD) as today: days_ahead and history's last_days count from it, and the snapshot is named and dated with it; the run's stamps of real time (run id, started_at, fetched_at) stay real. --date selects a service day; this sets the day the run belongs to.")
    var asOf: ServiceDate?

    @Option(help: "First service day of a range (with --to).")
    var from: ServiceDate?

    @Option(help: "Last service day of a range (with --from).")
    var to: ServiceDate?

    @Flag(help: "Print what a run would do, decided as a run decides it (the documents that can change are fetched to compare, and stored nowhere); write nothing.")
    var dryRun = false

    /// `--full-refresh` is the backfill operator's name for the same thing: nothing is replayed
    /// from the ledger, every partition is fetched again (conditional GETs still apply).
    @Flag(name: [.customLong("force"), .customLong("full-refresh")],
          help: "Fetch and parse every partition again, even those already done, write every day rather than keep the latest snapshot's, and publish even if nothing changed (--full-refresh is the same flag).")
    var force = false

    @Flag(help: "Fetch only partitions not already done; replay the others from raw/.")
    var onlyMissing = false

    @Option(name: .customLong("partition"),
            help: "Run this partition alone (SOURCE/PARTITION, as run --dry-run --log-format json lists each step's key; repeat for several): the others are replayed as last published, and while one was never harvested, or failed when last harvested, the run keeps its own for the run that completes the night and publishes nothing.")
    var partitions: [String] = []

    @Option(help: "Folder for snapshots/, raw/, state/ and staging/.")
    var workspace = "."

    @Option(help: "Events on standard error: text (progress for a person), json (one JSON line per event), or auto (text when standard error is a terminal, json otherwise). Standard output keeps the run's summary.")
    var logFormat: LogFormat = .auto

    @Flag(name: .shortAndLong, help: "Log details of fetching to standard error.")
    var verbose = false

    @Flag(name: .shortAndLong, help: "For cron: print nothing when the run succeeds, and only the one line of what went wrong when it does not.")
    var quiet = false

    @Option(help: "Also append every event, one JSON line each, to this file (with --quiet: a full log and a silent cron job); its folder is made if need be.")
    var events: String?

    @Option(help: "Write the run's figures to this file in Prometheus's text format (for node_exporter's textfile collector), replacing the last run's; a failed run keeps the last success time.")
    var metrics: String?

    enum LogFormat: String, ExpressibleByArgument, CaseIterable {
        case auto, text, json
    }

    func validate() throws {
        if force && onlyMissing { throw ValidationError("--force (--full-refresh) and --only-missing contradict each other") }
        if quiet && verbose { throw ValidationError("--quiet and --verbose contradict each other") }
        if date != nil && (from != nil || to != nil) { throw ValidationError("give --date or --from/--to, not both") }
        if (from == nil) != (to == nil) { throw ValidationError("--from and --to go together") }
        if let from, let to, to < from { throw ValidationError("--to \(to) is before --from \(from)") }
        if let from, let to, to.daysSinceEpoch - from.daysSinceEpoch >= DateSelection.maxDays {
            throw ValidationError("a run covers at most \(DateSelection.maxDays) days; split \(from)…\(to) into several runs")
        }
    }

    func run() async throws {
        // Before any connection is opened: SQLite takes this setting only then.
        SQLiteProcess.disableMemoryStatistics()
        ProcessMemory.applyRunSettings()
        let spec = try readPipeline()
        let json = logFormat == .json || (logFormat == .auto && isatty(STDERR_FILENO) != 1)
        var logger = Logger(label: "commissary") { OneLineLogHandler(label: $0) }
        logger.logLevel = verbose ? .debug : .warning
        let eventsFile = try events.map(Self.appending)
        let runner = PipelineRunner(spec: spec, options: try runOptions(), observer: observer(json: json, eventsFile: eventsFile),
                                    logger: logger)
        if dryRun {
            let plan = try await runner.plan()
            answer(json ? UserJSON.line(plan) : RunWording.plan(plan))
            return
        }
        let running = Task { try await runner.run() }
        // Held until the command has recorded and said everything, not only until the run's end:
        // a signal after that end asks a finished run to stop, and the metrics and the summary
        // are still written, where the default action would end the process before them.
        let stop = SignalStop { running.cancel() }
        defer { stop.restore() }
        let report = try await outcome(of: running, stoppedBy: stop, pipeline: spec.name)
        // The metrics are written before the run's outcome is thrown; a file that cannot be
        // written fails the run only when nothing else did.
        let metricsFailure = Result { try record(RunMetrics.outcome(of: report), of: spec.name, manifest: report.manifest) }
        if !quiet { answer(Redaction.apply(RunWording.summary(report))) }
        if let ending = Failure.ending(of: report) { throw ending }
        // The events file is the record asked for: one that lost events is a failed run.
        if let failure = eventsFile?.failure { throw failure }
        try metricsFailure.get()
    }

    private func readPipeline() throws -> PipelineSpec {
        do {
            return try SpecReader.read(URL(fileURLWithPath: pipeline))
        } catch {
            // A refused pipeline file is a failed night too, for whoever alerts on the metrics;
            // its pipeline is named by the file, since the file could not say.
            try? record(.failed, of: URL(fileURLWithPath: pipeline).deletingPathExtension().lastPathComponent, manifest: nil)
            throw error
        }
    }

    private func runOptions() throws -> RunOptions {
        var selection: DateSelection?
        var today = ServiceDate.today()
        if let date {
            selection = .range(from: date, to: date)
            today = date
        } else if let from, let to {
            selection = .range(from: from, to: to)
        }
        var options = RunOptions(
            workspace: Workspace(root: URL(fileURLWithPath: workspace)), dates: selection, today: asOf ?? today,
            force: force, onlyMissing: onlyMissing, arguments: Array(CommandLine.arguments.dropFirst()))
        options.asOf = asOf
        options.partitions = partitions.isEmpty ? nil : try PartitionSelection(partitions)
        return options
    }

    /// Where the run's events go: progress, JSON lines or nothing on standard error, and every
    /// event to the `--events` file too.
    private func observer(json: Bool, eventsFile: CheckedOutput?) -> any RunObserver {
        let shown: any RunObserver = if quiet { SilentObserver() } else if json { JSONLinesObserver() } else {
            TerminalProgress(live: isatty(STDERR_FILENO) == 1)
        }
        return eventsFile.map { file in FanOutObserver(observers: [shown, JSONLinesObserver(output: file)]) } ?? shown
    }

    /// The run's report, once `run` ends (at its next boundary when `stop` caught SIGINT, SIGTERM
    /// or SIGHUP); a run that did not finish is recorded in the metrics as failed or interrupted.
    private func outcome(of run: Task<RunReport, any Error>, stoppedBy stop: SignalStop, pipeline: String) async throws
        -> RunReport {
        do {
            return try await run.value
        } catch {
            let interrupted = (error as? Failure)?.code == .interrupted
            // The run's own failure is what to say; a metrics file that cannot be written then is not.
            try? record(interrupted ? .interrupted : .failed, of: pipeline, manifest: nil)
            if interrupted { throw Failure.stopped(by: stop.first ?? SIGTERM) }
            throw error
        }
    }

    /// Writes `--metrics`, when asked for, over the last run's file (whose last success it keeps).
    private func record(_ outcome: RunMetrics.Outcome, of pipeline: String, manifest: RunManifest?) throws {
        guard let metrics else { return }
        let served = SnapshotStore(directory: Workspace(root: URL(fileURLWithPath: workspace)).snapshots).latest(pipeline: pipeline)
        try RunMetrics.record(outcome, of: pipeline, manifest: manifest, served: served, at: metrics)
    }
}

extension RunCommand {
    /// The `--events` file, created if need be (its folder too: a cron line's first night finds
    /// no `state/` yet), written at its end.
    static func appending(to path: String) throws -> CheckedOutput {
        do {
            try FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            return try CheckedOutput.appending(to: path)
        } catch {
            throw ValidationError("--events \(path): " + ((error as? Failure)?.message ?? SystemMessage.describe(error)))
        }
    }
}
