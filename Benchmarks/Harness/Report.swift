import Foundation

/// The printed figures: scenarios side by side, stages against their floors, and the issue's
/// targets marked met or missed from these same numbers.
struct Report {
    let settings: Settings
    let load: (before: String, after: String)
    let year: Scenario
    /// The small run (`shortDays`): its ratio to its floor against the year's.
    let short: Scenario
    let decade: Scenario
    /// Nights with one day changed on both, in turn; empty when the decade is not longer.
    let nightsInTurn: [NightPair]
    let recipes: Scenario
    /// The large catalogue's one run, without floors.
    let largeRecipes: Measurement
    /// The start of a run with estimates as a process, with its nutrition reference and without
    /// (`ScenarioRuns.runStart`); nil when not measured.
    let runStart: (withReference: Double, without: Double)?

    static let stages = ["fetch", "parse", "compute", "write", "check", "publish"]

    func print() {
        Swift.print("commissary-bench: release build, \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(load.before) at start, \(load.after) at end")
        Swift.print("corpus: \(settings.days) and \(settings.decadeDays) days of menu pages rendered from the 2016 UCLA dataset; \(settings.recipes) and \(settings.largeRecipes) recipes from the 442 real meals")
        Swift.print("each scenario measured in \(settings.rounds) rounds (a run, then its floors); every line shows the round with the median ratio to its floor, and the range over all rounds; the \(settings.largeRecipes) recipes once, without floors")
        Swift.print("")
        scenarios()
        Swift.print("")
        stageTable()
        Swift.print("")
        targets()
    }

    private func scenarios() {
        Swift.print(row(["scenario", "wall s", "cpu s", "peak MB", "docs", "MB in", "pages/s", "MB/s", "rows", "rows/s write",
                         "floor s", "× floor", "× range"]))
        let lines: [(String, Measurement, Floor?, Scenario?)] = [
            ("\(settings.days) days of menus", year.median.run, year.median.floor, year),
        ] + (year.medianRerun.map { [("unchanged rerun", $0.rerun, nil, nil)] } ?? [])
            + (year.medianChangedRerun.map { [("one day changed", $0.rerun, nil, nil)] } ?? []) + [
            ("\(settings.shortDays) days of menus", short.median.run, short.median.floor, short),
            ("\(settings.decadeDays) days of menus", decade.median.run, decade.median.floor, decade),
            ("\(settings.recipes) recipes", recipes.median.run, recipes.median.floor, recipes),
            ("\(settings.largeRecipes) recipes", largeRecipes, nil, nil),
        ]
        for (name, run, floor, scenario) in lines {
            let write = run.stage("write") ?? 0
            Swift.print(row([
                name, fixed(run.seconds, 2), fixed(run.cpuSeconds, 2), fixed(Double(run.peakKB) / 1024, 0),
                "\(run.documents)", fixed(Double(run.bytes) / 1e6, 1),
                fixed(Double(run.documents) / run.seconds, 0), fixed(Double(run.bytes) / 1e6 / run.seconds, 1),
                "\(run.rows)", fixed(Double(run.rows) / write, 0),
                floor.map { fixed($0.endToEnd, 2) } ?? "-",
                floor.map { fixed(run.seconds / $0.endToEnd, 2) } ?? "-",
                scenario.map { "\(fixed($0.ratioRange.low, 2))–\(fixed($0.ratioRange.high, 2))" } ?? "-",
            ]))
        }
        Swift.print("floor = libxml2 (or JSONSerialization) parsing the same bytes + SQLite inserting the same number of rows, one thread each")
    }

    private func stageTable() {
        Swift.print(row(["stage", "year s", "floor s", "×", "rerun s", "1 day s", "decade s", "floor s", "×", "1 day s",
                         "recipes s", "floor s", "×"]))
        for stage in Self.stages + ["total"] {
            func cells(_ run: Measurement, _ floor: Floor) -> [String] {
                let seconds = stage == "total" ? run.seconds : run.stage(stage)
                let bottom = stage == "total" ? floor.endToEnd : floor.stage(stage)
                return [seconds.map { fixed($0, 3) } ?? "-", bottom.map { fixed($0, 3) } ?? "-",
                        ratio(seconds, bottom)]
            }
            func rerunCells(_ reruns: [Measurement?]) -> [String] {
                reruns.map { rerun in (stage == "total" ? rerun?.seconds : rerun?.stage(stage)).map { fixed($0, 3) } ?? "-" }
            }
            Swift.print(row([stage] + cells(year.median.run, year.median.floor)
                + rerunCells([year.medianRerun?.rerun, year.medianChangedRerun?.rerun])
                + cells(decade.median.run, decade.median.floor) + rerunCells([decade.medianChangedRerun?.rerun])
                + cells(recipes.median.run, recipes.median.floor)))
        }
        Swift.print("stage floors: fetch = reading the same files; parse = libxml2 parse only (recipes: JSONSerialization); write = one prepared INSERT in one transaction; publish = copying the snapshot's bytes + fsync")
        Swift.print("rerun = the same inputs again; 1 day (the year's, then the decade's) = a rerun after one day's page lost a menu item (the others from the parse cache), "
                    + "the median of \(ScenarioRuns.changedNights) such nights in a row (the item lost, back, lost), after an unchanged rerun")
    }

