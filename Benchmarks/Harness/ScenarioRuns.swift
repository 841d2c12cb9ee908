import FoodModel
import Foundation
import RecipeNutrition

/// How each scenario is measured: its runs and floors, each in a child process, in rounds.
/// Each round is a run in a fresh workspace (for the year and the decade also the unchanged
/// rerun and the nights with one day changed after it, in the same one), then the floors of what
/// the run read and wrote, so a run and its floors see the machine in the same phase. A round's
/// workspace goes once measured (a decade's is a gigabyte) unless `--keep`.
struct ScenarioRuns {
    let settings: Settings
    /// Where the rounds' workspaces go.
    let work: URL
    private let scratch: String
    private let repository: String
    private let firstDate: String

    init(settings: Settings, work: URL) throws {
        guard let firstDate = settings.firstDate?.description else { throw BenchError("bad first date") }
        self.settings = settings
        self.work = work
        self.firstDate = firstDate
        scratch = work.appendingPathComponent("scratch").path
        repository = settings.repository.path
    }

    /// A year of menus (or `--days`): the run, its reruns, the change file and the fetch path alone.
    func year(_ corpus: URL) throws -> [Round] {
        try rounds("year") { workspace in
            let run = try menus(corpus, days: settings.days, workspace: workspace)
            let rerun = try menus(corpus, days: settings.days, workspace: workspace)
            let changed = try oneDayNights(corpus, days: settings.days, after: rerun) {
                try menus(corpus, days: settings.days, workspace: workspace)
            }
            let fetchAlone = try Child.measure("fetch-alone", [
                "manifest": run.manifest ?? "", "corpus": corpus.path, "days": "\(settings.days)", "scratch": scratch,
            ])
            let processWorkspace = workspace.appendingPathComponent("process")
            let process = try processRun(corpus, days: settings.days, workspace: processWorkspace)
            // The nights after, as users run them: the same process, one day's page changed.
            let processChanged = try process.flatMap { _ -> Double? in
                let nights = try nightsChanging(corpus, on: try middleDay(of: settings.days)) {
                    try processRun(corpus, days: settings.days, workspace: processWorkspace)
                }.compactMap { $0 }
                return nights.upperMedian { $0 }
            }
            return Round(run: run, floor: try floors(of: run, parse: ("floor-parse", ["manifest": run.manifest ?? ""])),
                         rerun: rerun, changedRerun: changed.rerun, fetchAlone: fetchAlone,
                         changeFileSeconds: changed.changeFile, processSeconds: process,
                         processChangedSeconds: processChanged)
        }
    }

    /// The small run (issue 38): a run and its floors, and `commissary run` as a process on the
    /// same days (issue 58 asks for its line on 60 days as on the year).
    func short(_ corpus: URL) throws -> [Round] {
        try rounds("short") { workspace in
            let run = try menus(corpus, days: settings.shortDays, workspace: workspace)
            let process = try processRun(corpus, days: settings.shortDays,
                                         workspace: workspace.appendingPathComponent("process"))
            return Round(run: run, floor: try floors(of: run, parse: ("floor-parse", ["manifest": run.manifest ?? ""])),
                         processSeconds: process)
        }
    }

    /// The scaling run: a run, its floors, and the rerun after one day changed with its change file.
    func decade(_ corpus: URL) throws -> [Round] {
        try rounds("decade") { workspace in
            let run = try menus(corpus, days: settings.decadeDays, workspace: workspace)
            let floor = try floors(of: run, parse: ("floor-parse", ["manifest": run.manifest ?? ""]))
            // The nights with one day changed follow an unchanged rerun, as the year's do: the
            // two are compared.
            let rerun = try menus(corpus, days: settings.decadeDays, workspace: workspace)
            let changed = try oneDayNights(corpus, days: settings.decadeDays, after: rerun) {
                try menus(corpus, days: settings.decadeDays, workspace: workspace)
            }
            return Round(run: run, floor: floor, rerun: rerun, changedRerun: changed.rerun,
                         changeFileSeconds: changed.changeFile)
        }
    }

