import Fetching
import FoodModel
import Foundation
import TestSupport
import Logging
import Pipeline
import Snapshot
import Testing

/// The nightly refresh against a real HTTP server on 127.0.0.1 serving the SampleData site the
/// way the menu site would, with ETags: the second run of a night asks only conditional
/// questions and fetches nothing it already has.
@Suite struct NightlyRefreshTests {
    /// Serves `SampleData/menu.dining.ucla.edu` by URL path, answering 304 to a matching ETag.
    private func siteServer() throws -> TestHTTPServer {
        let root = Paths.sampleData.appendingPathComponent("menu.dining.ucla.edu")
        return try TestHTTPServer { request, _ in
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
            sources: [SourceSpec(name: "ucla-menu", adapter: .uclaMenuSite,
                                 location: .web(server.url("")),
                                 dates: .range(from: ServiceDate("2026-10-10")!, to: ServiceDate("2026-10-12")!))],
            checks: CheckPolicy(minMenuItems: 100), fetch: fetch)
    }

    private func run(_ spec: PipelineSpec, workspace: URL) async throws -> RunReport {
        try await PipelineRunner(
            spec: spec,
            options: RunOptions(workspace: Workspace(root: workspace), today: ServiceDate("2026-10-10")!),
            observer: SilentObserver(), logger: Logger(label: "test")).run()
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
        // 3 overviews, 36 recipe pages (SampleData/README.md), the hours page.
        #expect(server.requests(to: "/Menus/2026-10-11").count == 1)
        let recipeRequests = { server.requests.filter { $0.path.hasPrefix("/Recipes/") }.count }
        #expect(recipeRequests() == 36)

        let second = try await run(spec, workspace: workspace)
        #expect(second.published)
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
}
