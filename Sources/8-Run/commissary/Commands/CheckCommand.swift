import ArgumentParser
import Basics
import Foundation
import RunReporting
import Snapshot

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Verify a snapshot (integrity, foreign keys) and print the checks its run recorded.",
        discussion: "Exit status 0 when the file is sound and no blocking check failed, 1 otherwise.")

    @Argument(help: "A snapshot file, latest, or latest-<pipeline>.")
    var snapshot: String

    @Option(help: "The workspace whose snapshots/ folder `latest` refers to.")
    var workspace = "."

    func run() throws {
        let url: URL
        let problems: [String]
        let checks: [CheckOutcome]
        url = try SnapshotLocator(workspace: workspace).resolve(snapshot)
        problems = try SnapshotReader.read(url) { db in try SnapshotReader.verify(db) }
        checks = try SnapshotReader.checks(of: url)
        answer(url.path)
        answer(problems.isEmpty ? "  sound: integrity_check ok, no broken foreign key" : "  NOT sound:")
        for problem in problems { answer("    " + TerminalText.oneLine(problem)) }
        for check in checks {
            let mark = check.passed ? "ok   "
                : check.severity == .error ? "FAIL " : check.severity == .stale ? "STALE" : "warn "
            answer(TerminalText.oneLine("  \(mark) \(check.name): \(check.message)"))
        }
        if !problems.isEmpty || checks.contains(where: \.blocksPublishing) {
            throw ExitCode(1)
        }
    }
}
