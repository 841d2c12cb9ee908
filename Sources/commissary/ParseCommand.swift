import ArgumentParser
import DiningSources
import FoodModel
import Fetching
import Foundation
import Logging
import MealDB
import Pipeline

struct ParseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Print what one page or response normalizes to, as JSON.")

    enum Adapter: String, ExpressibleByArgument, CaseIterable {
        case uclaMenu = "ucla-menu"
        case uclaDetailed = "ucla-detailed"
        case uclaRecipe = "ucla-recipe"
        case uclaHours = "ucla-hours"
        case uclaDataset = "ucla-dataset"
        case foodpro
        case foodproLabel = "foodpro-label"
        case foodproUCLA = "foodpro-ucla"
        case mealdb
    }

    @Option(help: "The page format: \(Adapter.allCases.map(\.rawValue).joined(separator: ", ")).")
    var adapter: Adapter

    @Argument(help: "A file, or an http(s) URL.")
    var input: String

    @Option(help: "Recipe id of a recipe page (default: read from the URL or file name).")
    var recipeId: String?

    @Option(help: "The service day of a dataset file, or the date that anchors an hours page (YYYY-MM-DD; default: from the file name, else today).")
    var date: String?

    @Option(help: "Compute %DV under this daily-value standard (a name in Pipelines/standards, or a .yml path) and show it beside the printed %DV.")
    var dvStandard: String?

    func run() async throws {
        do {
            if dvStandard != nil, ![.uclaRecipe, .uclaDataset, .foodproLabel].contains(adapter) {
                throw ValidationError("--dv-standard needs a page with nutrition labels: ucla-recipe, ucla-dataset or foodpro-label")
            }
            let document = try await fetch()
            let json = try normalize(document)
            print(json)
        } catch {
            throw fail(error)
        }
    }

    private func fetch() async throws -> FetchedDocument {
        if input.hasPrefix("http://") || input.hasPrefix("https://") {
            return try await HTTPSource(logger: Logger(label: "commissary.parse")).fetch(input)
        }
        let file = URL(fileURLWithPath: input).standardizedFileURL
        return try await DirectorySource(root: URL(fileURLWithPath: "/")).fetch("file://" + file.path)
    }

    private func normalize(_ document: FetchedDocument) throws -> String {
        let url = document.url
        let annotator = try dvStandard.map { try DailyValueAnnotator(standard: $0) }
        /// The food with computed %DV under `--dv-standard`, if given.
        func annotate(_ food: Food) -> Food { annotator?.annotate(food) ?? food }
        switch adapter {
        case .uclaMenu:
            return try encode(UCLAMenuSite.parseOverview(document.body, url: url, charset: document.charset))
        case .uclaDetailed:
            return try encode(UCLAMenuSite.parseDetailedMenu(document.body, url: url, charset: document.charset))
        case .uclaRecipe:
            guard let id = recipeId ?? Self.recipeId(in: url) else {
                throw ValidationError("cannot tell the recipe id from \(url); give --recipe-id")
            }
            return try encode(annotate(UCLAMenuSite.parseRecipe(document.body, url: url, charset: document.charset,
                                                                recipeId: id)))
        case .uclaHours:
            return try encode(UCLAMenuSite.parseHours(document.body, url: url, charset: document.charset,
                                                      referenceDate: try anchorDate() ?? localToday()))
        case .uclaDataset:
            guard let day = try anchorDate() else {
                throw ValidationError("cannot tell the service day of \(url); give --date")
            }
            let parsed = try UCLADataset.parseDay(document.body, date: day, location: url)
            return try encode(DatasetDay(day: parsed.day, foods: parsed.foods.map(annotate)))
        case .foodpro:
            return try encode(FoodPro.parseMenuGrid(document.body, url: url, charset: document.charset))
        case .foodproUCLA:
            guard let day = try FoodPro.parseUCLAMenuGrid(document.body, url: url, charset: document.charset) else {
                throw InputError("no menu grid (table.menugridtable) on the page: FoodPro serves no such meal that day", at: url)
            }
            return try encode(day)
        case .foodproLabel:
            guard let id = recipeId ?? Self.recipeId(in: url) else {
                throw ValidationError("cannot tell the recipe number from \(url); give --recipe-id")
            }
            return try encode(annotate(FoodPro.parseLabel(document.body, url: url, charset: document.charset,
                                                          recipeId: id)))
        case .mealdb:
            return try encode(MealDB.decodeMeals(document.body, location: url))
        }
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

    /// The id in `/Recipes/{id}/{portion}`, in FoodPro's `RecNumAndPort={id}*{portion}`, or in
    /// a file name such as `recipe-400317-...`.
    static func recipeId(in url: String) -> String? {
        if let range = url.range(of: #"/Recipes/[0-9A-Za-z]+"#, options: .regularExpression) {
            return String(url[range].dropFirst("/Recipes/".count))
        }
        if let range = url.range(of: #"RecNumAndPort=[0-9A-Za-z]+"#, options: .regularExpression) {
            return String(url[range].dropFirst("RecNumAndPort=".count))
        }
        let name = URL(fileURLWithPath: url).lastPathComponent
        return name.range(of: #"\d{6}"#, options: .regularExpression).map { String(name[$0]) }
    }

    private struct DatasetDay: Encodable {
        var day: ServiceDay
        var foods: [Food]
    }

    private func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
