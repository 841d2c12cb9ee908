import ArgumentParser
import Pipeline

/// The command-line tool: parses arguments, hands over to the libraries, maps errors to one
/// line on standard error and a non-zero exit status.
@main
struct Commissary: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "commissary",
        abstract: "Fetch dining menus and recipe catalogues, publish SQLite snapshots.",
        version: CommissaryVersion.current,
        subcommands: [
            RunCommand.self,
            ParseCommand.self,
            QueryCommand.self,
            SnapshotsCommand.self,
            CheckCommand.self,
            SwipesCommand.self,
            DiffCommand.self,
            SchemaCommand.self,
        ])
}
