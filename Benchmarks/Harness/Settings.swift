import FoodModel
import Foundation

/// The sizes and folders of a benchmark run, from the command line.
///
/// `--quick` (20 days, 5 for the small run, 200 for the scaling run, 10,000 recipes, 100,000 for
/// the large catalogue) takes about a minute of CPU for development; the defaults are the issues'
/// sizes (365 days, 60, 3,650, 100,000 recipes, 1,000,000 for the large catalogue).
/// `--rounds N` measures every scenario and its floors N times (3 by default).
struct Settings {
    var days = 365
    /// A small run (issue 38): two months of menus, to show it pays no large fixed cost.
    var shortDays = 60
    var decadeDays = 3_650
    var recipes = 100_000
    /// The catalogue whose peak memory must match `recipes`' (issue 20): measured once, without
    /// floors (JSONSerialization would hold the whole dump several times over).
    var largeRecipes = 1_000_000
    var repository: URL
    var corpus: URL
    var dataset: URL
    var meals: URL
    /// UCLA's recipe documents, whose printed labels measure the nutrition estimates.
    var kitchenRecipes: URL
    /// UCLA's live feed as saved: seven nights of menus, recipe and ingredient documents.
    var jamix: URL
    /// `--live-nights`: only the live nights scenario, which needs no generated corpus.
    var liveNightsOnly = false
    var keepWorkspaces = false
    /// How many times each scenario and its floors are measured; the report takes the median.
    var rounds = 3
    /// `--commissary PATH`: the binary whose `commissary run` the process lines time; by default
    /// the one built beside the bench. The nightly of deploy/ runs the one `scripts/install`
    /// links with the Swift runtime inside, which starts faster than a build that loads it.
    var commissary: URL?
    /// Every corpus starts on this date; the dataset's days are cycled from it.
    let firstDate = ServiceDate(year: 2017, month: 1, day: 1)

    static let usage = """
        usage: commissary-bench [--quick] [--days N] [--short-days N] [--decade-days N] [--recipes N] [--large-recipes N] [--rounds N]
                                [--corpus DIR] [--dataset DIR] [--meals FILE] [--jamix DIR] [--commissary FILE]
                                [--live-nights] [--keep]
               commissary-bench estimates [--kitchen-recipes DIR]
        """

    init(_ arguments: [String]) throws {
        // Benchmarks/Harness/Settings.swift → the package root.
        repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        corpus = repository.appendingPathComponent("Benchmarks/.corpus")
        let shared = repository.deletingLastPathComponent().appendingPathComponent("shared/data")
        dataset = shared.appendingPathComponent("ucla-dataset-2016")
        meals = shared.appendingPathComponent("themealdb/meals-dump-442.json")
        kitchenRecipes = shared.appendingPathComponent("ucla-jamix-2025/recipes")
        jamix = shared.appendingPathComponent("ucla-jamix-2025")
        var rest = arguments[...]
        func number(_ flag: String) throws -> Int {
            guard let text = rest.popFirst(), let value = Int(text), value > 0 else {
                throw BenchError("\(flag) needs a positive number\n\(Self.usage)")
            }
            return value
        }
        func path(_ flag: String) throws -> URL {
            guard let text = rest.popFirst() else { throw BenchError("\(flag) needs a path\n\(Self.usage)") }
            return URL(fileURLWithPath: text)
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--quick": (days, shortDays, decadeDays, recipes, largeRecipes) = (20, 5, 200, 10_000, 100_000)
            case "--short-days": shortDays = try number(flag)
            case "--days": days = try number(flag)
            case "--decade-days": decadeDays = try number(flag)
            case "--recipes": recipes = try number(flag)
            case "--large-recipes": largeRecipes = try number(flag)
            case "--rounds": rounds = try number(flag)
            case "--corpus": corpus = try path(flag)
            case "--dataset": dataset = try path(flag)
            case "--meals": meals = try path(flag)
            case "--kitchen-recipes": kitchenRecipes = try path(flag)
            case "--jamix": jamix = try path(flag)
            case "--commissary": commissary = try path(flag)
            case "--live-nights": liveNightsOnly = true
            case "--keep": keepWorkspaces = true
            default: throw BenchError("unknown argument \(flag)\n\(Self.usage)")
            }
        }
        // Named on purpose: a path that runs nothing fails the bench rather than leave its
        // process lines out.
        if let commissary, !FileManager.default.isExecutableFile(atPath: commissary.path) {
            throw BenchError("--commissary \(commissary.path) is no executable file\n\(Self.usage)")
        }
    }
}
