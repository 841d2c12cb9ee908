import Basics
import Fetching
import FoodModel
import Foundation
import Pipeline
import Snapshot
import Testing
import TestSupport

/// Faults a web server commits, staged at the pipeline level: the whole run (fetch, parse, checks,
/// publish) against the SampleData site served on 127.0.0.1. A fault is either retried to a
/// complete snapshot, or ends as one clear failed check that names the URL while the last good
/// snapshot stays `latest`; never a crash, never a hang (every run has a time bound).
@Suite struct PipelineFaultTests {
    static let overview = "/Menus/2026-10-11"
    static let recipe = "/Recipes/211045/1"

    /// A workspace whose `latest` is a good snapshot of the site, and the bytes of that file.
    private func primed(_ name: String, folder: URL) async throws -> (URL, String) {
        let good = try SampleSite.server()
        defer { good.stop() }
        let spec = try SampleSite.spec(name: name, base: good.url(""), in: folder)
        let report = try await runPipeline(spec, workspace: folder)
        try #require(report.published)
        let latest = try #require(SnapshotStore(directory: folder.appendingPathComponent("snapshots")).latest(pipeline: name))
        return (latest, sha256Hex(try Data(contentsOf: latest)))
    }

    /// Runs the faulty site against a primed workspace within `limit`.
    private func runFaulty(_ name: String, limit: Duration = .seconds(30), fetch: String? = nil,
                           fault: @escaping @Sendable (ReceivedRequest, Int) -> Reply?) async throws
        -> (report: RunReport, server: TestHTTPServer, latestBefore: URL, bytesBefore: String, folder: URL) {
        let folder = try Paths.temporaryFolder(name)
        let (latest, bytes) = try await primed(name, folder: folder)
        let server = try SampleSite.server(fault: fault)
        let spec = try fetch.map { try SampleSite.spec(name: name, base: server.url(""), in: folder, fetch: $0) }
            ?? SampleSite.spec(name: name, base: server.url(""), in: folder)
        let clock = ContinuousClock()
        let started = clock.now
        let report = try await runPipeline(spec, workspace: folder, force: true)
        #expect(clock.now - started < limit, "the run took \(clock.now - started)")
        server.stop()
        return (report, server, latest, bytes, folder)
    }

    private func expectPublishedComplete(_ report: RunReport) {
        #expect(report.published)
        #expect(report.manifest.rowCounts["menu_item"] == SampleSite.menuItems)
        #expect(report.manifest.rowCounts["food"] == SampleSite.foods)
        #expect(report.manifest.checks.filter(\.blocksPublishing).isEmpty)
    }

