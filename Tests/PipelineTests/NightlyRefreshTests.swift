import Basics
import Fetching
import FoodModel
import Foundation
import Logging
import Pipeline
import Snapshot
import SourceAdapters
import Testing
import TestSupport

/// The nightly refresh against a real HTTP server on 127.0.0.1 serving the SampleData site the
/// way the menu site would, with ETags: the second run of a night asks only conditional
/// questions and fetches nothing it already has.
@Suite struct NightlyRefreshTests {
    /// Serves `SampleData/menu.dining.ucla.edu` by URL path, answering 304 to a matching ETag.
    private func siteServer(root: URL = Paths.sampleData.appendingPathComponent("menu.dining.ucla.edu")) throws
        -> TestHTTPServer {
        try TestHTTPServer { request, _ in
            let file = root.appendingPathComponent(request.path + ".html")
            guard let body = try? Data(contentsOf: file) else { return Reply(status: 404, keepAlive: true) }
            let etag = "\"\(sha256Hex(body).prefix(16))\""
            if request.headers["if-none-match"] == etag {
                return Reply(status: 304, headers: [("ETag", etag)], keepAlive: true)
            }
            return Reply(headers: [("Content-Type", "text/html; charset=utf-8"), ("ETag", etag)], body: body,
                         keepAlive: true)
        }
    }

    private func spec(_ server: TestHTTPServer, file: URL) -> PipelineSpec {
        var fetch = FetchSettings()
        fetch.delayMilliseconds = 0
        fetch.timeoutSeconds = 10
        return PipelineSpec(
            name: "nightly-test", description: nil, file: file, licence: "test",
            sources: [SourceSpec(name: "ucla-menu", adapter: UCLAMenuSiteAdapter(),
                                 location: .web(server.url("")),
                                 dates: .range(from: ServiceDate("2026-10-10")!, to: ServiceDate("2026-10-12")!),
                                 settings: UCLAMenuSiteAdapter.Settings())],
            checks: CheckPolicy(minMenuItems: 100), fetch: fetch)
    }

    private func run(_ spec: PipelineSpec, workspace: URL) async throws -> RunReport {
        try await PipelineRunner(
            spec: spec,
            options: RunOptions(workspace: Workspace(root: workspace), today: ServiceDate("2026-10-10")!),
            observer: SilentObserver(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
    }

    @Test func aSecondRunTheSameNightFetchesNothingNew() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let server = try siteServer()
        defer { server.stop() }
        let spec = spec(server, file: workspace.appendingPathComponent("nightly.yml"))

        let first = try await run(spec, workspace: workspace)
        #expect(first.published)
        #expect(first.manifest.rowCounts["menu_item"] == 124)
        #expect(first.manifest.rowCounts["food"] == 36)
        #expect(first.manifest.rowCounts["hours"] == 36)
        // The snapshot's Datasette metadata links the site it came from.
        let metadata = try JSONDecoder().decode(SnapshotMetadata.self, from: Data(contentsOf: URL(
            fileURLWithPath: try #require(first.snapshotPath) + ".metadata.json")))
        #expect(metadata.sourceURL == server.url(""))
        // 3 overviews, 36 recipe pages (SampleData/README.md), the hours page.
        #expect(server.requests(to: "/Menus/2026-10-11").count == 1)
        let recipeRequests = { server.requests.filter { $0.path.hasPrefix("/Recipes/") }.count }
        #expect(recipeRequests() == 36)

        let second = try await run(spec, workspace: workspace)
        #expect(second.unchanged)
        #expect(second.snapshotPath == first.snapshotPath)
        #expect(try SnapshotStore(directory: workspace.appendingPathComponent("snapshots")).list().count == 1)
        #expect(recipeRequests() == 36)
        for path in ["/Menus/2026-10-10", "/Menus/2026-10-11", "/Menus/2026-10-12", "/Hours"] {
            let requests = server.requests(to: path)
            #expect(requests.count == 2, "\(path)")
            #expect(requests.last?.headers["if-none-match"] != nil, "\(path) was not asked conditionally")
        }
        #expect(second.manifest.partitions.map(\.notModified) == [1, 1, 1, 1])
        #expect(second.manifest.partitions.map(\.documentsReused).reduce(0, +) == 36)
        #expect(second.manifest.rowCounts == first.manifest.rowCounts)
    }

    /// A night on which one day's menu changed: the run fetches each changeable page once (the
    /// revalidation's copy is the one parsed), reads no recipe page again, and publishes the change.
    @Test func aChangedMenuIsFetchedOnceAndPublished() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let site = workspace.appendingPathComponent("site")
        try FileManager.default.copyItem(at: Paths.sampleData.appendingPathComponent("menu.dining.ucla.edu"), to: site)
        let server = try siteServer(root: site)
        defer { server.stop() }
        let spec = spec(server, file: workspace.appendingPathComponent("nightly.yml"))
        let first = try await run(spec, workspace: workspace)
        #expect(first.published)

        // SampleData's 2026-10-11 menu prints "Quinoa Tabbouleh" once; the kitchen renames it.
        let page = site.appendingPathComponent("Menus/2026-10-11.html")
        let html = try String(contentsOf: page, encoding: .utf8)
        try html.replacingOccurrences(of: ">Quinoa Tabbouleh<", with: ">Quinoa Tabouli<")
            .write(to: page, atomically: true, encoding: .utf8)
        let second = try await run(spec, workspace: workspace)
        #expect(second.published)
        #expect(second.snapshotPath != first.snapshotPath)
        for path in ["/Menus/2026-10-10", "/Menus/2026-10-11", "/Menus/2026-10-12", "/Hours"] {
            #expect(server.requests(to: path).count == 2, "\(path)")
        }
        #expect(server.requests.filter { $0.path.hasPrefix("/Recipes/") }.count == 36)
        let names = try QueryResult.run("""
            SELECT DISTINCT menu_item.name FROM menu_item JOIN meal ON meal.id = menu_item.meal_id
            JOIN service_day ON service_day.id = meal.service_day_id
            WHERE date = '2026-10-11' AND menu_item.name LIKE 'Quinoa Tab%'
            """, on: URL(fileURLWithPath: try #require(second.snapshotPath))).rows
        #expect(names == [[.text("Quinoa Tabouli")]])
        #expect(second.manifest.inputsSHA256 != first.manifest.inputsSHA256)
        // Each page that did not change answered 304 and is counted so, though its partition
        // came from the parse cache (those used to say not_modified: 0); the changed one came whole.
        let notModified = Dictionary(uniqueKeysWithValues: second.manifest.partitions.map { ($0.key, $0.notModified) })
        #expect(notModified == ["2026-10-10": 1, "2026-10-11": 0, "2026-10-12": 1, "hours": 1])
        let counts = second.manifest.stages.first { $0.name == .fetch }?.counts ?? [:]
        #expect(counts["documents_revalidated"] == 3, "\(counts)")
        #expect(counts["documents_refetched"] == 1, "\(counts)")
        #expect(counts["documents_missing"] == 0 && counts["documents_known_missing"] == 0, "\(counts)")
    }
}
