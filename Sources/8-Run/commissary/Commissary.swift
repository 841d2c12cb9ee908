import ArgumentParser
import Basics
import Pipeline
import RunReporting

/// The command-line tool: parses arguments, hands over to the libraries, maps errors to one
/// line on standard error and a non-zero exit status.
@main
struct Commissary: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "commissary",
        abstract: "Fetch dining menus and recipe catalogues, publish SQLite snapshots.",
        discussion: ExitStatus.summary,
        version: CommissaryVersion.current,
        subcommands: [
            RunCommand.self,
            ParseCommand.self,
            QueryCommand.self,
            NearCommand.self,
            ReportCommand.self,
            FeedsCommand.self,
            SnapshotsCommand.self,
            CheckCommand.self,
            SwipesCommand.self,
            WatchCommand.self,
            DiffCommand.self,
            ChangesCommand.self,
            SchemaCommand.self,
            AdaptersCommand.self,
        ])

    /// Arguments are parsed as ArgumentParser does (usage errors and `--help` its way); what a
    /// command throws once running is one line on standard error and an exit status from
    /// `ExitStatus`, in one place for every command.
    ///
    /// A command whose standard output or error could not be written fails with the
    /// environment's status (4), unless it failed for a reason of its own already.
    static func main() async {
        CheckedOutput.ignoreBrokenPipes()
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            if let failed = failedStandardStream { reportAndExit(failed) }
        } catch let exit as ExitCode {
            // A status a command chose (`check`'s 1, `--exit-code`'s 7) is told by the answer
            // it printed; when that answer could not be written, that is what is reported.
            if let failed = failedStandardStream { reportAndExit(failed) }
            Self.exit(withError: exit)
        } catch let request where Self.exitCode(for: request).isSuccess {
            // `--help` and `help` parse as ArgumentParser's own help command, whose run asks for
            // the help text by throwing: ArgumentParser prints it and exits 0.
            Self.exit(withError: request)
        } catch {
            reportAndExit(error)
        }
    }
}
