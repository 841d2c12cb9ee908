import ArgumentParser
import Snapshot

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the snapshot schema with every table and column described, as Markdown.",
        discussion: "docs/schema.md is this output (`commissary schema > docs/schema.md`); a test fails when they differ.")

    func run() {
        answer("# Snapshot schema\n\n" + SchemaDescription.current.markdown(), terminator: "")
    }
}
