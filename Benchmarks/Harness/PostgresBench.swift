import BenchmarkCorpus
import FoodModel
import Foundation
import PostgresTarget
import TestSupport

/// `commissary-bench postgres`: what publishing into PostgreSQL adds to a night (issue 36), on a
/// private server on 127.0.0.1 (`PrivatePostgres`, as the tests start one): the year's run and
/// its rerun with one day changed, in three workspaces measured in turn in each round, so all
/// three see the machine in the same minutes: SQLite alone, `publish: postgres:` without
/// readers, and with `readers: [anon, authenticated]` and `row_level_security: true`. Both
/// PostgreSQL targets record the change feed.
enum PostgresBench {
    static let variable = "COMMISSARY_BENCH_PG_URL"

    /// How a scenario publishes: its `publish: postgres:`, or nil for SQLite alone.
    static func target(_ name: String) throws -> PostgresTarget? {
        switch name {
        case "none": nil
        case "plain": PostgresTarget(addressVariable: variable, schema: "bench_plain")
        case "readers": PostgresTarget(addressVariable: variable, schema: "bench_readers", readers: ["anon", "authenticated"],
                                       rowLevelSecurity: true)
        default: throw BenchError("unknown postgres target \(name)")
        }
    }

    private struct Row {
        var round: Int
        var target: String
        var run: Measurement
        var changed: Measurement
    }

    static func run(_ settings: Settings) throws {
        let loadBefore = Bench.loadAverage()
        let corpus = try Corpora.menus(days: settings.days, settings: settings) {
            try SourceMenus(datasetFolder: settings.dataset)
        }
        guard let first = settings.firstDate else { throw BenchError("bad first date") }
        let server = try PrivatePostgres()
        defer { server.stop() }
        setenv(variable, server.url, 1)
        try PostgresConnection(url: server.url, place: "bench").execute("CREATE ROLE anon NOLOGIN; CREATE ROLE authenticated NOLOGIN")
        let work = FileManager.default.temporaryDirectory
            .appendingPathComponent("commissary-bench-postgres-\(ProcessInfo.processInfo.processIdentifier)")
        defer { if !settings.keepWorkspaces { try? FileManager.default.removeItem(at: work) } }
        var rows: [Row] = []
        for round in 1...settings.rounds {
            for target in ["none", "plain", "readers"] {
                log("postgres: round \(round) of \(settings.rounds), \(target)")
                let values = [
                    "corpus": corpus.path, "from": first.description, "days": "\(settings.days)",
                    "workspace": work.appendingPathComponent("\(target)-\(round)").path,
                    "repository": settings.repository.path, "postgres": target,
                ]
                try Corpora.warm(corpus)
                let run = try Child.measure("menus", values)
                let changed = try Corpora.withOneItemRemoved(from: corpus, on: first.adding(days: settings.days / 2)) {
                    try Child.measure("menus", values)
                }
                rows.append(Row(round: round, target: target, run: run, changed: changed))
            }
        }
        Swift.print("commissary-bench postgres: \(settings.days) days, \(settings.rounds) round(s), "
                    + "load average \(loadBefore) at start, \(Bench.loadAverage()) at end")
        print(rows)
    }

    /// One line per run, then the medians of each target and what PostgreSQL adds to them.
    private static func print(_ rows: [Row]) {
        Swift.print(row(["round", "postgres", "run s", "publish s", "one day changed s", "its publish s"]))
        for measured in rows {
            Swift.print(row(["\(measured.round)", measured.target, fixed(measured.run.seconds, 3),
                             fixed(measured.run.stage("publish") ?? .nan, 3), fixed(measured.changed.seconds, 3),
                             fixed(measured.changed.stage("publish") ?? .nan, 3)]))
        }
        func median(_ target: String, _ seconds: (Row) -> Double) -> Double {
            rows.filter { $0.target == target }.map(seconds).upperMedian { $0 } ?? .nan
        }
        let alone = (median("none") { $0.run.seconds }, median("none") { $0.changed.seconds })
        for target in ["none", "plain", "readers"] {
            let run = median(target) { $0.run.seconds }
            let changed = median(target) { $0.changed.seconds }
            Swift.print("median \(target): run \(fixed(run, 3)) s (+\(fixed((run / alone.0 - 1) * 100, 1))% over SQLite alone), "
                        + "one day changed \(fixed(changed, 3)) s (+\(fixed((changed / alone.1 - 1) * 100, 1))%)")
        }
        Swift.print("PostgreSQL is sent after the stages (not in the publish column): its cost is the run's difference")
    }
}
