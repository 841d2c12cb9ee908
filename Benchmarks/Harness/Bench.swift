import BenchmarkCorpus
import FoodModel
import Foundation

/// The parent: makes sure the corpora exist, measures every scenario and floor in a child,
/// and prints the report.
enum Bench {
    static func run(_ settings: Settings) throws {
        let loadBefore = loadAverage()
        let work = FileManager.default.temporaryDirectory
            .appendingPathComponent("commissary-bench-\(ProcessInfo.processInfo.processIdentifier)")
        defer { if !settings.keepWorkspaces { try? FileManager.default.removeItem(at: work) } }
        if settings.liveNightsOnly {
            let nights = try LiveNights.run(settings: settings, work: work)
            Swift.print("commissary-bench: live nights, \(ProcessInfo.processInfo.activeProcessorCount) cores, "
                        + "load average \(loadBefore) at start, \(loadAverage()) at end")
            LiveNights.print(nights)
            return
        }
        let corpora = try corpora(settings)
        let runs = try ScenarioRuns(settings: settings, work: work)
        let year = try runs.year(corpora.year)
        let short = try runs.short(corpora.short)
        let decade = try runs.decade(corpora.decade)
        let inTurn = settings.decadeDays > settings.days
            ? try runs.nightsInTurn(year: corpora.year, decade: corpora.decade) : []
        let recipes = try runs.recipes(corpora.dump)
        let large = try runs.largeRecipes(corpora.largeDump)
        let start = try runs.runStart()
        let live = try LiveNights.run(settings: settings, work: work)

        Report(settings: settings, load: (loadBefore, loadAverage()),
               year: Scenario(year), short: Scenario(short), decade: Scenario(decade), nightsInTurn: inTurn,
               recipes: Scenario(recipes), largeRecipes: large, runStart: start).print()
        Swift.print("")
        LiveNights.print(live)
    }

    /// Every corpus the scenarios read, generated on first use; the 2016 dataset they are
    /// rendered from is read only if one is missing, and let go once they are there.
    private static func corpora(_ settings: Settings) throws
        -> (year: URL, short: URL, decade: URL, dump: URL, largeDump: URL) {
        var source: SourceMenus?
        func loadSource() throws -> SourceMenus {
            if let source { return source }
            let loaded = try SourceMenus(datasetFolder: settings.dataset)
            source = loaded
            return loaded
        }
        return (try Corpora.menus(days: settings.days, settings: settings, source: loadSource),
                try Corpora.menus(days: settings.shortDays, settings: settings, source: loadSource),
                try Corpora.menus(days: settings.decadeDays, settings: settings, source: loadSource),
                try Corpora.recipes(count: settings.recipes, settings: settings),
                try Corpora.recipes(count: settings.largeRecipes, settings: settings))
    }

    /// The 1-minute load average, printed with the figures: other work on the machine slows
    /// the run and the floors alike, so ratios hold better than seconds.
    static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
            .split(separator: " ").first.map(String.init) ?? "?"
    }
}

/// One round of a scenario: the run, its floors measured right after it, and for the year the
/// unchanged rerun and the rerun after one day's page changed.
struct Round {
    var run: Measurement
    var floor: Floor
    var rerun: Measurement?
    var changedRerun: Measurement?
    /// The run's fetch path on its own, with its floor (`FetchAlone`); for the year only.
    var fetchAlone: Measurement?
    /// The change file `changedRerun` published, timed apart from it (`ChangeFileBench.nightly`).
    var changeFileSeconds: Double?
    /// `commissary run` of the same corpus as a process, default outputs on (`ProcessRun`); for
    /// the year only.
    var processSeconds: Double?
    /// The same process the night after, with one day's page changed; for the year only.
    var processChangedSeconds: Double?

    var ratio: Double { run.seconds / floor.endToEnd }
}

/// A night with one day changed on the year and one on the decade, measured back to back
/// (`ScenarioRuns.nightsInTurn`).
struct NightPair {
    var yearNight: Measurement
    var decadeNight: Measurement

    var year: Double { yearNight.seconds }
    var decade: Double { decadeNight.seconds }
    var ratio: Double { decade / year }

