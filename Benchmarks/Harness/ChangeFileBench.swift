import Basics
import BenchmarkCorpus
import FoodModel
import Foundation
import Snapshot

/// `commissary-bench changes`: the change file of the night one day changed (issue 36), computed
/// both ways on the same two snapshots, in turn, in one process: every row compared, and only the
/// menu rows of the days staging did not keep, the tables it kept whole not at all (what a
/// publish does now). Each way is the change set, its JSON and its gzip, as the publish stage
/// makes them; the two files must be equal.
enum ChangeFileBench {
    static func run(_ settings: Settings) throws {
        let corpus = try Corpora.menus(days: settings.days, settings: settings) {
            try SourceMenus(datasetFolder: settings.dataset)
        }
        guard let first = settings.firstDate else { throw BenchError("bad first date") }
        let work = FileManager.default.temporaryDirectory
            .appendingPathComponent("commissary-bench-changes-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: work) }
        let values = [
            "corpus": corpus.path, "from": first.description, "days": "\(settings.days)", "workspace": work.path,
            "repository": settings.repository.path,
        ]
        try Corpora.warm(corpus)
        let night = try Child.measure("menus", values)
        let changedDay = first.adding(days: settings.days / 2)
        let changed = try Corpora.withOneItemRemoved(from: corpus, on: changedDay) { try Child.measure("menus", values) }
        guard let old = night.snapshot.map(URL.init(fileURLWithPath:)), let new = changed.snapshot.map(URL.init(fileURLWithPath:))
        else { throw BenchError("changes: a run published nothing") }
        let unchanged = keptDays(from: old, first: first, days: settings.days, changed: changedDay,
                                 tables: changed.keptTables)
        var full: [Double] = []
        var restricted: [Double] = []
        for round in 0..<(settings.rounds * 3) {
            for restrict in round % 2 == 0 ? [false, true] : [true, false] {
                let seconds = try once(from: old, to: new, unchanged: restrict ? unchanged : nil)
                if restrict { restricted.append(seconds) } else { full.append(seconds) }
            }
        }
        guard try ChangeSet.between(old, new).json() == ChangeSet.between(old, new, unchanged: unchanged).json() else {
            throw BenchError("changes: the two ways gave different change sets")
        }
        Swift.print("commissary-bench changes: \(settings.days) days, one day changed (\(changedDay)), "
                    + "\(full.count) times each way, alternated; load average \(Bench.loadAverage())")
        Swift.print("every row compared:        median \(fixed(median(full), 4)) s, least \(fixed(full.min() ?? .nan, 4)) s")
        Swift.print("what the night compares:   median \(fixed(median(restricted), 4)) s, least \(fixed(restricted.min() ?? .nan, 4)) s")
        Swift.print("the rerun with one day changed: \(fixed(changed.seconds, 3)) s, its publish stage \(fixed(changed.stage("publish") ?? .nan, 3)) s")
    }

    /// What a rerun kept from `old` when one day's page changed: every other day of the corpus,
    /// and the `tables` it says it kept whole (`Measurement.keptTables`), which its own change
    /// file did not compare either.
    static func keptDays(from old: URL, first: ServiceDate, days: Int, changed: ServiceDate, tables: [String])
        -> UnchangedDays {
        UnchangedDays(snapshot: old.lastPathComponent,
                      dates: Set((0..<days).map { first.adding(days: $0) }).subtracting([changed]), tables: Set(tables))
    }

    /// One change file as the publish stage makes it: the set, its JSON and its gzip, in seconds.
    static func once(from old: URL, to new: URL, unchanged: UnchangedDays?) throws -> Double {
        let started = now()
        let changes = try ChangeSet.between(old, new, unchanged: unchanged)
        _ = try Gzip.compress(Data(changes.json().utf8), place: "bench")
        return now() - started
    }

    /// The rerun (`run`) of `corpus` after one day's page changed, following `previous` (the night
    /// before, in the same workspace), and the change file it published, timed apart (`nightly`).
    static func oneDayChanged(_ corpus: URL, days: Int, after previous: Measurement, _ settings: Settings,
                              run: () throws -> Measurement) throws -> (rerun: Measurement, changeFile: Double) {
        guard let first = settings.firstDate else { throw BenchError("bad first date") }
        let middle = first.adding(days: days / 2)
        let changed = try Corpora.withOneItemRemoved(from: corpus, on: middle, run)
        guard let old = previous.snapshot.map(URL.init(fileURLWithPath:)), let new = changed.snapshot.map(URL.init(fileURLWithPath:))
        else { throw BenchError("a run published nothing") }
        let unchanged = keptDays(from: old, first: first, days: days, changed: middle, tables: changed.keptTables)
        // The file beside the snapshot is no witness: `PipelineScenario` writes the snapshot's own
        // against itself there, timed for the other target. Every row compared must give the same.
        guard try ChangeSet.between(old, new, unchanged: unchanged).json() == ChangeSet.between(old, new).json() else {
            throw BenchError("the change file of the changed days is not that of every row, beside \(new.lastPathComponent)")
        }
        return (changed, try nightly(from: old, to: new, unchanged: unchanged))
    }

    /// The median of `times` change files of the night a rerun with one day changed published
    /// (`new`) against the one before (`old`), in this process: what that rerun's publish stage
    /// spent on its change file, measured apart from it.
    static func nightly(from old: URL, to new: URL, unchanged: UnchangedDays, times: Int = 5) throws -> Double {
        median(try (0..<times).map { _ in try once(from: old, to: new, unchanged: unchanged) })
    }
}

/// The middle value (`upperMedian`); NaN for none.
func median(_ values: [Double]) -> Double { values.upperMedian { $0 } ?? .nan }