    /// Blocked by exactly one check, `partitions_complete`, whose message names `url` and says
    /// `why`; the previous snapshot is still `latest`, byte for byte.
    private func expectBlocked(_ run: (report: RunReport, server: TestHTTPServer, latestBefore: URL,
                                       bytesBefore: String, folder: URL),
                               url: String, why: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let report = run.report
        #expect(!report.published, sourceLocation: sourceLocation)
        let blocking = report.manifest.checks.filter(\.blocksPublishing)
        #expect(blocking.map(\.name) == ["partitions_complete"], sourceLocation: sourceLocation)
        let message = blocking.first?.message ?? ""
        #expect(message.contains(url), "\(message)", sourceLocation: sourceLocation)
        #expect(message.lowercased().contains(why.lowercased()), "\(message)", sourceLocation: sourceLocation)
        #expect(report.manifest.partitions.filter { $0.status == .failed }.count == 1,
                sourceLocation: sourceLocation)
        let store = SnapshotStore(directory: run.folder.appendingPathComponent("snapshots"))
        #expect(store.latest(pipeline: report.manifest.pipeline) == run.latestBefore, sourceLocation: sourceLocation)
        #expect(sha256Hex(try Data(contentsOf: run.latestBefore)) == run.bytesBefore, sourceLocation: sourceLocation)
        try expectSoundSnapshots(run.folder.appendingPathComponent("snapshots"), sourceLocation: sourceLocation)
        // The unpublished run's manifest is kept, with the same blocking check.
        let saved = try Data(contentsOf: URL(fileURLWithPath: report.manifestPath))
        #expect(String(decoding: saved, as: UTF8.self).contains("partitions_complete"), sourceLocation: sourceLocation)
        try? FileManager.default.removeItem(at: run.folder)
    }

    @Test func aBurstOf5xxIsRetriedToACompleteSnapshot() async throws {
        let run = try await runFaulty("burst") { request, count in
            request.path == Self.overview && count <= 2 ? Reply(status: 503) : nil
        }
        expectPublishedComplete(run.report)
        #expect(run.server.requests(to: Self.overview).count == 3)
        try? FileManager.default.removeItem(at: run.folder)
    }

    @Test func tooManyRequestsWithRetryAfterIsWaitedOutThenRetried() async throws {
        let run = try await runFaulty("retryafter") { request, count in
            request.path == "/Hours" && count == 1 ? Reply(status: 429, headers: [("Retry-After", "1")]) : nil
        }
        expectPublishedComplete(run.report)
        let hours = run.server.requests(to: "/Hours")
        try #require(hours.count == 2)
        #expect(hours[1].receivedAt - hours[0].receivedAt >= .milliseconds(950))
        try? FileManager.default.removeItem(at: run.folder)
    }

    @Test func tooManyRequestsWithoutRetryAfterIsRetriedWithBackoff() async throws {
        let run = try await runFaulty("noretryafter") { request, count in
            request.path == Self.recipe && count <= 2 ? Reply(status: 429) : nil
        }
        expectPublishedComplete(run.report)
        #expect(run.server.requests(to: Self.recipe).count == 3)
        try? FileManager.default.removeItem(at: run.folder)
    }

    @Test func connectionResetsAreRetried() async throws {
        let run = try await runFaulty("reset") { request, count in
            request.path.hasPrefix("/Menus/") && count == 1 ? Reply(ending: .reset) : nil
        }
        expectPublishedComplete(run.report)
        for date in ["2026-10-10", "2026-10-11", "2026-10-12"] {
            #expect(run.server.requests(to: "/Menus/\(date)").count == 2)
        }
        try? FileManager.default.removeItem(at: run.folder)
    }

    @Test func aStallingServerTimesOutAndBlocksWithOneClearCheck() async throws {
        let run = try await runFaulty("stall", limit: .seconds(20),
                                      fetch: "timeout_seconds: 1\n  retries: 1\n  delay_ms: 0") { request, _ in
            request.path == "/Hours" ? Reply(body: Data("late".utf8), delay: .seconds(8)) : nil
        }
        try expectBlocked(run, url: "/Hours", why: "hours")
        #expect(run.server.requests(to: "/Hours").count == 2)
    }

    @Test func truncatedBodiesAreRetriedThenBlock() async throws {
        let page = try #require(SampleSite.page(Self.overview))
        let run = try await runFaulty("truncated") { request, _ in
            request.path == Self.overview
                ? Reply(body: page.prefix(page.count / 3), ending: .truncated(declaredLength: page.count)) : nil
        }
        try expectBlocked(run, url: Self.overview, why: "2026-10-11")
        #expect(run.server.requests(to: Self.overview).count == 3)
    }

    @Test func anOversizedBodyIsCutAtTheCapAndBlocks() async throws {
        let huge = Data(repeating: UInt8(ascii: "x"), count: 3_000_000)
        let run = try await runFaulty("oversized",
                                      fetch: "timeout_seconds: 5\n  retries: 2\n  delay_ms: 0\n  max_response_bytes: 1000000") {
            request, _ in request.path == Self.overview ? Reply(body: huge) : nil
        }
        try expectBlocked(run, url: Self.overview, why: "size cap")
    }

    @Test func aRedirectLoopEndsAndBlocks() async throws {
        let run = try await runFaulty("redirects") { request, _ in
            request.path.hasPrefix("/Hours") ? Reply(status: 302, headers: [("Location", "/Hours?again")]) : nil
        }
        // Each hop asks for /Hours?again, the loop's second URL; the redirect cap ends it.
        try expectBlocked(run, url: "/Hours", why: "redirect")
    }

    /// The site was redesigned: same content, every class renamed. The day's partition fails with
    /// an `Failure` naming the page; the other days and the hours still parse.
    @Test func aRedesignedPageBlocksWithTheURLOfThePage() async throws {
        let page = try #require(SampleSite.page(Self.overview))
        let redesigned = Data(String(decoding: page, as: UTF8.self)
            .replacingOccurrences(of: "class=\"", with: "class=\"v2-").utf8)
        let run = try await runFaulty("redesign") { request, _ in
            request.path == Self.overview
                ? Reply(headers: [("Content-Type", "text/html; charset=utf-8")], body: redesigned) : nil
        }
        try expectBlocked(run, url: Self.overview, why: Self.overview)
        #expect(run.report.manifest.partitions.filter { $0.status == .fetched }.count == 3)
    }

    @Test func garbageBytesForADayBlockAndForARecipePageWarn() async throws {
        var generator = SeededGenerator(seed: 8)
        let garbage = Data((0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let dayRun = try await runFaulty("garbageday") { request, _ in
            request.path == Self.overview ? Reply(body: garbage) : nil
        }
        try expectBlocked(dayRun, url: Self.overview, why: Self.overview)

        // A recipe page that is garbage costs that food nothing: a warning names the page, and the
        // food keeps the label the primed snapshot published, marked stale.
        let recipeRun = try await runFaulty("garbagerecipe") { request, _ in
            request.path == Self.recipe ? Reply(body: garbage) : nil
        }
        #expect(recipeRun.report.published)
        #expect(recipeRun.report.manifest.rowCounts["menu_item"] == SampleSite.menuItems)
        let warning = try #require(recipeRun.report.manifest.checks.first { $0.name == "partition_warning" })
        #expect(warning.severity == .warning)
        #expect(warning.message.contains("211045"), "\(warning.message)")
        let snapshot = URL(fileURLWithPath: try #require(recipeRun.report.snapshotPath))
        #expect(try QueryResult.run("SELECT count(*) FROM food WHERE has_page = 0", on: snapshot).rows
            == [[.integer(0)]])
        #expect(try SnapshotReader.stalePartitions(of: snapshot).map(\.partition) == ["food ucla-menu:211045"])
        // What the next run finds as it opens: a snapshot carrying a label is never current.
        #expect(LatestSnapshot(reading: snapshot).stalePartitions?.map(\.partition) == ["food ucla-menu:211045"])
        #expect(recipeRun.report.stale.count == 1)
        let label = "SELECT count(*) FROM food_nutrient WHERE food_id = 'ucla-menu:211045'"
        #expect(try QueryResult.run(label, on: snapshot).rows == (try QueryResult.run(label, on: recipeRun.latestBefore).rows))
        try? FileManager.default.removeItem(at: recipeRun.folder)
    }

    /// A dump that is not JSON: the catalogue partition fails with the file named, nothing
    /// published.
    @Test func invalidJSONInAMealDBDumpBlocksWithTheFileNamed() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var dump = try Data(contentsOf: Paths.mealDump)
        dump = dump.prefix(dump.count / 2)
        let file = folder.appendingPathComponent("broken-dump.json")
        try dump.write(to: file)
        let pipeline = folder.appendingPathComponent("broken.yml")
        try Data("""
            pipeline: broken
            sources:
              - name: mealdb
                adapter: mealdb-dump
                location: broken-dump.json
            """.utf8).write(to: pipeline)
        let report = try await runPipeline(try SpecReader.read(pipeline), workspace: folder)
        #expect(!report.published)
        let blocking = report.manifest.checks.filter(\.blocksPublishing)
        #expect(blocking.map(\.name) == ["partitions_complete"])
        #expect(blocking.first?.message.contains(file.path) == true, "\(blocking.first?.message ?? "")")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("snapshots/latest-broken").path))
    }
}