    /// Nights with one day changed on the year and on the decade in turn (`pairedNights` of
    /// each), each corpus in a workspace of its own after a full run and an unchanged rerun: the
    /// line that compares the two (issue 58) set nights measured minutes apart against each
    /// other, and this machine's speed moved in between by more than the history adds. Each pair
    /// is measured back to back, the first of a pair in turn the year's and the decade's.
    func nightsInTurn(year yearCorpus: URL, decade decadeCorpus: URL) throws -> [NightPair] {
        log("run: one day changed, \(settings.days) and \(settings.decadeDays) days in turn")
        let corpora = [(yearCorpus, settings.days), (decadeCorpus, settings.decadeDays)].map { corpus, days in
            (corpus: corpus, days: days, workspace: work.appendingPathComponent("in-turn-\(days)"))
        }
        defer {
            if !settings.keepWorkspaces { for corpus in corpora { try? FileManager.default.removeItem(at: corpus.workspace) } }
        }
        for corpus in corpora {
            for _ in 0..<2 { _ = try menus(corpus.corpus, days: corpus.days, workspace: corpus.workspace) }
        }
        let changedDays = try corpora.map { try middleDay(of: $0.days) }
        return try (0..<Self.pairedNights).map { night in
            // The page loses its item on even nights and has it back on odd ones: every night
            // changes it from the night before.
            let measure = { (index: Int) throws -> Measurement in
                let corpus = corpora[index]
                let run = { try menus(corpus.corpus, days: corpus.days, workspace: corpus.workspace) }
                return night % 2 == 0 ? try Corpora.withOneItemRemoved(from: corpus.corpus, on: changedDays[index], run)
                    : try run()
            }
            if night % 2 == 0 {
                let year = try measure(0)
                return NightPair(yearNight: year, decadeNight: try measure(1))
            }
            let decade = try measure(1)
            return NightPair(yearNight: try measure(0), decadeNight: decade)
        }
    }

    /// How many pairs of nights `nightsInTurn` measures.
    static let pairedNights = 5

    /// The recipe catalogue: a run of the dump and its floors (JSONSerialization).
    func recipes(_ dump: URL) throws -> [Round] {
        try rounds("recipes") { workspace in
            try Corpora.warm(dump)
            let run = try Child.measure("recipes", [
                "dump": dump.path, "workspace": workspace.path, "repository": repository,
            ])
            return Round(run: run, floor: try floors(of: run, parse: ("floor-json", ["dump": dump.path])))
        }
    }

    /// The large catalogue, once and without floors: its peak memory is what is compared.
    func largeRecipes(_ dump: URL) throws -> Measurement {
        log("run: \(settings.largeRecipes) recipes, once")
        try Corpora.warm(dump)
        let workspace = work.appendingPathComponent("large-recipes")
        defer { if !settings.keepWorkspaces { try? FileManager.default.removeItem(at: workspace) } }
        return try Child.measure("recipes", ["dump": dump.path, "workspace": workspace.path, "repository": repository])
    }

    /// How many nights with one day changed a round measures. One such night moves with the
    /// machine by a quarter and more; the round takes the median of several.
    static let changedNights = 3

    /// The nights with one day changed after `previous` (`ChangeFileBench.oneDayChanged` for the
    /// first, with its change file), then more of them (`nightsChanging`): the night with the
    /// median time stands for the round, with the first night's change file.
    private func oneDayNights(_ corpus: URL, days: Int, after previous: Measurement,
                              run: () throws -> Measurement) throws -> (rerun: Measurement, changeFile: Double) {
        let first = try ChangeFileBench.oneDayChanged(corpus, days: days, after: previous, settings, run: run)
        let more = try nightsChanging(corpus, on: try middleDay(of: days), count: Self.changedNights - 1, startRemoved: false,
                                      run)
        return (([first.rerun] + more).upperMedian(by: \.seconds)!, first.changeFile)
    }

