import FoodModel
import Foundation
import GRDB
import Snapshot
import SourceAdapters
import Testing
import TestSupport

/// The `commissary` binary as scripts and users see it: exit statuses, JSON events on a pipe,
/// one-line errors on standard error.
@Suite struct CommandLineTests {
    private func commissary(_ arguments: [String]) async throws -> CommissaryProcess.Outcome {
        try await CommissaryProcess.run(arguments)
    }

    /// Not on a terminal, the events are JSON lines on standard error and standard output holds
    /// the summary alone.
    @Test func aRunOnAPipeWritesOneJSONObjectPerLineThenQueriesWork() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let sample = Paths.pipelines.appendingPathComponent("sample.yml").path
        let run = try await commissary(["run", sample, "--workspace", workspace.path])
        #expect(run.status == 0)
        #expect(run.output.split(separator: "\n").contains { $0.hasPrefix("Published ") }, "\(run.output)")
        #expect(!run.output.contains("{"), "\(run.output)")
        let lines = run.error.split(separator: "\n")
        let events = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(events.first?["event"] as? String == "run_started")
        #expect(events.last?["event"] as? String == "run_finished")
        #expect(events.contains { $0["event"] as? String == "published" })
        #expect(events.filter { $0["event"] as? String == "partition_finished" }.count == 5)

        let csv = try await commissary([
            "query", "latest", "SELECT restaurant, count(*) AS items FROM v_menu WHERE date = '2026-10-10' "
                + "GROUP BY restaurant ORDER BY restaurant", "--format", "csv", "--workspace", workspace.path,
        ])
        #expect(csv.status == 0)
        // SampleData/README.md: 2026-10-10 Brunch 6 + 4 Covel, 6 + 7 De Neve, 9 + 5 Bruin Plate;
        // the sample's places file names Covel Epicuria at Covel.
        #expect(csv.output == "restaurant,items\r\nBruin Plate,14\r\nDe Neve,13\r\nEpicuria at Covel,10\r\n")

