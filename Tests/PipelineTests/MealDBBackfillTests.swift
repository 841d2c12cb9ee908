import FoodModel
import Foundation
import SnapshotTestSupport
import TestSupport
import Pipeline
import SourceAdapters
import Snapshot
import Testing

/// The `mealdb-api` backfill against TheMealDB as served by a local server on 127.0.0.1 from
/// the real 442-meal dump: what it publishes, how politely, and what a broken letter costs.
@Suite struct MealDBBackfillTests {
    @Test func publishesTheSameCatalogueAsTheOfflineDump() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mirror = try MealDBMirror()
        // python over the dump (first letter without case or accents): 67 meals under s, the
        // Slovak "Šúĺlance s Makom" among them; none under x or any digit.
        #expect(try mirror.mealCount("s") == 67)
        #expect(try mirror.mealCount("x") == 0)
        let server = try TestHTTPServer(lifetime: .seconds(120)) { request, _ in mirror.answer(request.path) }
        defer { server.stop() }
        let spec = try SpecReader.read(try BackfillFixtures.apiPipeline(
            name: "recipes-api", base: server.url(""), in: folder, fetch: "requests_per_second: 20\ndelay_ms: 0"))

        let report = try await BackfillFixtures.runner(spec, workspace: folder.appendingPathComponent("api")).run()
        let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))
        let catalogue = try BackfillFixtures.catalogue(of: snapshot)
        #expect(catalogue == (try await BackfillFixtures.dumpCatalogue(in: folder)))

        // Counted by hand with python over the dump: 442 meals, 4668 slots naming an
        // ingredient, 14 categories, 37 areas.
        let counts = try SnapshotReader.rowCounts(of: snapshot)
        #expect(counts["recipe"] == 442)
        #expect(counts["recipe_ingredient"] == 4668)
        #expect(counts["category"] == 14)
        #expect(counts["area"] == 37)
        #expect(catalogue["recipe"]?.contains { $0.contains(.text("Šúĺlance s Makom")) } == true)

        // Each letter and categories.php asked for once; the empty letters are finished
        // partitions, not failures.
        var expected = Dictionary(uniqueKeysWithValues: MealDBMirror.letterPaths.map { ($0, 1) })
        expected[MealDBMirror.categoriesPath] = 1
        #expect(server.requestCounts == expected)
        let partitions = report.manifest.partitions
        #expect(partitions.count == 37)
        #expect(partitions.allSatisfy { $0.status == .fetched })
        #expect(partitions.first { $0.key == "x" }?.documents == 1)

        // 20 requests a second: 37 request starts spaced by at least 50 ms span 36 gaps.
        let arrivals = server.requests.map(\.receivedAt)
        let span = try #require(arrivals.last) - (try #require(arrivals.first))
        #expect(span >= .milliseconds(36 * 50 * 9 / 10), "37 requests in \(span)")
    }

    @Test func asksTheRealAPIAtMostTwiceASecondByDefault() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mirror = try MealDBMirror()
        let server = try TestHTTPServer(lifetime: .seconds(120)) { request, _ in mirror.answer(request.path) }
        defer { server.stop() }
        let file = try BackfillFixtures.apiPipeline(name: "recipes-api", base: server.url(""), in: folder,
                                                    fetch: "delay_ms: 0")
        var yaml = try String(contentsOf: file, encoding: .utf8)
        yaml = yaml.replacingOccurrences(of: "    location:", with: "    letters: qz\n    location:")
        try Data(yaml.utf8).write(to: file)
        let spec = try SpecReader.read(file)
        #expect((spec.sources[0].settings as? MealDBAPIAdapter.Settings)?.letters == ["q", "z"])

        let report = try await BackfillFixtures.runner(spec, workspace: folder).run()
        // python: 2 meals under q and 2 under z.
        #expect(try SnapshotReader.rowCounts(of: URL(fileURLWithPath: try #require(report.snapshotPath)))["recipe"] == 4)
        let arrivals = server.requests.map(\.receivedAt)
        #expect(arrivals.count == 3)
        let span = try #require(arrivals.last) - (try #require(arrivals.first))
        #expect(span >= .milliseconds(900), "3 requests in \(span)")

        let bundled = try SpecReader.read(Paths.pipelines.appendingPathComponent("recipes-backfill.yml"))
        #expect(bundled.sources.map(\.adapter.name) == ["mealdb-api"])
        #expect(bundled.sources[0].location == .web("https://www.themealdb.com"))
        #expect(bundled.fetch.requestsPerSecond == 2)
    }

    @Test func aBrokenLetterIsReportedByURLAndTheOthersAreKept() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mirror = try MealDBMirror()
        let broken = BrokenLetters([
            "b": "<html><body>503 Service Unavailable</body></html>",
            "c": #"{"error": "quota exceeded"}"#,
            "d": "[]",
        ])
        let server = try TestHTTPServer(lifetime: .seconds(120)) { request, _ in
            broken.answer(request.path) ?? mirror.answer(request.path)
        }
        defer { server.stop() }
        let spec = try SpecReader.read(try BackfillFixtures.apiPipeline(
            name: "recipes-api", base: server.url(""), in: folder, fetch: "requests_per_second: 50\ndelay_ms: 0"))

        let first = try await BackfillFixtures.runner(spec, workspace: folder).run()
        #expect(!first.published)
        let failed = first.manifest.partitions.filter { $0.status == .failed }
        #expect(failed.map(\.key) == ["b", "c", "d"])
        for partition in failed {
            let message = try #require(partition.message)
            #expect(message.hasPrefix(server.url("") + MealDBMirror.apiPath + "search.php?f=\(partition.key): "))
            #expect(!message.contains("\n"))
        }
        #expect(failed[0].message?.contains("not valid JSON") == true)
        #expect(failed[1].message?.contains("\"meals\"") == true)
        #expect(failed[2].message?.contains("an array") == true)
        let gate = try #require(first.manifest.checks.first { $0.name == "partitions_complete" })
        #expect(gate.blocksPublishing)
        #expect(gate.message.contains(server.url("") + MealDBMirror.apiPath + "search.php?f=b"))

        // The 33 good letters and categories are done in the ledger; once the API mends, a run
        // with --only-missing asks again only for the three broken letters.
        let ledger = try StateLedger(url: Workspace(root: folder).ledger(pipeline: "recipes-api"))
        let keys = Array("abcdefghijklmnopqrstuvwxyz0123456789").map(String.init) + ["categories"]
        #expect(try keys.filter { try ledger.states(source: "mealdb")[$0]?.status == .done }.count == 34)
        broken.mend()
        let second = try await BackfillFixtures.runner(spec, workspace: folder, onlyMissing: true).run()
        #expect(second.published)
        #expect(second.manifest.partitions.filter { $0.status == .fetched }.map(\.key) == ["b", "c", "d"])
        for path in MealDBMirror.letterPaths {
            let letter = String(path.suffix(1))
            #expect(server.requestCounts[path] == (["b", "c", "d"].contains(letter) ? 2 : 1), "\(path)")
        }
        #expect(try SnapshotReader.rowCounts(of: URL(fileURLWithPath: try #require(second.snapshotPath)))["recipe"] == 442)
    }
}

/// Letters whose answers are broken until `mend()` is called.
final class BrokenLetters: @unchecked Sendable {
    private let lock = NSLock()
    private var bodies: [String: String]

    init(_ bodies: [String: String]) {
        self.bodies = bodies
    }

    func mend() {
        lock.withLock { bodies = [:] }
    }

    func answer(_ path: String) -> Reply? {
        let letter = String(path.suffix(1))
        guard path.hasPrefix(MealDBMirror.apiPath + "search.php?f="),
              let body = lock.withLock({ bodies[letter] })
        else { return nil }
        return Reply(body: Data(body.utf8))
    }
}