    private func targets() {
        let yearMB = Double(year.peakKB) / 1024
        let decadeMB = Double(decade.peakKB) / 1024
        let rerunFraction = year.medianRerun?.fraction ?? .nan
        let scale = decade.medianSeconds / year.medianSeconds
        let days = Double(settings.decadeDays) / Double(settings.days)
        Swift.print("targets (issue 9): ratios and the rerun are medians of the rounds, memory the highest peak of any round")
        verdict(year.median.ratio <= 2,
                "\(settings.days) days end-to-end within 2× the floor: \(fixed(year.median.ratio, 2))×\(spread(year))")
        verdict(yearMB < 300 && decadeMB < 300 && decadeMB <= yearMB * 1.1,
                "peak memory under 300 MB and the same for \(settings.days) and \(settings.decadeDays) days: \(fixed(yearMB, 0)) MB and \(fixed(decadeMB, 0)) MB")
        verdict(rerunFraction < 0.1, "unchanged rerun under 10% of a full run: \(fixed(rerunFraction * 100, 1))%")
        if let changed = year.medianChangedRerun {
            verdict(changed.fraction < 1.0 / 3,
                    "a rerun with one day's page changed under a third of a full run (issue 18): "
                        + "\(fixed(changed.fraction * 100, 1))%")
            verdict(changed.fraction <= 0.1, "a night with one day changed at most 10% of a full run (issue 58): "
                        + "\(settings.days) days \(fixed(changed.fraction * 100, 1))%")
        }
        // The same night over more history (the decade corpus; `--decade-days 1095` for the
        // issue's three years): what one changed day costs should not grow with the days kept.
        // Judged on the nights measured in turn, each pair in the same minute; the rounds' own
        // nights, minutes apart, are printed beside them.
        if !nightsInTurn.isEmpty {
            let middle = nightsInTurn.upperMedian(by: \.ratio)!
            let range = { (values: [Double], digits: Int) in
                "\(fixed(values.min() ?? .nan, digits))–\(fixed(values.max() ?? .nan, digits))"
            }
            verdict(middle.ratio <= 1.5, "one day changed costs the same whatever the history (issue 58): "
                        + "\(nightsInTurn.count) nights of each in turn, the median pair \(settings.decadeDays) days "
                        + "\(fixed(middle.decade, 3)) s against \(settings.days) days \(fixed(middle.year, 3)) s: "
                        + "\(fixed(middle.ratio, 2))× (pairs \(range(nightsInTurn.map(\.ratio), 2))×; "
                        + "nights \(range(nightsInTurn.map(\.decade), 3)) s against \(range(nightsInTurn.map(\.year), 3)) s; target 1.5×)")
            let extra = middle.extraPerHundredDays(more: settings.decadeDays - settings.days)
            note("where the median pair's longer history went, in ms for each 100 more days: publish "
                 + "\(fixed(extra.publish * 1000, 1)) (verification, report page, change file), write \(fixed(extra.write * 1000, 1)) "
                 + "(the days kept, much of it while the partitions are read), the rest \(fixed(extra.rest * 1000, 1)) "
                 + "(opening, the partitions from the parse cache, compute, check)")
        }
        if let day = year.medianChangedRerun?.rerun.seconds, let longer = decade.medianChangedRerun?.rerun.seconds,
           settings.decadeDays > settings.days {
            note("the same from the rounds' own nights, measured minutes apart: \(settings.decadeDays) days "
                 + "\(fixed(longer, 3)) s against \(settings.days) days \(fixed(day, 3)) s: \(fixed(longer / day, 2))×")
        }
        // Time in proportion to days holds from the year up: a run shorter than the year pays the
        // start and the publication over fewer days (`--quick --days 365` leaves 200 "decade" days).
        if settings.decadeDays > settings.days {
            verdict(scale <= days * 1.1,
                    "\(settings.decadeDays) days at most \(fixed(days * 1.1, 1))× \(settings.days) days: \(fixed(scale, 2))×")
        } else {
            Swift.print("  n/a    time in proportion to days: \(settings.decadeDays) days is not more than \(settings.days) "
                        + "(give --decade-days above --days): \(fixed(scale, 2))×")
        }
        verdict(recipes.median.ratio <= 2,
                "\(settings.recipes) recipes within 2× their floor: \(fixed(recipes.median.ratio, 2))×\(spread(recipes))")
        let recipesMB = Double(recipes.peakKB) / 1024
        let largeMB = Double(largeRecipes.peakKB) / 1024
        verdict(recipesMB < 300 && largeMB < 300 && largeMB <= recipesMB * 1.1,
                "recipes in bounded memory (issue 20): peak under 300 MB and the same for \(settings.recipes) and "
                    + "\(settings.largeRecipes) recipes: \(fixed(recipesMB, 0)) MB and \(fixed(largeMB, 0)) MB")
        if let changes = year.median.run.changesSeconds, let decadeChanges = decade.median.run.changesSeconds {
            verdict(changes < year.median.run.seconds / 10 && decadeChanges < decade.median.run.seconds / 10,
                    "change file under 10% of its run (issue 36): \(settings.days) days \(fixed(changes, 3)) s "
                        + "(\(fixed(100 * changes / year.median.run.seconds, 1))% of the run), \(settings.decadeDays) days "
                        + "\(fixed(decadeChanges, 3)) s (\(fixed(100 * decadeChanges / decade.median.run.seconds, 1))%)")
        }
        if let file = year.medianChangeFile, let decadeFile = decade.medianChangeFile {
            func share(_ days: Int, _ measured: (seconds: Double, rerun: Double, fraction: Double)) -> String {
                "\(days) days \(fixed(measured.seconds, 3)) s (\(fixed(100 * measured.fraction, 1))% of \(fixed(measured.rerun, 3)) s)"
            }
            verdict(file.fraction < 0.1 && decadeFile.fraction < 0.1,
                    "change file under 10% of a one-day rerun (issue 36): \(share(settings.days, file)), "
                        + share(settings.decadeDays, decadeFile))
        }
        issue38Targets()
        let processes = [(settings.shortDays, short), (settings.days, year)].compactMap { days, scenario in
            scenario.medianProcessCost.map { (days: days, cost: $0) }
        }
        if !processes.isEmpty, let binary = ProcessRun.binary(named: settings.commissary) {
            note("the process lines time \(binary.path)" + (settings.commissary == nil
                ? ", built beside the bench; the nightly of deploy/ runs the one scripts/install links with the Swift "
                    + "runtime inside, which starts faster (pass it with --commissary)" : ""))
        }
        if !processes.isEmpty {
            verdict(processes.allSatisfy { $0.cost.fraction <= 1.25 },
                    "commissary run as a process (as the nightly of deploy/) within 1.25× the run and its page in process (issue 58), "
                        + "the median of the rounds' ratios: "
                        + processes.map { "\($0.days) days \(fixed($0.cost.part, 2)) s against \(fixed($0.cost.whole, 2)) s: "
                            + "\(fixed($0.cost.fraction, 2))× (rounds \(fixed($0.cost.low, 2))–\(fixed($0.cost.high, 2))×)" }
                        .joined(separator: ", "))
        }
        if let start = runStart {
            note("the start of a run with estimates, as a process (commissary run Pipelines/nightly-ucla.yml --dry-run: "
                 + "the pipeline read, with its nutrition reference's foods' ids and its matching tables, nothing fetched "
                 + "and nothing estimated; medians of 7 in turn): \(fixed(start.withReference, 3)) s, of which "
                 + "\(fixed(start.withReference - start.without, 3)) s the reference's ids and its tables "
                 + "(\(fixed(start.without, 3)) s without a reference)")
        }
        if let night = year.medianProcessNight {
            verdict(night.fraction <= 0.1,
                    "a night with one day changed at most 10% of a full run, as a process run as the nightly of deploy/ "
                        + "(issue 58), the median of the rounds' shares: \(settings.days) days \(fixed(night.part, 3)) s of "
                        + "\(fixed(night.whole, 3)) s: \(fixed(100 * night.fraction, 1))% (rounds \(fixed(100 * night.low, 1))–"
                        + "\(fixed(100 * night.high, 1))%)")
        }
        if let page = year.median.run.reportSeconds, let decadePage = decade.median.run.reportSeconds {
            // Timed against the night before as a new build finds it (`PipelineScenario`).
            verdict(page <= year.median.run.seconds / 10 && decadePage <= decade.median.run.seconds / 10,
                    "report page at most 10% of its run, after a new build (issue 58): \(settings.days) days "
                        + "\(fixed(100 * page / year.median.run.seconds, 1))%, \(settings.decadeDays) days "
                        + "\(fixed(100 * decadePage / decade.median.run.seconds, 1))%")
        }
        if let page = year.median.run.reportEveryDaySeconds, let decadePage = decade.median.run.reportEveryDaySeconds {
            note("report page with every day's items compared (against a snapshot from before items digests): "
                 + "\(settings.days) days \(fixed(page, 2)) s (\(fixed(100 * page / year.median.run.seconds, 1))% of the run), "
                 + "\(settings.decadeDays) days \(fixed(decadePage, 2)) s "
                 + "(\(fixed(100 * decadePage / decade.median.run.seconds, 1))%)")
        }
        if let page = year.median.run.reportSeconds, let decadePage = decade.median.run.reportSeconds {
            verdict(page < year.median.run.seconds / 2,
                    "report page well under its run (issue 22): \(settings.days) days \(fixed(page, 2)) s "
                        + "(\(fixed(100 * page / year.median.run.seconds, 0))% of the run), \(settings.decadeDays) days "
                        + "\(fixed(decadePage, 2)) s (\(fixed(100 * decadePage / decade.median.run.seconds, 0))%)")
        }
    }

