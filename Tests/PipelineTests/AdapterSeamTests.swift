import FoodModel
import Foundation
import Logging
import Pipeline
import Snapshot
import SourceAdapters
import Testing
import TestSupport

/// The adapter seam: one registry that pipeline files and `commissary parse` share, and a legend
/// per source in every snapshot.
@Suite struct AdapterSeamTests {
    @Test func everyAdapterHasOneNameAndAtLeastOnePageFormat() {
        let names = AdapterRegistry.all.map(\.name)
        #expect(names == ["ucla-menu-site", "foodpro", "ucla-dataset", "mealdb-dump", "mealdb-api", "ucla-jamix",
                           "nutrislice", "dineoncampus", "netnutrition-label"])
        #expect(AdapterRegistry.parseNames.count == 16)
        for adapter in AdapterRegistry.all {
            #expect(!adapter.pageFormats.isEmpty, "\(adapter.name)")
            #expect(Set(adapter.pageFormats.map(\.name)).count == adapter.pageFormats.count, "\(adapter.name)")
        }
    }

    /// The names `parse --adapter` took before the registry still name the same formats.
    @Test func theOldParseNamesAreAliases() throws {
        let expected = [
            "ucla-menu": ("ucla-menu-site", "overview"), "ucla-detailed": ("ucla-menu-site", "detailed"),
            "ucla-recipe": ("ucla-menu-site", "recipe"), "ucla-hours": ("ucla-menu-site", "hours"),
            "ucla-dataset": ("ucla-dataset", "day"), "foodpro": ("foodpro", "menu"),
            "foodpro-label": ("foodpro", "label"), "foodpro-ucla": ("foodpro", "ucla-grid"),
            "mealdb": ("mealdb-dump", "meals"),
        ]
        for (old, (adapter, page)) in expected {
            let found = try AdapterRegistry.pageFormat(adapter: old, page: nil)
            #expect(found.0.name == adapter && found.1.name == page, "\(old)")
        }
        #expect(throws: UnknownName.self) { try AdapterRegistry.pageFormat(adapter: "ucla-menu-site", page: "menu") }
        #expect(throws: UnknownName.self) { try AdapterRegistry.pageFormat(adapter: "sodexo", page: nil) }
    }

    /// A pipeline's `adapter:` and `parse --adapter` accept the same names, and the old name
    /// prints what the new one does.
    @Test func parseAndPipelinesAcceptTheSameNames() async throws {
        let overview = Paths.sampleSite.appendingPathComponent("Menus/2026-10-12.html").path
        let byName = try await CommissaryProcess.run(["parse", "--adapter", "ucla-menu-site", overview])
        let byAlias = try await CommissaryProcess.run(["parse", "--adapter", "ucla-menu", overview])
        #expect(byName.status == 0, "\(byName.error)")
        #expect(byName.output == byAlias.output)
        #expect(byName.output.contains("\"date\" : \"2026-10-12\""))
        let recipe = Paths.sampleSite.appendingPathComponent("Recipes/061005/1.html").path
        let label = try await CommissaryProcess.run(["parse", "--adapter", "ucla-menu-site", "--page", "recipe",
                                                     "--recipe-id", "061005", recipe])
        #expect(label.status == 0, "\(label.error)")
        #expect(label.output.contains("\"nutrients\""))

        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for adapter in AdapterRegistry.all {
            let yaml = "pipeline: names\nsources:\n  - name: one\n    adapter: \(adapter.name)\n    location: /nowhere\n"
            let error = #expect(throws: (any Error).self) {
                try SpecReader.parse(yaml, file: folder.appendingPathComponent("names.yml"))
            }
            // The adapter is known: what fails is the location, never the name.
            #expect("\(error.map { "\($0)" } ?? "")".contains("no such file or folder"), "\(adapter.name)")
        }
    }

    @Test func aTheMealDBSnapshotHasNoUCLAWebCodesAndAMenuSnapshotHasItsLegend() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let today = try #require(ServiceDate("2026-10-12"))
        func run(_ pipeline: String) async throws -> URL {
            let spec = try SpecReader.read(Paths.pipelines.appendingPathComponent(pipeline))
            let report = try await PipelineRunner(
                spec: spec, options: RunOptions(workspace: Workspace(root: workspace), today: today),
                observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
                .run()
            return URL(fileURLWithPath: try #require(report.snapshotPath))
        }
        let recipes = try await run("recipes-dump.yml")
        #expect(try QueryResult.run("SELECT count(*) FROM dietary_code", on: recipes).rows == [[.integer(0)]])

        // The sample's menus print UCLA's web codes: the fifteen of its legend, plus the one
        // code the sample uses that the legend lacks, kept raw as `unknown`.
        let menus = try await run("sample.yml")
        let codes = try QueryResult.run("SELECT code, kind FROM dietary_code ORDER BY code", on: menus).rows
        #expect(codes.count == 16)
        #expect(codes.contains([.text("AMLK"), .text("allergen")]))
        #expect(codes.contains([.text("ZZ"), .text("unknown")]))
    }
}