    /// `count` nights in a row, each with the page of `date` changed from the night before: it
    /// loses its last menu item, then has it back, and so on (`startRemoved`: whether the first
    /// night is one without the item). The corpus is as it was afterwards.
    private func nightsChanging<T>(_ corpus: URL, on date: ServiceDate, count: Int = changedNights,
                                   startRemoved: Bool = true, _ run: () throws -> T) throws -> [T] {
        try (0..<count).map { night in
            night % 2 == (startRemoved ? 0 : 1) ? try Corpora.withOneItemRemoved(from: corpus, on: date, run) : try run()
        }
    }

    /// The day whose page a rerun with one day changed edits, as `ChangeFileBench.oneDayChanged`
    /// picks it: the middle of the corpus's days.
    private func middleDay(of days: Int) throws -> ServiceDate {
        guard let first = settings.firstDate else { throw BenchError("bad first date") }
        return first.adding(days: days / 2)
    }

    /// The start of a run with estimates, as the nightly of deploy/ (`Pipelines/nightly-ucla.yml`)
    /// starts: `commissary run --dry-run`, seven times with the user's nutrition reference and seven
    /// without one (a file that is not there, so only the pipeline is read), in turn; the medians.
    /// Nil without a binary or a reference.
    func runStart() throws -> (withReference: Double, without: Double)? {
        guard let binary = ProcessRun.binary(named: settings.commissary) else { return nil }
        let reference = NutritionReference.location(of: "usda-sr24")
        guard FileManager.default.fileExists(atPath: reference.path) else {
            log("no nutrition reference at \(reference.path) (scripts/nutrition-reference): the start of a run "
                + "with estimates is not measured")
            return nil
        }
        log("the start of a run with estimates")
        let pipeline = settings.repository.appendingPathComponent("Pipelines/nightly-ucla.yml")
        let workspace = work.appendingPathComponent("run-start")
        let missing = work.appendingPathComponent("no-reference.sqlite")
        var with: [Double] = []
        var without: [Double] = []
        for _ in 0..<7 {
            with.append(try ProcessRun.start(binary: binary, pipeline: pipeline, reference: reference,
                                             workspace: workspace, repository: settings.repository))
            without.append(try ProcessRun.start(binary: binary, pipeline: pipeline, reference: missing,
                                                workspace: workspace, repository: settings.repository))
        }
        return (median(with), median(without))
    }

    /// `commissary run` of the corpus as a process, when there is a binary to run
    /// (`ProcessRun.binary`).
    private func processRun(_ corpus: URL, days: Int, workspace: URL) throws -> Double? {
        guard let binary = ProcessRun.binary(named: settings.commissary), let first = settings.firstDate else {
            log("no commissary binary beside the bench (swift build -c release --scratch-path .build-release "
                + "--product commissary, or --commissary FILE): the process run is not measured")
            return nil
        }
        try Corpora.warm(corpus)
        return try ProcessRun.menus(binary: binary, corpus: corpus, from: first.description,
                                    to: first.adding(days: days - 1).description, workspace: workspace,
                                    repository: settings.repository)
    }

    private func menus(_ corpus: URL, days: Int, workspace: URL) throws -> Measurement {
        try Corpora.warm(corpus)
        return try Child.measure("menus", [
            "corpus": corpus.path, "from": firstDate, "days": "\(days)", "workspace": workspace.path,
            "repository": repository,
        ])
    }

    private func floors(of run: Measurement, parse: (String, [String: String])) throws -> Floor {
        log("floors for \(run.documents) documents, \(run.rows) rows")
        return Floor(
            parse: try Child.measure(parse.0, parse.1),
            insert: try Child.measure("floor-insert", ["rows": "\(run.rows)", "scratch": scratch]),
            copy: try Child.measure("floor-copy", ["file": run.snapshot ?? "", "scratch": scratch]))
    }

    private func rounds(_ name: String, _ measure: (URL) throws -> Round) throws -> [Round] {
        try (1...settings.rounds).map { round in
            let workspace = work.appendingPathComponent("\(name)-\(round)")
            log("run: \(name), round \(round) of \(settings.rounds)")
            let measured = try measure(workspace)
            if !settings.keepWorkspaces { try? FileManager.default.removeItem(at: workspace) }
            return measured
        }
    }
}
