import ArgumentParser
import FoodModel
import Foundation
import Logging
import Pipeline
import Snapshot

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a pipeline: fetch, parse, normalize, compute, check, publish.",
        discussion: "A run whose inputs are byte-for-byte those of the latest snapshot (same code, same "
            + "pipeline) publishes nothing and says so; --force publishes anyway. "
            + "Exit status: 0 when a snapshot was published, the inputs were unchanged, or the plan printed; 1 on an error, "
            + "3 when a blocking check stopped the publication (the previous snapshot stays latest).")

    @Argument(help: "The pipeline file (Pipelines/<name>.yml).")
    var pipeline: String

    @Option(help: "Run for this service day only (YYYY-MM-DD); also taken as today.")
    var date: String?

    @Option(help: "First service day of a range (with --to).")
    var from: String?

    @Option(help: "Last service day of a range (with --from).")
    var to: String?

    @Flag(help: "Print the plan and touch nothing.")
    var dryRun = false

    /// `--full-refresh` is the backfill operator's name for the same thing: nothing is replayed
    /// from the ledger, every partition is fetched again (conditional GETs still apply).
    @Flag(name: [.customLong("force"), .customLong("full-refresh")],
          help: "Fetch every partition again, even those already done, and publish even if nothing changed (--full-refresh is the same flag).")
    var force = false

    @Flag(help: "Fetch only partitions not already done; replay the others from raw/.")
    var onlyMissing = false

    @Option(help: "Folder for snapshots/, raw/, state/ and staging/.")
    var workspace = "."

    @Option(help: "Event output: text (a terminal), json (one JSON line per event), or auto.")
    var logFormat: LogFormat = .auto

    @Flag(name: .shortAndLong, help: "Log details of fetching to standard error.")
    var verbose = false

    enum LogFormat: String, ExpressibleByArgument, CaseIterable {
        case auto, text, json
    }

    func validate() throws {
        if force && onlyMissing { throw ValidationError("--force (--full-refresh) and --only-missing contradict each other") }
        if date != nil && (from != nil || to != nil) { throw ValidationError("give --date or --from/--to, not both") }
        if (from == nil) != (to == nil) { throw ValidationError("--from and --to go together") }
        for (name, value) in [("--date", date), ("--from", from), ("--to", to)] {
            if let value, ServiceDate(value) == nil {
                throw ValidationError("\(name) expects a date as YYYY-MM-DD, found \"\(value)\"")
            }
        }
    }

    func run() async throws {
        // Before any connection is opened: SQLite takes this setting only then.
        SQLiteProcess.disableMemoryStatistics()
        let spec: PipelineSpec
        do {
            spec = try SpecReader.read(URL(fileURLWithPath: pipeline))
        } catch {
            throw fail(error)
        }
        var selection: DateSelection?
        var today = localToday()
        if let date, let day = ServiceDate(date) {
            selection = .range(from: day, to: day)
            today = day
        } else if let from, let to, let first = ServiceDate(from), let last = ServiceDate(to) {
            guard first <= last else { throw fail(ValidationError("--to \(to) is before --from \(from)"), code: 2) }
            selection = .range(from: first, to: last)
        }
        let options = RunOptions(
            workspace: Workspace(root: URL(fileURLWithPath: workspace)), dates: selection, today: today,
            force: force, onlyMissing: onlyMissing, arguments: Array(CommandLine.arguments.dropFirst()))
        let json = logFormat == .json || (logFormat == .auto && !standardOutputIsTerminal())
        var logger = Logger(label: "commissary")
        logger.logLevel = verbose ? .debug : .warning
        let observer: any RunObserver = json ? JSONLinesObserver() : TerminalProgress()
        let runner = PipelineRunner(spec: spec, options: options, observer: observer, logger: logger)

        if dryRun {
            do {
                let plan = try runner.plan()
                if json { print(encodeLine(plan)) } else { print(TerminalProgress.render(plan)) }
            } catch {
                throw fail(error)
            }
            return
        }
        let report: RunReport
        do {
            report = try await runner.run()
        } catch {
            throw fail(error)
        }
        if !json { print(TerminalProgress.summary(report)) }
        if !report.published && !report.unchanged {
            let reasons = report.blockingChecks.map(\.message).joined(separator: "; ")
            FileHandle.standardError.write(Data("error: not published: \(reasons)\n".utf8))
            throw ExitCode(3)
        }
    }
}
