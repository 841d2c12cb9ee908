import BenchmarkCorpus
import Foundation

/// The parent: makes sure the corpora exist, measures every scenario and floor in a child,
/// and prints the report.
enum Bench {
    static func run(_ settings: Settings) throws {
        let loadBefore = loadAverage()
        var source: SourceMenus?
        func loadSource() throws -> SourceMenus {
            if let source { return source }
            let loaded = try SourceMenus(datasetFolder: settings.dataset)
            source = loaded
            return loaded
        }
        let yearCorpus = try Corpora.menus(days: settings.days, settings: settings, source: loadSource)
        let decadeCorpus = try Corpora.menus(days: settings.decadeDays, settings: settings, source: loadSource)
        let dump = try Corpora.recipes(count: settings.recipes, settings: settings)
        source = nil

        let work = FileManager.default.temporaryDirectory
            .appendingPathComponent("commissary-bench-\(ProcessInfo.processInfo.processIdentifier)")
        defer { if !settings.keepWorkspaces { try? FileManager.default.removeItem(at: work) } }
        let scratch = work.appendingPathComponent("scratch").path
        let repository = settings.repository.path
        guard let firstDate = settings.firstDate?.description else { throw BenchError("bad first date") }

        func menus(_ corpus: URL, days: Int, workspace: String) throws -> Measurement {
            try Corpora.warm(corpus)
            log("run: \(days) days of menus (\(workspace))")
            return try Child.measure("menus", [
                "corpus": corpus.path, "from": firstDate, "days": "\(days)",
                "workspace": work.appendingPathComponent(workspace).path, "repository": repository,
            ])
        }
        func floors(of run: Measurement, parse: (String, [String: String])) throws -> Floor {
            log("floors for \(run.documents) documents, \(run.rows) rows")
            return Floor(
                parse: try Child.measure(parse.0, parse.1),
                insert: try Child.measure("floor-insert", ["rows": "\(run.rows)", "scratch": scratch]),
                copy: try Child.measure("floor-copy", ["file": run.snapshot ?? "", "scratch": scratch]))
        }

        let year = try menus(yearCorpus, days: settings.days, workspace: "year")
        let rerun = try menus(yearCorpus, days: settings.days, workspace: "year")
        let yearFloor = try floors(of: year, parse: ("floor-parse", ["manifest": year.manifest ?? ""]))
        let decade = try menus(decadeCorpus, days: settings.decadeDays, workspace: "decade")
        let decadeFloor = try floors(of: decade, parse: ("floor-parse", ["manifest": decade.manifest ?? ""]))
        try Corpora.warm(dump)
        log("run: \(settings.recipes) recipes")
        let recipes = try Child.measure("recipes", [
            "dump": dump.path, "workspace": work.appendingPathComponent("recipes").path, "repository": repository,
        ])
        let recipesFloor = try floors(of: recipes, parse: ("floor-json", ["dump": dump.path]))

        Report(settings: settings, load: (loadBefore, loadAverage()),
               year: (year, yearFloor), rerun: rerun, decade: (decade, decadeFloor),
               recipes: (recipes, recipesFloor)).print()
    }

    /// The 1-minute load average, printed with the figures: other work on the machine slows
    /// the run and the floors alike, so ratios hold better than seconds.
    static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
            .split(separator: " ").first.map(String.init) ?? "?"
    }
}

/// The floors measured for one run: parsing (libxml2 or JSON, with the read timed apart),
/// inserting the same number of rows, copying the published file.
struct Floor {
    var parse: Measurement
    var insert: Measurement
    var copy: Measurement

    /// The end-to-end floor: parse floor + insert floor.
    var endToEnd: Double { parse.seconds + insert.seconds }

    /// The floor of each stage that has one; normalize, compute and check have none.
    func stage(_ name: String) -> Double? {
        switch name {
        case "fetch": parse.readSeconds
        case "parse": parse.seconds
        case "write": insert.seconds
        case "publish": copy.seconds
        default: nil
        }
    }
}
