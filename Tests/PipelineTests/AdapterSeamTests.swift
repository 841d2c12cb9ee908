import Basics
import Fetching
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
    /// Names are what pipelines and `parse --adapter` find an adapter by: each adapter's once,
    /// each format's once within its adapter, and an old name naming one format only, of the
    /// adapter of that name when it is one.
    @Test func everyAdapterHasItsOwnNameAndFormats() {
        let names = AdapterRegistry.all.map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
        var formatOfAlias: [String: String] = [:]
        for adapter in AdapterRegistry.all {
            #expect(!adapter.pageFormats.isEmpty, "\(adapter.name)")
            #expect(Set(adapter.pageFormats.map(\.name)).count == adapter.pageFormats.count, "\(adapter.name)")
            for format in adapter.pageFormats {
                for alias in format.aliases {
                    #expect(formatOfAlias.updateValue("\(adapter.name) \(format.name)", forKey: alias) == nil, "\(alias)")
                    #expect(!names.contains(alias) || alias == adapter.name, "\(alias) names another adapter")
                }
            }
        }
        #expect(AdapterRegistry.parseNames.count == Set(names).union(formatOfAlias.keys).count)
    }

    /// Every format of every adapter reads a real document of its own (`AdapterSamples`) with the
    /// parser a run uses, and finds in it a name printed there; a format with labels reads one.
    @Test func everyPageFormatReadsARealSample() throws {
        for adapter in AdapterRegistry.all {
            let samples = try #require(AdapterSamples.all[adapter.name], "\(adapter.name) brings no sample")
            #expect(Set(samples.keys) == Set(adapter.pageFormats.map(\.name)), "\(adapter.name)")
            for format in adapter.pageFormats {
                let sample = try #require(samples[format.name], "\(adapter.name) \(format.name) has no sample")
                let document = FetchedDocument(url: sample.file.path, status: 200, headers: [:],
                                               body: try sample.body(sample.file), charset: nil, sha256: "", fetchedAt: Date())
                let hints = PageHints(recipeId: nil, date: sample.date.flatMap { ServiceDate($0) },
                                      today: try #require(ServiceDate("2026-10-12")))
                let page = try format.read(document, hints).page
                #expect(Self.count(page) > 0, "\(adapter.name) \(format.name)")
                #expect(!format.hasLabels || Self.labels(page) > 0, "\(adapter.name) \(format.name) read no label")
                let json = String(decoding: try JSONEncoder().encode(page), as: UTF8.self)
                #expect(json.contains(sample.holds), "\(adapter.name) \(format.name): no \(sample.holds)")
            }
        }
    }

    /// What a page holds: menu items, label rows, hours or recipes.
    private static func count(_ page: ParsedPage) -> Int {
        switch page {
        case .day(let day): day.menuItems.count
        case .sections(let sections): sections.flatMap(\.foods).count
        case .food(let food): food.nutrients.count
        case .hours(let hours): hours.count
        case .dayWithFoods(let day, let foods): min(day.menuItems.count, foods.count)
        case .recipes(let recipes): recipes.count
        }
    }

    /// The foods of a page that carry a label.
    private static func labels(_ page: ParsedPage) -> Int {
        switch page {
        case .food(let food): food.nutrients.isEmpty ? 0 : 1
        case .dayWithFoods(_, let foods): foods.filter { !$0.nutrients.isEmpty }.count
        case .day, .sections, .hours, .recipes: 0
        }
    }

    /// Every code of every legend is known once, and means terms of the one vocabulary.
    @Test func everyLegendMapsOntoTheVocabulary() {
        let terms = Set(Vocabulary.terms.map(\.name))
        for adapter in AdapterRegistry.all {
            let codes = adapter.legend.map(\.code)
            #expect(Set(codes).count == codes.count, "\(adapter.name)")
            for code in adapter.legend {
                #expect(!code.label.isEmpty && code.kind != .unknown, "\(adapter.name) \(code.code)")
                #expect(code.terms.allSatisfy(terms.contains), "\(adapter.name) \(code.code): \(code.terms)")
            }
        }
        // The menu sources print codes; TheMealDB prints none.
        #expect(AdapterRegistry.adapter(named: "ucla-menu-site")?.legend.count == 15)
        #expect(AdapterRegistry.adapter(named: "mealdb-dump")?.legend.isEmpty == true)
    }

    /// A snapshot keeps one row per code whichever sources print it (`dietary_code`, `code_term`),
    /// so a code two adapters both print must mean the same there: Bon Appétit's "may contain"
    /// icons have codes of their own, not Nutrislice's "milk", which is a contains. Only the
    /// kind of a meaningless code and the label may differ.
    @Test func aCodeTwoAdaptersPrintMeansTheSameInBoth() {
        var meaning: [String: (adapter: String, terms: [String], presence: TermPresence)] = [:]
        for adapter in AdapterRegistry.all {
            for code in adapter.legend {
                if let first = meaning[code.code] {
                    #expect(first.terms.sorted() == code.terms.sorted() && first.presence == code.presence,
                            "\(code.code): \(first.adapter) and \(adapter.name) differ")
                } else {
                    meaning[code.code] = (adapter.name, code.terms, code.presence)
                }
            }
        }
        #expect(meaning["may contain milk"]?.presence == .mayContain && meaning["milk"]?.presence == .contains)
    }

    /// A source is one folder: each adapter's type is declared in the folder it names, under
    /// `Sources/1-Sources/SourceAdapters` (the seam is not one), and the folder holds what its source
    /// publishes (`README.md`).
    @Test func everyAdapterLivesInTheFolderItNamesWithItsSourcesDoc() throws {
        let root = Paths.packageRoot.appendingPathComponent("Sources/1-Sources/SourceAdapters")
        let folders = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0 != "Seam" }
        for adapter in AdapterRegistry.all {
            let file = "\(type(of: adapter)).swift"
            let homes = folders.filter {
                FileManager.default.fileExists(atPath: root.appendingPathComponent($0).appendingPathComponent(file).path)
            }
            #expect(homes == [adapter.folder], "\(file): \(homes)")
            let doc = root.appendingPathComponent(adapter.folder).appendingPathComponent("README.md")
            let text = (try? String(contentsOf: doc, encoding: .utf8)) ?? ""
            #expect(text.contains("`\(adapter.name)`"), "\(doc.path) does not document \(adapter.name)")
        }
    }

    /// The adapter tables of README.md and docs/pipelines.md are `commissary adapters`.
    @Test func theDocsAdapterTablesAreTheGeneratedOne() async throws {
        let printed = try await CommissaryProcess.run(["adapters"])
        #expect(printed.status == 0, "\(printed.error)")
        #expect(printed.output == AdapterRegistry.markdownTable())
        for document in ["README.md", "docs/pipelines.md"] {
            let text = try String(contentsOf: Paths.packageRoot.appendingPathComponent(document), encoding: .utf8)
            let start = try #require(text.range(of: Self.tableStart), "\(document) has no generated adapter table")
            let end = try #require(text.range(of: Self.tableEnd, range: start.upperBound..<text.endIndex))
            #expect(String(text[start.upperBound..<end.lowerBound]) == "\n" + AdapterRegistry.markdownTable(),
                    "\(document)'s adapter table is stale: replace it with the output of `commissary adapters`")
        }
    }

    static let tableStart = "<!-- generated by `commissary adapters`; a test fails when it differs -->"
    static let tableEnd = "<!-- end of `commissary adapters` -->"

    /// What the table says, checked by hand against each adapter's `problem(reading:)` and keys.
    @Test func theAdapterTableSaysWhatEachReads() {
        let rows = AdapterRegistry.markdownTable().split(separator: "\n")
        func row(_ name: String) -> String { String(rows.first { $0.hasPrefix("| `\(name)` |") } ?? "") }
        #expect(rows.count == AdapterRegistry.all.count + 2)
        #expect(row("mealdb-api").contains("| `letters` | – | URL |"))
        #expect(row("mealdb-dump").contains("| `categories` | – | file |"))
        #expect(row("ucla-dataset").contains("| – | optional | folder | `day` (`ucla-dataset`) |"))
        #expect(row("netnutrition-label").contains("| – | – | folder | `label` |"))
        #expect(row("foodpro").contains("| `item_page`, `layout`, `menu_page`, `recipe_pages` | required | URL, folder |"))
        #expect(row("ucla-menu-site").hasSuffix(
            "| `overview` (`ucla-menu`), `detailed` (`ucla-detailed`), `recipe` (`ucla-recipe`), `hours` (`ucla-hours`) "
                + "| `Sources/1-Sources/SourceAdapters/UCLAMenuSite/` |"))
        #expect(row("mealdb-api").hasSuffix("| `Sources/1-Sources/SourceAdapters/TheMealDB/` |"))
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
        let page = #expect(throws: Failure.self) { try AdapterRegistry.pageFormat(adapter: "ucla-menu-site", page: "menu") }
        #expect(page?.code == .unknownName && page?.place?.location == "--page")
        let adapter = #expect(throws: Failure.self) { try AdapterRegistry.pageFormat(adapter: "sodexo", page: nil) }
        #expect(adapter?.code == .unknownName && adapter?.place?.location == "--adapter")
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

    /// `parse` says on standard error, one line each, what a run reading the document would warn
    /// about, and prints the document as the run reads it. Nutrislice's real breakfast week with
    /// the smoothie's `mg_vitamin_d` typed as 100 (no unit fits it among the week's micrograms)
    /// and Duke's real NetNutrition label with its Sodium row made "Vitamin D 2.5mg"; the real
    /// label as it is says nothing.
    @Test func parseSaysWhatARunWouldWarnAbout() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var answer = try NutrisliceWeeks.answer("breakfast")
        try NutrisliceWeeks.editFood(1892965, on: "2025-08-18", in: &answer) { food in
            NutrisliceWeeks.editLabel(of: &food) { $0["mg_vitamin_d"] = 100.0 }
        }
        let week = folder.appendingPathComponent("breakfast.json")
        try JSONSerialization.data(withJSONObject: answer).write(to: week)
        let nutrislice = try await CommissaryProcess.run(["parse", "--adapter", "nutrislice", "--date", "2025-08-18", week.path])
        #expect(nutrislice.status == 0, "\(nutrislice.error)")
        let warnings = nutrislice.error.split(separator: "\n")
        #expect(warnings.contains { $0.hasPrefix("warning: ") && $0.contains("rounded_nutrition_info.mg_vitamin_d is 100, more than a serving of any food holds in mcg") },
                "\(nutrislice.error)")
        #expect(warnings.allSatisfy { $0.hasPrefix("warning: ") }, "\(nutrislice.error)")
        // And the week's vitamin D key read in micrograms, not the milligrams it names.
        #expect(warnings.contains { $0.contains("read in mcg, not mg") }, "\(nutrislice.error)")
        #expect(nutrislice.output.contains("\"name\" : \"Vegan Blueberry Smoothie\""))

        let duke = String(decoding: try SharedData.load("netnutrition-2025/duke-label-egg-bite.html"), as: UTF8.self)
        let whole = folder.appendingPathComponent("4711.html")
        try Data(duke.utf8).write(to: whole)
        let plain = try await CommissaryProcess.run(["parse", "--adapter", "netnutrition-label", whole.path])
        #expect(plain.status == 0 && plain.error.isEmpty, "\(plain.error)")
        let edited = folder.appendingPathComponent("4712.html")
        try Data(try #require(MenuPageEdits.dukeSodiumAsVitaminD(duke, printing: "2.5mg")).utf8).write(to: edited)
        let label = try await CommissaryProcess.run(["parse", "--adapter", "netnutrition-label", edited.path])
        #expect(label.status == 0, "\(label.error)")
        #expect(label.error == "warning: file://\(edited.path): Bacon Swiss and Arugula Egg Bite: vitamin_d printed in mg, read in mcg: "
                + "the amount is more than a serving of any food holds in the unit printed\n")
        #expect(label.output.contains("\"unit\" : \"mcg\""), "\(label.output)")
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