    /// The fetch stage against reading the same files, and the small run's ratio against the
    /// year's, with what one document costs in each.
    private func issue38Targets() {
        let run = year.median.run
        let fetch = run.stage("fetch") ?? .nan
        let floor = year.median.floor.stage("fetch") ?? .nan
        func perDocument(_ seconds: Double, _ documents: Int) -> String { fixed(seconds * 1000 / Double(max(documents, 1)), 3) }
        // The same path on its own, one document after another with nothing beside it, against
        // the same files read back to back (`FetchAlone`): what a document's fetch costs itself.
        // Beside it, reading, hashing and appending the same bytes: what keeping them costs at least.
        let alone = year.median.fetchAlone.flatMap { alone in
            alone.readSeconds.map { floor in
                "; its path on its own: \(fixed(alone.seconds / floor, 1))×, "
                    + "\(perDocument(alone.seconds, alone.documents)) ms against \(perDocument(floor, alone.documents)) ms"
                    + (alone.hashSeconds.map {
                        ", \(perDocument($0, alone.documents)) ms to read and hash them (\(fixed($0 / floor, 1))× the reading)"
                    } ?? "")
                    + (alone.keepSeconds.map {
                        ", \(perDocument($0, alone.documents)) ms to read, hash and append them (\(fixed($0 / floor, 1))×)"
                    } ?? "")
            }
        } ?? ""
        // Issue 58 retired the 4× target: the stage keeps SHA-256 provenance and offline replay,
        // so the keeping floor beside the reading one is what it is weighed against.
        note("fetch stage against its floor on \(settings.days) days (issue 38; its 4× target retired by issue 58): "
                + "\(fixed(fetch / floor, 1))×, "
                + "\(perDocument(fetch, run.documents)) ms a document against \(perDocument(floor, run.documents)) ms"
                + alone)
        let small = short.median.run
        verdict(short.median.ratio <= 1.25 * year.median.ratio,
                "\(settings.shortDays) days end-to-end within 1.25× the year's ratio to its floor (issue 38): "
                    + "\(fixed(short.median.ratio, 2))× against \(fixed(year.median.ratio, 2))×; a document costs "
                    + "\(perDocument(small.seconds, small.documents)) ms end to end in \(settings.shortDays) days, "
                    + "\(perDocument(run.seconds, run.documents)) ms in \(settings.days)")
    }