        let check = try await commissary(["check", "latest-sample", "--workspace", workspace.path])
        #expect(check.status == 0)
        #expect(check.output.contains("sound"))
    }

    /// A second run on the same SampleData: exit status 0, progress lines that say each partition
    /// is unchanged, a summary naming the snapshot that stays current, and no new file.
    @Test func aRunOnUnchangedInputsSaysSoAndExitsZero() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let sample = Paths.pipelines.appendingPathComponent("sample.yml").path
        let first = try await commissary(["run", sample, "--workspace", workspace.path, "--log-format", "text"])
        #expect(first.status == 0)
        let published = try #require(first.output.split(separator: "\n").first { $0.hasPrefix("Published ") })
        let snapshot = published.dropFirst("Published ".count)

        let second = try await commissary(["run", sample, "--workspace", workspace.path, "--log-format", "text"])
        #expect(second.status == 0)
        #expect(second.output.hasPrefix("Unchanged: every input is byte-for-byte what \(snapshot) was built from"))
        #expect(second.error.contains("[5/5]"))
        #expect(second.error.split(separator: "\n").filter { $0.contains(": unchanged since last read") }.count == 5)
        let files = try FileManager.default.contentsOfDirectory(atPath: workspace.appendingPathComponent("snapshots").path)
        #expect(files.filter { $0.hasSuffix(".sqlite") } == [String(snapshot.split(separator: "/").last ?? "")])
    }

    /// A night in which one day's page changed: its write stage's line says how many days it
    /// kept from the latest snapshot (the sample's three, less the one that changed).
    @Test func aNightWithOneDayChangedSaysHowManyDaysItKept() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, site) = try SampleCopy.make(in: workspace)
        let first = try await commissary(["run", spec.path, "--workspace", workspace.path, "--log-format", "text"])
        #expect(first.status == 0)
        #expect(!first.error.contains("kept from the latest snapshot"))
        try MenuPageEdits.removeLastItem(of: site.appendingPathComponent("Menus/2026-10-11.html"))

        let second = try await commissary(["run", spec.path, "--workspace", workspace.path, "--log-format", "text"])
        #expect(second.status == 0)
        let write = second.error.split(separator: "\n").filter { $0.contains("stage write done in") }
        #expect(write.count == 1 && write[0].hasSuffix(", 2 of 3 service days kept from the latest snapshot"), "\(write)")
    }

    @Test func errorsAreOneLineNamingWhereAndExitNonZero() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.yml")
        try Data("pipeline: broken\nsources:\n  - name: x\n    adaptr: mealdb-dump\n".utf8).write(to: broken)
        let run = try await commissary(["run", broken.path, "--workspace", folder.path])
        #expect(run.status == 1)
        // One line naming the place and every key a source may have: the common ones, and each
        // adapter's own (so that a misspelt adapter key is found whatever the adapter).
        let prefix = "error: \(broken.path):4:5: sources[0].adaptr: unknown key; allowed here: "
        #expect(run.error.hasPrefix(prefix) && run.error.hasSuffix("\n") && run.error.split(separator: "\n").count == 1,
                "\(run.error)")
        let allowed = run.error.dropFirst(prefix.count).dropLast().components(separatedBy: ", ")
        #expect(allowed == allowed.sorted() && Set(allowed).count == allowed.count, "\(allowed)")
        #expect(Set(allowed).isSuperset(of: ["adapter", "campus", "credentials_env", "credentials_file", "dates",
                                             "location", "name"]), "\(allowed)")
        for adapter in AdapterRegistry.all {
            #expect(Set(allowed).isSuperset(of: adapter.keys), "\(adapter.name): \(allowed)")
        }

        let query = try await commissary(["query", "latest", "SELECT 1", "--workspace", folder.path])
        #expect(query.status == 1)
        #expect(query.error.hasPrefix("error: ") && query.error.contains("no snapshot has been published"))
        #expect(query.error.split(separator: "\n").count == 1)
    }

    /// `--help` and `help` print ArgumentParser's help on standard output and exit 0, for the
    /// tool and for a command.
    @Test func helpIsPrintedNotReportedAsAnError() async throws {
        for arguments in [["--help"], ["help"]] {
            let help = try await commissary(arguments)
            #expect(help.status == 0)
            #expect(help.error.isEmpty)
            #expect(help.output.contains("USAGE: commissary <subcommand>"))
            #expect(help.output.contains("changes") && help.output.contains("report"))
        }
        let diff = try await commissary(["diff", "--help"])
        #expect(diff.status == 0)
        #expect(diff.output.contains("<old> <new>") && diff.output.contains("--exit-code"))
        // `changes` takes OLD and NEW, or --since in their place.
        let changes = try await commissary(["help", "changes"])
        #expect(changes.status == 0)
        #expect(changes.output.contains("[<old>] [<new>]") && changes.output.contains("--since <run-id-or-date>")
                && changes.output.contains("--exit-code"), "\(changes.output)")
    }

    @Test func aBlockedPublicationExitsWithThree() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let strict = folder.appendingPathComponent("strict.yml")
        let dump = Paths.sampleData.appendingPathComponent("themealdb/meals.json").path
        try Data("pipeline: strict\nsources:\n  - name: m\n    adapter: mealdb-dump\n    location: \(dump)\nchecks:\n  min_recipes: 13\n".utf8)
            .write(to: strict)
        let run = try await commissary(["run", strict.path, "--workspace", folder.path, "--log-format", "text"])
        #expect(run.status == 3)
        #expect(run.error.contains("error: not published: 12 recipes (at least 13 required)"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("snapshots/latest-strict").path))
    }

    /// For cron: a quiet run prints nothing when it succeeds; `snapshots` lists under a header,
    /// with each snapshot's pipeline; a mistyped workspace is an error, not an empty list.
    @Test func quietRunsAndTheSnapshotsList() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let sample = Paths.pipelines.appendingPathComponent("sample.yml").path
        let log = workspace.appendingPathComponent("events.jsonl")
        let run = try await commissary(["run", sample, "--workspace", workspace.path, "--quiet", "--events", log.path])
        #expect(run.status == 0)
        #expect(run.output.isEmpty && run.error.isEmpty, "\(run.output)\(run.error)")
        // The full log went to the file: every event timed, every stage started before it finished.
        let events = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(events.first?["event"] as? String == "run_started" && events.last?["event"] as? String == "run_finished")
        #expect(events.allSatisfy { ($0["time"] as? String)?.hasSuffix("Z") == true })
        let started = events.filter { $0["event"] as? String == "stage_started" }.compactMap { $0["stage"] as? String }
        let finished = events.filter { $0["event"] as? String == "stage_finished" }.compactMap { $0["stage"] as? String }
        #expect(started == ["fetch", "parse", "compute", "write", "check", "publish"])
        #expect(Set(finished) == Set(started))

        let list = try await commissary(["snapshots", "--workspace", workspace.path])
        #expect(list.status == 0)
        let lines = list.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("   built at ") == true && lines.first?.contains(" pipeline ") == true, "\(list.output)")
        // The latest's `*` has a column of its own: the build time starts under its heading.
        #expect(lines.last?.hasPrefix("*  ") == true, "\(list.output)")
        let heading = try #require(lines.first?.firstRange(of: "built at")).lowerBound
        let time = try #require(lines.last?.firstRange(of: "20")).lowerBound
        #expect(lines[0].distance(from: lines[0].startIndex, to: heading)
                == lines[1].distance(from: lines[1].startIndex, to: time), "\(list.output)")
        // SampleData/README.md: 124 menu items, 36 foods; the sample's twelve recipes.
        let row = lines.last.map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) } ?? []
        #expect(row.first == "*" && row.contains("sample") && row.contains("124") && row.contains("36")
                && row.contains("12"), "\(row)")

        let mistyped = try await commissary(["snapshots", "--workspace", workspace.path + "-typo"])
        #expect(mistyped.status == 1)
        #expect(mistyped.error.contains("no such workspace folder"), "\(mistyped.error)")
    }

    /// Installed as the README says (the binary in `bin/`, the shared files in
    /// `share/commissary/`), the program runs the sample pipeline copied with its SampleData to a
    /// folder of its own, from yet another folder, and publishes.
    @Test func anInstalledBinaryRunsAPipelineFromAnyFolder() async throws {
        let root = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = FileManager.default
        let bin = root.appendingPathComponent("prefix/bin")
        let share = root.appendingPathComponent("prefix/share/commissary")
        try files.createDirectory(at: bin, withIntermediateDirectories: true)
        try files.createDirectory(at: share, withIntermediateDirectories: true)
        try files.copyItem(at: CommissaryProcess.binary, to: bin.appendingPathComponent("commissary"))
        for folder in ["standards", "plans", "terms", "places", "nutrition"] {
            try files.copyItem(at: Paths.pipelines.appendingPathComponent(folder), to: share.appendingPathComponent(folder))
        }
        let project = root.appendingPathComponent("project")
        try files.createDirectory(at: project.appendingPathComponent("Pipelines"), withIntermediateDirectories: true)
        try files.copyItem(at: Paths.pipelines.appendingPathComponent("sample.yml"),
                           to: project.appendingPathComponent("Pipelines/sample.yml"))
        try files.copyItem(at: Paths.sampleData, to: project.appendingPathComponent("SampleData"))
        let elsewhere = root.appendingPathComponent("elsewhere")
        try files.createDirectory(at: elsewhere, withIntermediateDirectories: true)

        let process = Process()
        process.executableURL = bin.appendingPathComponent("commissary")
        process.arguments = ["run", project.appendingPathComponent("Pipelines/sample.yml").path,
                             "--workspace", elsewhere.appendingPathComponent("workspace").path, "--quiet"]
        process.currentDirectoryURL = elsewhere
        let errors = Pipe()
        process.standardError = errors
        try process.runWithSignalsUnblocked()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
        let published = try files.contentsOfDirectory(atPath: elsewhere.appendingPathComponent("workspace/snapshots").path)
        #expect(published.contains("latest-sample"))
    }

    /// On a terminal (a pseudo-terminal from `script`), a 134-day run shows one status line
    /// redrawn in place, not a line per day, then the summary.
    @Test func onATerminalProgressIsOneLineRedrawnInPlace() async throws {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        try #require(FileManager.default.isExecutableFile(atPath: script.path), "util-linux's script is needed")
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let command = [CommissaryProcess.binary.path, "run",
                       Paths.pipelines.appendingPathComponent("ucla-history-2016.yml").path,
                       "--workspace", workspace.path, "--log-format", "text"].map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = script
        process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
        let output = Pipe()
        process.standardOutput = output
        try process.runWithSignalsUnblocked()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text.suffix(500))")
        // The terminal ends lines with CR LF; a status redraw is a CR alone.
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n")
        // The 134 days of ../shared/data/ucla-dataset-2016, counted down on one line.
        let status = lines.filter { $0.contains(" partitions, ") }
        #expect(status.count == 1, "\(status.count) lines with a status")
        #expect(status.first?.contains("\r\u{1B}[2K  [134/134] partitions, ") == true)
        #expect(!lines.contains { $0.contains("] ucla-dataset ") }, "a line per day was printed")
        #expect(lines.contains { $0.hasPrefix("Published ") })
    }
}

