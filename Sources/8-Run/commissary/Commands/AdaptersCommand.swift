import ArgumentParser
import SourceAdapters

struct AdaptersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adapters",
        abstract: "Print every source adapter (what it reads, its keys, locations and page formats) as a Markdown table.",
        discussion: "The adapter tables of README.md and docs/pipelines.md are this output; a test fails when they differ.")

    func run() {
        print(AdapterRegistry.markdownTable(), terminator: "")
    }
}