    /// The range over the rounds, after a median, when there was more than one round.
    private func spread(_ scenario: Scenario) -> String {
        guard scenario.rounds.count > 1 else { return "" }
        let range = scenario.ratioRange
        return " (rounds \(fixed(range.low, 2))–\(fixed(range.high, 2)))"
    }

    /// A figure printed beside the targets, without one of its own.
    private func note(_ text: String) {
        Swift.print("  info   \(text)")
    }

    private func verdict(_ met: Bool, _ text: String) {
        Swift.print("  \(met ? "met   " : "MISSED") \(text)")
    }

    private func ratio(_ value: Double?, _ floor: Double?) -> String {
        guard let value, let floor, floor > 0 else { return "-" }
        return fixed(value / floor, 1)
    }

}

/// A number with `digits` decimals, or "-" when it is not finite.
func fixed(_ value: Double, _ digits: Int) -> String {
    value.isFinite ? String(format: "%.\(digits)f", value) : "-"
}

/// One line of a table: the first cell left-aligned in 18 columns, the others right-aligned in 10.
func row(_ cells: [String]) -> String {
    guard let first = cells.first else { return "" }
    return first.padding(toLength: 18, withPad: " ", startingAt: 0)
        + cells.dropFirst().map { String(repeating: " ", count: max(0, 10 - $0.count)) + $0 }.joined(separator: " ")
}