/// `near` on a published history: the halls of the places file by distance from Bruin Plate's
/// coordinates (distances by hand with the haversine formula), with the meals each served on the
/// day (2016-11-22's file: breakfast at Bruin Plate and De Neve; lunch and dinner at all four).
@Suite struct NearCommandTests {
    @Test func hallsByDistanceWithTheirMealsOfTheDay() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let pipeline = Paths.pipelines.appendingPathComponent("ucla-history-2016.yml").path
        let run = try await CommissaryProcess.run(["run", pipeline, "--workspace", workspace.path, "--quiet",
                                                   "--from", "2016-11-20", "--to", "2016-11-23"])
        #expect(run.status == 0, "\(run.error)")
        let near = try await CommissaryProcess.run(["near", "--lat", "34.0718", "--lon", "-118.4500", "--date",
                                                    "2016-11-22", "--limit", "5", "--workspace", workspace.path])
        #expect(near.status == 0, "\(near.error)")
        let lines = near.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines[1].hasPrefix("Bruin Plate") && lines[1].contains("0.00  0.00  Breakfast, Lunch, Dinner"))
        #expect(lines[2].hasPrefix("Feast at Rieber") && lines[2].contains("0.08  0.13  Lunch, Dinner"))
        #expect(lines[3].hasPrefix("Epicuria at Covel") && lines[3].contains("0.08  0.13  Lunch, Dinner"))
        #expect(lines[4].hasPrefix("De Neve") && lines[4].contains("0.10  0.17  Breakfast, Lunch, Dinner"))
        // A place without coordinates comes after those with them, without a distance.
        #expect(lines[5].contains("nothing on 2016-11-22") && !lines[5].contains("0."))

        let json = try await CommissaryProcess.run(["near", "--lat", "34.0718", "--lon", "-118.4500", "--date",
                                                    "2016-11-22", "--limit", "1", "--format", "json",
                                                    "--workspace", workspace.path])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(array.count == 1)
        let first = try #require(array.first)
        #expect(first["place"] as? String == "Bruin Plate" && first["miles"] as? Double == 0)
        // The same in SQL, as docs/pipelines.md writes it.
        let sql = try await CommissaryProcess.run(["query", "latest", """
            SELECT name, round(2 * 3958.7613 * asin(sqrt(pow(sin(radians(latitude - 34.0718) / 2), 2)
                + cos(radians(34.0718)) * cos(radians(latitude)) * pow(sin(radians(longitude + 118.4500) / 2), 2))), 4) AS miles
            FROM place WHERE latitude IS NOT NULL ORDER BY miles LIMIT 4
            """, "--format", "csv", "--workspace", workspace.path])
        #expect(sql.output.replacingOccurrences(of: "\r\n", with: "\n") == "name,miles\nBruin Plate,0.0\nFeast at Rieber,0.0813\nEpicuria at Covel,0.0829\nDe Neve,0.1043\n")
    }

    /// Without `--date`, the day is today in `--time-zone`, not on the machine's clock: asked
    /// on Pago Pago's clock (UTC−11) by a machine on Kiritimati's (UTC+14), 25 hours apart, so
    /// their dates always differ. The sample's snapshot serves nothing then, and says on which day.
    @Test func todayIsTodayInTheZoneAskedIn() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, _) = try SampleCopy.make(in: workspace)
        let run = try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path, "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        let asked = try #require(TimeZone(identifier: "Pacific/Pago_Pago"))
        let machine = try #require(TimeZone(identifier: "Pacific/Kiritimati"))
        let before = ServiceDate.today(in: asked)
        let near = try await CommissaryProcess.run(["near", "--lat", "34.0718", "--lon", "-118.4500", "--limit", "1",
                                                    "--time-zone", "Pacific/Pago_Pago", "--workspace", workspace.path],
                                                   environment: ["TZ": "Pacific/Kiritimati"])
        let after = ServiceDate.today(in: asked)
        #expect(near.status == 0, "\(near.error)")
        #expect(near.output.contains("nothing on \(before)") || near.output.contains("nothing on \(after)"), "\(near.output)")
        #expect(!near.output.contains("nothing on \(ServiceDate.today(in: machine))"), "\(near.output)")
    }

    /// `--open-at`: which meal each place serves at a time of day, from the hours page the
    /// sample publishes (SampleData's Hours.html, 2026-10-10, read by hand: Bruin Plate dinner
    /// 5:00pm-8:00pm; Covel and De Neve dinner 5:00pm-9:00pm; De Neve late night 9:00pm-12:00am).
    /// The quick-start sample names its places file, so `near` answers on its snapshot as it is.
    @Test func openAtReadsTheHoursOfTheDay() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, _) = try SampleCopy.make(in: workspace)
        let run = try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path, "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        let near = try await CommissaryProcess.run(["near", "--lat", "34.0718", "--lon", "-118.4500", "--date", "2026-10-10",
                                                    "--open-at", "20:30", "--limit", "4", "--workspace", workspace.path])
        #expect(near.status == 0, "\(near.error)")
        let lines = near.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix("open at 20:30") == true, "\(near.output)")
        #expect(lines.count == 5)
        #expect(lines[1].hasPrefix("Bruin Plate") && lines[1].hasSuffix("closed"), "\(near.output)")
        #expect(lines[2].hasPrefix("Feast at Rieber") && lines[2].hasSuffix("hours unknown"), "\(near.output)")
        #expect(lines[3].hasPrefix("Epicuria at Covel") && lines[3].hasSuffix("Dinner 5:00pm–9:00pm"), "\(near.output)")
        #expect(lines[4].hasPrefix("De Neve") && lines[4].hasSuffix("Dinner 5:00pm–9:00pm"), "\(near.output)")

        let late = try await CommissaryProcess.run(["near", "--lat", "34.0718", "--lon", "-118.4500", "--date", "2026-10-10",
                                                    "--open-at", "11:30pm", "--format", "jsonl", "--workspace", workspace.path])
        let places = try late.output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        // `json` is the same objects as one array.
        let array = try await CommissaryProcess.run(["near", "--lat", "34.0718", "--lon", "-118.4500", "--date", "2026-10-10",
                                                     "--open-at", "11:30pm", "--format", "json", "--workspace", workspace.path])
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(array.output.utf8)) as? [[String: Any]])
        #expect(listed.map { $0["place"] as? String } == places.map { $0["place"] as? String })
        let open = Dictionary(uniqueKeysWithValues: places.compactMap { place in
            (place["place"] as? String).map { ($0, place["open_at"] as? [String]) }
        })
        #expect(open["De Neve"] == .some(["Late Night 9:00pm–12:00am"]))
        #expect(open["Bruin Plate"] == .some([]) && open["Epicuria at Covel"] == .some([]))

        // Sunday the 11th (Hours.html, read by hand): De Neve's Lunch column reads 10:00am-3:00pm
        // "(Brunch)", and its menus that day are Brunch and Dinner: the opening is brunch's.
        let sunday = try await CommissaryProcess.run(["near", "--lat", "34.0718", "--lon", "-118.4500", "--date", "2026-10-11",
                                                      "--open-at", "12:30", "--format", "json", "--workspace", workspace.path])
        let onSunday = try #require(try JSONSerialization.jsonObject(with: Data(sunday.output.utf8)) as? [[String: Any]])
        let deNeve = try #require(onSunday.first { $0["place"] as? String == "De Neve" })
        #expect(deNeve["serving"] as? [String] == ["Brunch", "Dinner"])
        #expect(deNeve["open_at"] as? [String] == ["Brunch 10:00am–3:00pm"], "\(sunday.output)")
        let bad = try await CommissaryProcess.run(["near", "--lat", "34", "--lon", "-118", "--open-at", "25:00",
                                                   "--workspace", workspace.path])
        #expect(bad.status != 0 && bad.error.contains("--open-at"), "\(bad.error)")
    }

    /// After midnight, `--open-at` reads the late night of the day before. SampleData's
    /// Hours.html, read by hand: De Neve's Late Night is 9:00pm-12:00am on 2026-10-10 and
    /// 9:00pm-2:00am on the 11th (remarked "(No Food after 1:00AM)", said beside it) and the
    /// 12th; there are no hours for the 13th. The 11th's own row begins that evening, so at 00:30
    /// on the 11th De Neve is closed; at 1:00am on the 13th the 12th's late night still serves.
    @Test func openAtAfterMidnightReadsTheNightBefore() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, _) = try SampleCopy.make(in: workspace)
        let run = try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path, "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        func deNeve(on date: String, at time: String) async throws -> [String]? {
            let near = try await CommissaryProcess.run(["near", "--lat", "34.0718", "--lon", "-118.4500", "--date", date,
                                                        "--open-at", time, "--format", "json", "--workspace", workspace.path])
            #expect(near.status == 0, "\(near.error)")
            let places = try #require(try JSONSerialization.jsonObject(with: Data(near.output.utf8)) as? [[String: Any]])
            let place = try #require(places.first { $0["place"] as? String == "De Neve" })
            return place["open_at"] as? [String]
        }
        #expect(try await deNeve(on: "2026-10-11", at: "00:30") == [])
        #expect(try await deNeve(on: "2026-10-12", at: "00:30") == ["Late Night 9:00pm–2:00am (No Food after 1:00AM)"])
        #expect(try await deNeve(on: "2026-10-13", at: "1:00am") == ["Late Night 9:00pm–2:00am"])
        #expect(try await deNeve(on: "2026-10-13", at: "2:00am") == nil)
        #expect(try await deNeve(on: "2026-10-12", at: "23:30") == ["Late Night 9:00pm–2:00am"])
    }

    /// Hours a source prints open but unreadable ("TBA" for Bruin Plate's dinner, set in a copy
    /// of the sample's snapshot) leave the place's hours unknown at a time no readable row
    /// serves, and not closed, which only the source says; a readable row still answers.
    @Test func unreadableHoursAreUnknownNotClosed() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (spec, _) = try SampleCopy.make(in: workspace)
        let run = try await CommissaryProcess.run(["run", spec.path, "--workspace", workspace.path, "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        let latest = try #require(SnapshotStore(directory: workspace.appendingPathComponent("snapshots")).latest(pipeline: "sample"))
        let copy = workspace.appendingPathComponent("tba.sqlite")
        try FileManager.default.copyItem(at: latest, to: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
        try await DatabaseQueue(path: copy.path).write { db in
            try db.execute(sql: """
                UPDATE hours SET opens = 'TBA', closes = NULL WHERE restaurant = 'Bruin Plate' AND date = '2026-10-12'
                  AND meal = 'Dinner'
                """)
            #expect(db.changesCount == 1)
        }
        func bruinPlate(at time: String) async throws -> [String: Any] {
            let near = try await CommissaryProcess.run(["near", "--lat", "34.0718", "--lon", "-118.4500", "--date", "2026-10-12",
                                                        "--open-at", time, "--format", "json", "--snapshot", copy.path])
            #expect(near.status == 0, "\(near.error)")
            let places = try #require(try JSONSerialization.jsonObject(with: Data(near.output.utf8)) as? [[String: Any]])
            return try #require(places.first { $0["place"] as? String == "Bruin Plate" })
        }
        #expect(try await bruinPlate(at: "18:00")["open_at"] == nil)
        // Hours.html, 2026-10-12: Bruin Plate's lunch is 11:00am-2:00pm.
        #expect(try await bruinPlate(at: "12:00")["open_at"] as? [String] == ["Lunch 11:00am–2:00pm"])
    }
}