    /// What the decade's night spent beyond the year's, in seconds for each 100 more days of
    /// history: the publish stage, the write stage (the days kept, much of it while the
    /// partitions were read), and the rest of the night (opening, the partitions taken from the
    /// parse cache, compute, check): where a night that is to stop growing with its history
    /// must cut.
    func extraPerHundredDays(more days: Int) -> (publish: Double, write: Double, rest: Double) {
        let publish = (decadeNight.stage("publish") ?? 0) - (yearNight.stage("publish") ?? 0)
        let write = (decadeNight.stage("write") ?? 0) - (yearNight.stage("write") ?? 0)
        let scale = 100 / Double(max(1, days))
        return (publish * scale, write * scale, (decade - year - publish - write) * scale)
    }
}

/// A scenario's rounds, summed up by the round whose run-to-floor ratio is the median: its run
/// and floors fill the tables, so every figure of a line comes from one measured pair. This VM's
/// speed drifts by ±15% and more from minute to minute; a single pair could land on either side
/// of a target by that alone.
struct Scenario {
    var rounds: [Round]

    init(_ rounds: [Round]) {
        self.rounds = rounds
    }

    /// The round whose ratio to its floor is the median (`upperMedian`).
    var median: Round {
        rounds.upperMedian(by: \.ratio)!
    }

    /// The lowest and highest ratio over the rounds.
    var ratioRange: (low: Double, high: Double) {
        let ratios = rounds.map(\.ratio)
        return (ratios.min() ?? .nan, ratios.max() ?? .nan)
    }

    /// The highest peak of any round: memory is judged by the worst case, not the middle.
    var peakKB: Int { rounds.map(\.run.peakKB).max() ?? 0 }

    /// The median of the rounds' wall times (for scaling, which compares two scenarios).
    var medianSeconds: Double {
        rounds.map(\.run.seconds).upperMedian { $0 }!
    }

    /// The unchanged rerun whose share of its own round's run is the median, with that share;
    /// nil for a scenario measured without reruns.
    var medianRerun: (rerun: Measurement, fraction: Double)? { medianShare(of: \.rerun) }

    /// The same for the rerun after one day's page changed.
    var medianChangedRerun: (rerun: Measurement, fraction: Double)? { medianShare(of: \.changedRerun) }

    /// The change file of the rerun with one day changed whose share of that rerun is the
    /// median, with the rerun's seconds and the share; nil without such reruns.
    var medianChangeFile: (seconds: Double, rerun: Double, fraction: Double)? {
        medianShare { round in round.changeFileSeconds.flatMap { file in round.changedRerun.map { (file, $0.seconds) } } }
            .map { ($0.part, $0.whole, $0.fraction) }
    }

    /// The night with one day changed as a process (`Round.processChangedSeconds`) whose share of
    /// its own round's full run as a process is the median: the two are measured minutes apart,
    /// so the share is judged round by round, as the reruns' are, rather than in the round the
    /// in-process run picks. Nil without process runs.
    var medianProcessNight: Share? {
        medianShare { round in round.processChangedSeconds.flatMap { night in round.processSeconds.map { (night, $0) } } }
    }

    /// The full run as a process whose ratio to its own round's run and page in process is the
    /// median; nil without process runs.
    var medianProcessCost: Share? {
        medianShare { round in round.processSeconds.map { ($0, round.run.seconds + (round.run.reportSeconds ?? 0)) } }
    }

    /// A part of a whole measured in each round, summed up by the round whose share is the
    /// median, with the lowest and highest share of any round.
    struct Share {
        var part: Double
        var whole: Double
        var low: Double
        var high: Double

        var fraction: Double { part / whole }
    }

    /// The median of the rounds' shares `measure` gives (rounds it gives none left out,
    /// `upperMedian`), with the lowest and highest.
    private func medianShare(_ measure: (Round) -> (part: Double, whole: Double)?) -> Share? {
        let shares = rounds.compactMap(measure).map { (part: $0.part, whole: $0.whole, fraction: $0.part / $0.whole) }
        guard let middle = shares.upperMedian(by: \.fraction) else { return nil }
        let fractions = shares.map(\.fraction)
        return Share(part: middle.part, whole: middle.whole, low: fractions.min() ?? .nan, high: fractions.max() ?? .nan)
    }

    private func medianShare(of rerun: KeyPath<Round, Measurement?>) -> (rerun: Measurement, fraction: Double)? {
        rounds.compactMap { round in round[keyPath: rerun].map { (rerun: $0, fraction: $0.seconds / round.run.seconds) } }
            .upperMedian(by: \.fraction)
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

    /// The floor of each stage that has one; compute and check have none.
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
