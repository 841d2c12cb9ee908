import ArgumentParser
import Basics
import CommandAnswers
import FoodModel
import Foundation
import RunReporting

/// Prints the one line of a failure on standard error and exits with its status. A standard
/// error that cannot be written does not change the status: it is a failure already.
func reportAndExit(_ error: any Error) -> Never {
    let text = (error as? ValidationError)?.message ?? "\(error)"
    // Redacted once more, whatever the error's origin: the last line before the exit, which is
    // what cron mails; a document's control characters in it are shown, never acted on.
    let line = Redaction.apply(TerminalText.oneLine(text.split(whereSeparator: \.isNewline).joined(separator: " ")))
    let category = (error as? Failure)?.code.category ?? .badInput
    CheckedOutput.standardError.write("\(category.severity): \(line)\n")
    exit(ExitStatus.number(of: error))
}

/// Writes a command's answer on standard output. A write that fails (a full disk, a reader that
/// went away) is kept, and the command then ends with the environment's status instead of 0
/// (`Commissary.main`), since its answer is incomplete.
func answer(_ text: String, terminator: String = "\n") {
    CheckedOutput.standardOutput.write(text + terminator)
}

/// The first failed write to standard output or standard error, if any: a command that could
/// not say what it had to has not succeeded. A reader of standard output that stopped reading
/// (`commissary query … | head`) took what it wanted, as with any Unix tool: no failure, unless
/// standard error failed too.
var failedStandardStream: Failure? {
    if CheckedOutput.standardOutput.readerStoppedReading { return CheckedOutput.standardError.failure }
    return CheckedOutput.standardOutput.failure ?? CheckedOutput.standardError.failure
}

/// `--date 2026-10-12`: a service day as YYYY-MM-DD, refused by ArgumentParser otherwise.
extension ServiceDate: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }
}

/// The arguments of `diff`: two snapshots, the workspace `latest` refers to,
/// and `--exit-code`.
struct SnapshotPair: ParsableArguments {
    @Argument(help: "The older snapshot.")
    var old: String

    @Argument(help: "The newer snapshot.")
    var new: String

    @Option(help: "The workspace whose snapshots/ folder `latest` refers to.")
    var workspace = "."

    @Flag(help: "Exit with status 7 when the snapshots differ, as `git diff --exit-code` does with its own number.")
    var exitCode = false

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    func resolve() throws -> (old: URL, new: URL) {
        let locator = SnapshotLocator(workspace: workspace)
        return (try locator.resolve(old), try locator.resolve(new))
    }

    /// Status 7 when asked for with `--exit-code` and the snapshots differ.
    func exit(differing: Bool) throws {
        if exitCode && differing { throw ExitCode(ExitStatus.differ.rawValue) }
    }
}

/// `--format` of the commands that list things (`snapshots`, `near`).
extension ListFormat: ExpressibleByArgument {}
