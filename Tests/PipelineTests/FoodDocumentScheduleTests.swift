import Basics
import Fetching
import FoodModel
import Foundation
import Logging
import Pipeline
import RunReporting
import Snapshot
import SourceAdapters
import Synchronization
import Testing
import TestSupport

/// When a night asks for a food document again (docs/pipelines.md, `fetch.revalidate` and
/// `fetch.missing_documents`): the seven real UCLA nights and small feeds of real documents,
/// served on 127.0.0.1, with the nights moved by the run's clock rather than by waiting.
@Suite struct FoodDocumentScheduleTests {
    /// Runs at 02:00 UTC on `day`, as the nightly timer does: each clock made a millisecond
    /// after the one before, so that two runs of one night get two run ids (a run id is the
    /// start's millisecond and a random byte, and the same millisecond twice made one run in
    /// 256 find its snapshot's name taken).
    static func clock(_ day: ServiceDate) -> RunClock {
        let made = clocksMade.add(1, ordering: .relaxed).newValue
        let night = Date(timeIntervalSince1970: Double(day.daysSinceEpoch) * 86_400 + 7_200 + Double(made) / 1_000)
        return RunClock(now: { night }, clock: ContinuousClock())
    }

    private static let clocksMade = Atomic<Int>(0)

    static func run(_ spec: PipelineSpec, workspace: URL, on day: ServiceDate, today: ServiceDate? = nil,
                    dates: DateSelection? = nil, force: Bool = false) async throws -> RunReport {
        try await PipelineRunner(
            spec: spec,
            options: RunOptions(workspace: Workspace(root: workspace), dates: dates, today: today ?? day, force: force,
                                clock: clock(day)),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
    }

    /// The feed's address of a food's document, as the test reads it off a menu row.
    static func documentPath(of food: String) -> String {
        food.hasPrefix("recipe-") ? "/recipes/\(food.dropFirst("recipe-".count)).json"
            : "/ingredients/\(food.dropFirst("ingredient-".count)).json"
    }

    static func fetchCounts(_ report: RunReport) -> [String: Int] {
        report.manifest.stages.first { $0.name == .fetch }?.counts ?? [:]
    }

    // MARK: - The seven real nights

    /// Night 1 asks every document once; the ones the server did not have are not asked the next
    /// night, and no later night makes more than 15% of night 1's requests (issue 38's target).
    @Test func missingDocumentsAreLeftAloneNightAfterNight() async throws {
        let nightly = try UCLAJamixNightly()
        defer { nightly.close() }
        let (workspace, feed, spec) = (nightly.workspace, nightly.feed, nightly.spec)
        let ingredients = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: UCLAJamixNights.folder
            .appendingPathComponent("ingredients-2025-11-07.json"))) as? [String: Any])
        // Every night's six menus are in its folder; a food's document is there or answers 404.
        func exists(_ path: String) -> Bool {
            if path.hasPrefix("/menus/") { return true }
            let name = String(path.split(separator: "/").last?.dropLast(".json".count) ?? "")
            if path.hasPrefix("/ingredients/") { return ingredients[name] != nil }
            return FileManager.default.fileExists(atPath: UCLAJamixNights.folder.appendingPathComponent("recipes/\(name).json").path)
        }

        var asked: [[String]] = []
        for night in UCLAJamixNights.nights {
            feed.nightBox.set(night)
            let before = feed.server.requests.count
            let report = try await Self.run(spec, workspace: workspace, on: night)
            #expect(report.published, "night \(night): \(report.blockingChecks.map(\.message))")
            let paths = feed.server.requests.dropFirst(before).map(\.path)
            asked.append(paths)
            // What the server answered, counted from its own log and the files it serves.
            let counts = Self.fetchCounts(report)
            #expect(counts["documents_missing"] == paths.filter { !exists($0) }.count, "night \(night)")
            #expect(counts["documents_refetched"] == paths.filter(exists).count, "night \(night)")
            #expect(counts["documents_revalidated"] == 0, "night \(night)")
        }

        // Night 1: its six menus and the document of every food on them, each once.
        let first = UCLAJamixNights.nights[0]
        var expected = Set(UCLAJamixNights.dates(of: first).map { "/menus/\($0).json" })
        for date in UCLAJamixNights.dates(of: first) {
            for row in try UCLAJamixNights.rows(night: first, date: date) { expected.insert(Self.documentPath(of: row.food)) }
        }
        #expect(asked[0].count == expected.count)
        #expect(Set(asked[0]) == expected)
        let missingFirst = Set(asked[0].filter { !exists($0) })
        #expect(missingFirst.count > 250, "\(missingFirst.count)")

        // Night 2 asks none of them, though most are on its menus again.
        #expect(Set(asked[1]).isDisjoint(with: missingFirst))
        for (index, paths) in asked.enumerated().dropFirst() {
            #expect(Double(paths.count) <= 0.15 * Double(asked[0].count),
                    "night \(UCLAJamixNights.nights[index]): \(paths.count) requests against \(asked[0].count)")
        }
        // A missing document waits at least 2^n days after its n-th miss in a row.
        var nights: [String: [Int]] = [:]
        for (index, paths) in asked.enumerated() { for path in paths where !exists(path) { nights[path, default: []].append(index) } }
        for (path, asks) in nights {
            for (miss, gap) in zip(asks, asks.dropFirst()).map({ $1 - $0 }).enumerated() {
                #expect(gap >= 1 << (miss + 1), "\(path) asked on nights \(asks)")
            }
        }
        let times = nights.mapValues(\.count)

        // The ledger remembers each, with when it was asked and how many times in a row it was missing.
        let ledger = try StateLedger(url: Workspace(root: workspace).ledger(pipeline: spec.name))
        let remembered = try ledger.missingDocuments(source: "ucla")
        let everMissing = Set(asked.flatMap { $0 }.filter { !exists($0) })
        #expect(Set(remembered.keys) == Set(everMissing.map { feed.server.url($0) }))
        for (url, document) in remembered {
            let path = String(url.dropFirst(feed.server.url("").count))
            #expect(document.times == times[path], "\(url)")
            #expect(document.status == 404)
        }
    }

    // MARK: - One menu, a few real documents

    /// A feed of one day whose menu lists real recipe documents; `body(path)` says what each
    /// address answers now. Every answer with a body carries an ETag, and a matching
    /// If-None-Match is answered 304.
    final class SmallFeed: Sendable {
        let server: TestHTTPServer
        private let bodies: Bodies

        /// What each address answers, changed by the test while the server runs.
        final class Bodies: @unchecked Sendable {
            private let lock = NSLock()
            private var served: [String: Data]
            init(_ served: [String: Data]) { self.served = served }
            subscript(path: String) -> Data? {
                get { lock.withLock { served[path] } }
                set { lock.withLock { served[path] = newValue } }
            }
        }

        /// `headers`: sent besides the ETag with every recipe document.
        init(listing ids: [String], headers: [(String, String)] = []) throws {
            let menu = try UCLARecipeDocumentsTests.menu(listing: ids)
            var served: [String: Data] = ["/menus/\(UCLARecipeDocumentsTests.date).json": menu]
            for id in ids {
                let file = UCLAJamixNights.folder.appendingPathComponent("recipes/\(id).json")
                if let body = try? Data(contentsOf: file) { served["/recipes/\(id).json"] = body }
            }
            let bodies = Bodies(served)
            self.bodies = bodies
            server = try TestHTTPServer(lifetime: .seconds(120)) { request, _ in
                guard let body = bodies[request.path] else { return Reply(status: 404, keepAlive: true) }
                let etag = "\"\(sha256Hex(body).prefix(16))\""
                if request.headers["if-none-match"] == etag {
                    return Reply(status: 304, headers: [("ETag", etag)], keepAlive: true)
                }
                let extra = request.path.hasPrefix("/recipes/") ? headers : []
                return Reply(headers: [("Content-Type", "application/json"), ("ETag", etag)] + extra, body: body,
                             keepAlive: true)
            }
        }

        func serve(_ path: String, _ body: Data?) { bodies[path] = body }

        func spec(in workspace: URL) throws -> PipelineSpec {
            try FoodDocumentScheduleTests.oneDaySpec(location: server.url(""), in: workspace)
        }
    }

    /// The UCLA feed's one saved day read from `location` (a server or a folder), unhurried.
    static func oneDaySpec(location: String, in workspace: URL) throws -> PipelineSpec {
        let file = workspace.appendingPathComponent("small.yml")
        try Data("""
            pipeline: small-feed
            sources:
              - name: ucla
                adapter: ucla-jamix
                location: \(location)
                dates: {from: \(UCLARecipeDocumentsTests.date), to: \(UCLARecipeDocumentsTests.date)}
            checks:
              min_menu_items: 1
            fetch:
              delay_ms: 0
            """.utf8).write(to: file)
        return try SpecReader.read(file)
    }

    static func foodName(_ report: RunReport, id: String) throws -> [[SQLValue]] {
        try QueryResult.run("SELECT name, has_page FROM food WHERE id = 'ucla-jamix:recipe-\(id)'",
                            on: URL(fileURLWithPath: try #require(report.snapshotPath))).rows
    }

    /// A document that answers 404 and then starts answering is asked again on the day its
    /// back-off ends (after one miss: two days, spread by its address over up to six, by the
    /// rule of docs/pipelines.md), not before, and its food then has its page.
    @Test func aDocumentThatStartsAnsweringIsPickedUpOnItsBackOffDay() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let feed = try SmallFeed(listing: ["1007", "999999"])
        defer { feed.server.stop() }
        let spec = try feed.spec(in: workspace)
        let path = "/recipes/999999.json"
        let start = try #require(ServiceDate("2025-11-01"))

        let first = try await Self.run(spec, workspace: workspace, on: start)
        #expect(first.published)
        #expect(feed.server.requests(to: path).count == 1)
        #expect(Self.fetchCounts(first)["documents_missing"] == 1)
        let ledger = try StateLedger(url: Workspace(root: workspace).ledger(pipeline: spec.name))
        #expect(try ledger.missingDocuments(source: "ucla")[feed.server.url(path)]?.times == 1)

        // The day by hand: 2 days, plus the first 32 bits of the sha256 of the address's path as
        // a fraction of 2^32 - 1 times 4 days, whole days.
        let digest = sha256Hex(Data(path.utf8))
        let fraction = Double(try #require(UInt32(digest.prefix(8), radix: 16))) / Double(UInt32.max)
        let due = 2 + Int(fraction * 4)

        // The document now answers (Sun Dried Tomato Cream Sauce's document, under this id).
        feed.serve(path, try Data(contentsOf: UCLAJamixNights.folder.appendingPathComponent("recipes/6185.json")))
        for offset in 1...6 {
            let day = ServiceDate(daysSinceEpoch: start.daysSinceEpoch + offset)
            let report = try await Self.run(spec, workspace: workspace, on: day)
            let requests = feed.server.requests(to: path).count
            if offset < due {
                #expect(requests == 1, "day \(offset)")
                #expect(report.unchanged, "day \(offset): nothing was due")
            } else {
                #expect(requests == 2, "day \(offset)")
                if offset == due {
                    #expect(report.published)
                    #expect(try Self.foodName(report, id: "999999") == [[.text("Sun Dried Tomato Cream Sauce"), .integer(1)]])
                    #expect(Self.fetchCounts(report)["documents_refetched"] == 1)
                }
            }
        }
        #expect(try ledger.missingDocuments(source: "ucla").isEmpty)
    }

    /// `run --date` and `--force` ask a missing document whatever its back-off, and the ledger
    /// still counts the misses; a plain run the same day then leaves it alone.
    @Test func forcedAndDatedRunsAskEveryMissingDocument() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let feed = try SmallFeed(listing: ["1007", "999999"])
        defer { feed.server.stop() }
        let spec = try feed.spec(in: workspace)
        let path = "/recipes/999999.json"
        let date = UCLARecipeDocumentsTests.date
        let start = try #require(ServiceDate("2025-11-01"))
        let next = ServiceDate(daysSinceEpoch: start.daysSinceEpoch + 1)
        _ = try await Self.run(spec, workspace: workspace, on: start)
        #expect(feed.server.requests(to: path).count == 1)

        let dated = try await Self.run(spec, workspace: workspace, on: next, today: date, dates: .range(from: date, to: date))
        #expect(dated.published || dated.unchanged)
        #expect(feed.server.requests(to: path).count == 2)
        let forced = try await Self.run(spec, workspace: workspace, on: next, force: true)
        #expect(forced.published)
        #expect(feed.server.requests(to: path).count == 3)
        let ledger = try StateLedger(url: Workspace(root: workspace).ledger(pipeline: spec.name))
        #expect(try ledger.missingDocuments(source: "ucla")[feed.server.url(path)]?.times == 3)

        let plain = try await Self.run(spec, workspace: workspace, on: next)
        #expect(plain.unchanged)
        #expect(feed.server.requests(to: path).count == 3)
    }

    /// A night whose menu cannot be had (the day kept from its last good version, stale) read no
    /// food document; the night after asks for the menu and for no food document that is not
    /// due: each recipe was asked once over the three nights, not once more after the outage.
    @Test func theNightAfterAnOutageAsksOnlyWhatIsDue() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let feed = try SmallFeed(listing: ["1007", "6185"])
        defer { feed.server.stop() }
        let spec = try feed.spec(in: workspace)
        let menu = "/menus/\(UCLARecipeDocumentsTests.date).json"
        let recipes = ["/recipes/1007.json", "/recipes/6185.json"]
        let start = try #require(ServiceDate("2025-11-01"))
        let good = try await Self.run(spec, workspace: workspace, on: start)
        #expect(good.published)
        #expect(recipes.map { feed.server.requests(to: $0).count } == [1, 1])

        let body = try UCLARecipeDocumentsTests.menu(listing: ["1007", "6185"])
        feed.serve(menu, nil)
        let outage = try await Self.run(spec, workspace: workspace, on: ServiceDate(daysSinceEpoch: start.daysSinceEpoch + 1))
        #expect(outage.stale.count == 1, "\(outage.stale)")

        feed.serve(menu, body)
        let after = try await Self.run(spec, workspace: workspace, on: ServiceDate(daysSinceEpoch: start.daysSinceEpoch + 2))
        #expect(after.published && after.stale.isEmpty)
        #expect(feed.server.requests(to: menu).count == 3)
        #expect(recipes.map { feed.server.requests(to: $0).count } == [1, 1])
        #expect(Self.fetchCounts(after)["documents_fresh"] == 2, "\(Self.fetchCounts(after))")
        #expect(try Self.foodName(after, id: "1007").first?.last == .integer(1))
    }

    /// A recipe corrected on the server is picked up on the night its period (7 days by
    /// default) ends, through a conditional request, and not before; a document that did not
    /// change answers 304 that night.
    @Test func aChangedRecipeIsPickedUpWhenItsPeriodEnds() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let feed = try SmallFeed(listing: ["1007", "6185"])
        defer { feed.server.stop() }
        let spec = try feed.spec(in: workspace)
        let path = "/recipes/1007.json"
        let start = try #require(ServiceDate("2025-11-01"))
        let first = try await Self.run(spec, workspace: workspace, on: start)
        #expect(first.published)
        #expect(try Self.foodName(first, id: "1007") == [[.text("Tuna & Lentil Hummus Stacker"), .integer(1)]])
        #expect(feed.server.requests(to: path).count == 1)

        // The kitchen corrects the dish's name on the server.
        let original = try String(contentsOf: UCLAJamixNights.folder.appendingPathComponent("recipes/1007.json"), encoding: .utf8)
        let corrected = original.replacingOccurrences(of: "Tuna & Lentil Hummus Stacker", with: "Tuna & Lentil Hummus Stack")
        #expect(corrected != original)
        feed.serve(path, Data(corrected.utf8))

        for offset in 1...8 {
            let day = ServiceDate(daysSinceEpoch: start.daysSinceEpoch + offset)
            let report = try await Self.run(spec, workspace: workspace, on: day)
            let requests = feed.server.requests(to: path)
            switch offset {
            case ..<7:
                #expect(requests.count == 1, "day \(offset)")
                #expect(report.unchanged, "day \(offset)")
            case 7:
                #expect(requests.count == 2)
                #expect(requests.last?.headers["if-none-match"] != nil, "asked without its validator")
                #expect(report.published)
                #expect(try Self.foodName(report, id: "1007") == [[.text("Tuna & Lentil Hummus Stack"), .integer(1)]])
                // The menu and 6185 confirmed by 304s, 1007 fetched again; nothing served unasked.
                let counts = Self.fetchCounts(report)
                #expect(counts["documents_revalidated"] == 2, "\(counts)")
                #expect(counts["documents_refetched"] == 1, "\(counts)")
                #expect(counts["documents_fresh"] == 0, "\(counts)")
                #expect(feed.server.requests(to: "/recipes/6185.json").count == 2)
                // The summary a person reads says the same, in words.
                #expect(RunWording.summary(report).split(separator: "\n").contains(
                    "Documents: 0 fresh (not asked), 2 revalidated (304 or file unchanged), 1 refetched (200), 0 known missing (not asked), "
                        + "0 missing (404 or 410 now)"))
            default:
                #expect(requests.count == 2, "day \(offset)")
                #expect(report.unchanged, "day \(offset)")
            }
        }
    }

    /// A folder keeps no cache headers, so its documents' period is read from the partition's own
    /// state rather than the raw store's records: the same schedule as a server's, a recipe file
    /// corrected in the folder published on the seventh night and not before.
    @Test func aFoldersRecipeIsReadAgainWhenItsPeriodEnds() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let folder = workspace.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("menus"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("recipes"), withIntermediateDirectories: true)
        try UCLARecipeDocumentsTests.menu(listing: ["1007"])
            .write(to: folder.appendingPathComponent("menus/\(UCLARecipeDocumentsTests.date).json"))
        let recipe = folder.appendingPathComponent("recipes/1007.json")
        let original = try String(contentsOf: UCLAJamixNights.folder.appendingPathComponent("recipes/1007.json"), encoding: .utf8)
        try Data(original.utf8).write(to: recipe)
        let spec = try Self.oneDaySpec(location: folder.path, in: workspace)
        let start = try #require(ServiceDate("2025-11-01"))
        let first = try await Self.run(spec, workspace: workspace, on: start)
        #expect(first.published)
        #expect(try Self.foodName(first, id: "1007") == [[.text("Tuna & Lentil Hummus Stacker"), .integer(1)]])

        try Data(original.replacingOccurrences(of: "Tuna & Lentil Hummus Stacker", with: "Tuna & Lentil Hummus Stack").utf8)
            .write(to: recipe)
        for offset in 1...7 {
            let report = try await Self.run(spec, workspace: workspace, on: ServiceDate(daysSinceEpoch: start.daysSinceEpoch + offset))
            if offset < 7 {
                #expect(report.unchanged, "day \(offset)")
            } else {
                #expect(report.published)
                #expect(try Self.foodName(report, id: "1007") == [[.text("Tuna & Lentil Hummus Stack"), .integer(1)]])
            }
        }
    }

    /// A server's own lifetime wins over the period: `Cache-Control: max-age` of two days has the
    /// document asked again on the second night, though the period is a week.
    @Test func aServersMaxAgeDecidesBeforeThePeriod() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let feed = try SmallFeed(listing: ["1007"], headers: [("Cache-Control", "public, max-age=172800")])
        defer { feed.server.stop() }
        let spec = try feed.spec(in: workspace)
        let start = try #require(ServiceDate("2025-11-01"))
        for offset in 0...2 {
            _ = try await Self.run(spec, workspace: workspace, on: ServiceDate(daysSinceEpoch: start.daysSinceEpoch + offset))
        }
        // Fetched at 02:00 on day 0: fresh on day 1 (24 h old), stale on day 2 (48 h, not under 48 h).
        #expect(feed.server.requests(to: "/recipes/1007.json").count == 2)
    }
}
