import ArgumentParser
import Snapshot

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the snapshot schema with every table and column described, as Markdown.",
        discussion: "The README's \"Snapshot schema\" section is this output; a test fails when they differ.")

    func run() {
        print(SchemaDescription.current.markdown(), terminator: "")
    }
}
