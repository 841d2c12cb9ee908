import Foundation

/// `commissary run` as users run it: the binary built beside this one, as a child process, on the
/// same corpus and days as the in-process run, with its default outputs (the report page, the
/// manifest, the metadata) and the nightly's own (its events and metrics files), so the bench can
/// say what the process costs beyond the pipeline it runs (issue 58: process start, the page, the
/// observers).
enum ProcessRun {
    /// The binary named by `--commissary`, else the `commissary` binary of this build if it was
    /// built (`swift build --product commissary` with the same scratch path and configuration as
    /// the bench); nil when there is none to run.
    static func binary(named chosen: URL?) -> URL? {
        let binary = chosen ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("commissary")
        return FileManager.default.isExecutableFile(atPath: binary.path) ? binary : nil
    }

    /// `commissary run PIPELINE --dry-run` as a process: it reads the pipeline, the ids of the
    /// foods of the nutrition reference the pipeline names and its matching tables, plans the
    /// night and fetches nothing (a reference's foods are read when a run first estimates).
    /// `reference`: the reference file it reads (`COMMISSARY_NUTRITION_REFERENCE`).
    static func start(binary: URL, pipeline: URL, reference: URL, workspace: URL, repository: URL) throws -> Double {
        try seconds(binary, ["run", pipeline.path, "--dry-run", "--workspace", workspace.path], repository: repository,
                    environment: ["COMMISSARY_NUTRITION_REFERENCE": reference.path])
    }

    /// Seconds of wall time for `commissary run` of the menus corpus over `days` days from `from`,
    /// in `workspace` (a fresh one for a first night, the same again for the night after), as the
    /// nightly job of deploy/ runs it (`--quiet`, `--events` and `--metrics` into the workspace's
    /// `state/`), the pipeline file written there with what the in-process run is given: the
    /// corpus folder, the dates, the sample's daily-value standard, `min_menu_items: 1`, no hours
    /// page.
    static func menus(binary: URL, corpus: URL, from: String, to: String, workspace: URL, repository: URL) throws
        -> Double {
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        let pipeline = workspace.appendingPathComponent("bench-menus.yml")
        try Data("""
            pipeline: bench-menus
            licence: benchmark corpus
            dv_standard: ucla-label
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: \(corpus.path)
                dates: {from: \(from), to: \(to)}
                hours: false
            checks:
              min_menu_items: 1

            """.utf8).write(to: pipeline)
        let state = workspace.appendingPathComponent("state")
        return try seconds(binary, ["run", pipeline.path, "--workspace", workspace.path, "--as-of", from, "--quiet",
                                    "--events", state.appendingPathComponent("nightly.jsonl").path,
                                    "--metrics", state.appendingPathComponent("metrics/commissary.prom").path],
                           repository: repository)
    }

    /// Seconds of wall time for `binary` run with `arguments` to its end, its standard output
    /// discarded; a failure is its status and what it said on standard error. The pipelines'
    /// data (the sample's standard) is found among the repository's, as an installed binary finds
    /// it in share/commissary.
    private static func seconds(_ binary: URL, _ arguments: [String], repository: URL,
                                environment extra: [String: String] = [:]) throws -> Double {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["COMMISSARY_DATA"] = repository.appendingPathComponent("Pipelines").path
        environment.merge(extra) { _, given in given }
        process.environment = environment
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        let started = now()
        try process.run()
        let said = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let seconds = now() - started
        guard process.terminationStatus == 0 else {
            throw BenchError("commissary \(arguments.first ?? "") exited \(process.terminationStatus): "
                             + String(decoding: said, as: UTF8.self))
        }
        return seconds
    }
}
