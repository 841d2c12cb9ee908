import ArgumentParser
import Basics
import CommandAnswers
import FoodModel
import Fetching
import Foundation
import Logging
import Pipeline
import SourceAdapters

struct ParseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Print what one page or response normalizes to, as JSON.",
        discussion: """
            What a run reading the document would warn about (a value left out, a unit read otherwise \
            than printed, a row that could not be placed) is said on standard error, one line each.
            """)

    @Option(help: ArgumentHelp(
        "The source adapter whose format the input is: \(AdapterRegistry.names); the names this command took before adapters and pipelines shared theirs still work (\(AdapterRegistry.all.flatMap { $0.pageFormats.flatMap(\.aliases) }.joined(separator: ", "))).",
        valueName: "adapter"))
    var adapter: String

    @Option(help: "Which of the adapter's formats the input is (default: its first; an unknown name lists them).")
    var page: String?

    @Argument(help: "A file, or an http(s) URL.")
    var input: String

    @Option(help: "Recipe id of a recipe or label page (default: read from the URL or file name).")
    var recipeId: String?

    @Option(help: "The service day of a dataset file, or the date that anchors an hours page (YYYY-MM-DD; default: from the file name, else today).")
    var date: String?

    @Option(help: "Compute %DV under this daily-value standard (a name in Pipelines/standards, or a .yml path) and show it beside the printed %DV.")
    var dvStandard: String?

    @Option(help: "Estimate the nutrients of the page's recipes from their ingredients with this nutrition reference (usda-sr24, built by scripts/nutrition-reference) and print them beside the page, under nutrition_estimates.")
    var nutritionReference: String?

    func run() async throws {
        let (_, format) = try AdapterRegistry.pageFormat(adapter: adapter, page: page)
        if dvStandard != nil, !format.hasLabels {
            let withLabels = AdapterRegistry.all.flatMap { adapter in
                adapter.pageFormats.filter(\.hasLabels).map { "\(adapter.name) --page \($0.name)" }
            }
            throw ValidationError("--dv-standard needs a page with nutrition labels: \(withLabels.joined(separator: ", "))")
        }
        let document = try await fetch()
        let hints = PageHints(recipeId: recipeId, date: try anchorDate(), today: ServiceDate.today())
        let reading = try format.read(document, hints)
        for problem in reading.problems {
            CheckedOutput.standardError.write("warning: \(Redaction.apply(TerminalText.oneLine(problem)))\n")
        }
        var parsed = reading.page
        if let dvStandard {
            let annotator = try DailyValueAnnotator(standard: dvStandard)
            parsed = parsed.mapFoods(annotator.annotate)
        }
        if let nutritionReference {
            let annotator = try EstimateAnnotator(reference: nutritionReference)
            answer(try encode(annotator.annotated(parsed)))
        } else {
            answer(try encode(parsed))
        }
    }

    private func fetch() async throws -> FetchedDocument {
        let address: String?
        do {
            address = try SourceLocation.webAddress(input)
        } catch {
            // A user name and password on a command line are in the shell's history and the
            // process list, so they are refused here too, without repeating the address.
            throw Failure(error.code, error.code == .credentialsInAddress
                          ? "\(error.message); parse sends none: save the page with a client that reads them from a "
                            + "file (curl --netrc-file) and parse the saved file"
                          : error.message, at: "the address given to parse")
        }
        if let address {
            return try await HTTPSource(policy: HTTPPolicy(), logger: Logger(label: "commissary.parse")).fetch(address)
        }
        let file = URL(fileURLWithPath: input).standardizedFileURL
        return try await DirectorySource(root: URL(fileURLWithPath: "/")).fetch("file://" + file.path)
    }

    /// `--date`, else a `YYYY-MM-DD` in the file name.
    private func anchorDate() throws -> ServiceDate? {
        if let date {
            guard let day = ServiceDate(date) else {
                throw ValidationError("--date expects YYYY-MM-DD, found \"\(date)\"")
            }
            return day
        }
        let name = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
        guard let range = name.range(of: #"\d{4}-\d{2}-\d{2}"#, options: .regularExpression) else { return nil }
        return ServiceDate(String(name[range]))
    }

    private func encode(_ value: some Encodable) throws -> String {
        String(decoding: try UserJSON.encoder(indented: true).encode(value), as: UTF8.self)
    }
}
