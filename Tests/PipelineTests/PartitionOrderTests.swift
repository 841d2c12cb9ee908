import FoodModel
import Foundation
import Logging
import Pipeline
import SourceAdapters
import Testing
import TestSupport

/// Finished partitions wait in memory for their turn (days go into the snapshot, and progress
/// is reported, in partition order), so a stalled one must not let every later one run behind it.
@Suite struct PartitionOrderTests {
    /// The fetch's partitions in the order they were reported finished.
    private func finishedPartitions(_ events: [RunEvent]) -> [String] {
        events.filter { $0.event == .partitionFinished && $0.stage == .fetch }.compactMap(\.partition)
    }

    /// How many partitions had started when `partition` was reported finished.
    private func partitionsStarted(before partition: String, _ events: [RunEvent]) -> Int? {
        guard let end = events.firstIndex(where: { $0.event == .partitionFinished && $0.partition == partition })
        else { return nil }
        return events[..<end].filter { $0.event == .partitionStarted }.count
    }

    /// Thirty days; the first day's page takes 1.5 s, every other day is a quick 404. Without a
    /// bound, the other 29 would all finish while the first waits; with it, at most the
    /// lookahead (four per core) less the stalled one.
    @Test func aStalledPartitionHoldsBackTheStartOfLaterOnes() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let overview = try Data(contentsOf: Paths.sampleData.appendingPathComponent("menu.dining.ucla.edu/Menus/2026-10-10.html"))
        let server = try TestHTTPServer { request, _ in
            guard request.path == "/Menus/2026-10-10" else { return Reply(status: 404, keepAlive: true) }
            return Reply(headers: [("Content-Type", "text/html; charset=utf-8")], body: overview,
                         delay: .milliseconds(1_500), keepAlive: true)
        }
        defer { server.stop() }
        var fetch = FetchSettings()
        fetch.delayMilliseconds = 0
        fetch.retries = 0
        fetch.timeoutSeconds = 10
        let spec = PipelineSpec(
            name: "order-test", description: nil, file: workspace.appendingPathComponent("order.yml"), licence: "test",
            sources: [SourceSpec(name: "ucla-menu", adapter: UCLAMenuSiteAdapter(), location: .web(server.url("")),
                                 dates: .range(from: ServiceDate("2026-10-10")!, to: ServiceDate("2026-11-08")!),
                                 settings: UCLAMenuSiteAdapter.Settings(recipePages: false, hours: false))],
            checks: CheckPolicy(minMenuItems: 0), fetch: fetch)
        let events = RecordedEvents()
        _ = try await PipelineRunner(
            spec: spec, options: RunOptions(workspace: Workspace(root: workspace), today: ServiceDate("2026-10-10")!),
            observer: events, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()

        // Partitions are reported in partition order; what ran beside the stalled first day shows
        // in how many had started by the time it finished.
        let order = finishedPartitions(events.all)
        #expect(order == (0..<30).map { ServiceDate("2026-10-10")!.adding(days: $0).description })
        let lookahead = 4 * ProcessInfo.processInfo.activeProcessorCount
        let started = try #require(partitionsStarted(before: "2026-10-10", events.all))
        #expect(started <= lookahead, "\(started) partitions started while the first was stalled")
        #expect(started >= 2, "the quick days did not run beside the stalled one")
    }
}
