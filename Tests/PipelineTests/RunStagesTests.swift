import FoodModel
import Foundation
import Logging
import Pipeline
import Testing
import TestSupport

/// A run is its stages, in order: what the events say of them and what the manifest records
/// must be one account, whichever way the run ends.
@Suite struct RunStagesTests {
    private func run(_ spec: PipelineSpec, in workspace: URL) async throws -> (RunReport, [RunEvent]) {
        let events = RecordedEvents()
        let report = try await PipelineRunner(
            spec: spec,
            options: RunOptions(workspace: Workspace(root: workspace), today: try #require(ServiceDate("2026-10-12"))),
            observer: events, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })).run()
        return (report, events.all)
    }

    private func sampleSpec() throws -> PipelineSpec {
        try SpecReader.read(Paths.pipelines.appendingPathComponent("sample.yml"))
    }

    /// The stage events without partitions, checks and warnings: `started <stage>`, `finished <stage>`.
    private func stageLines(_ events: [RunEvent]) -> [String] {
        events.compactMap { event in
            switch event.event {
            case .stageStarted: "started \(event.stage?.rawValue ?? "?")"
            case .stageFinished: "finished \(event.stage?.rawValue ?? "?")"
            default: nil
            }
        }
    }

    /// Fetch and parse run together (parse starts with the first partition, both finish when the
    /// last is in); every later stage finishes before the next starts. The manifest records the
    /// stages in that order, with the counts and seconds their `stage_finished` events carried,
    /// and every check event falls between the check stage's start and finish.
    @Test func aPublishedRunTellsItsStagesInOrderAndRecordsWhatItTold() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let (report, events) = try await run(try sampleSpec(), in: workspace)
        #expect(report.published)
        #expect(stageLines(events) == [
            "started fetch", "started parse", "finished fetch", "finished parse", "started compute",
            "finished compute", "started write", "finished write", "started check", "finished check",
            "started publish", "finished publish",
        ])
        let finished = events.filter { $0.event == .stageFinished }
        #expect(report.manifest.stages.map(\.name) == [.fetch, .parse, .compute, .write, .check, .publish])
        #expect(report.manifest.stages.map(\.counts) == finished.map { $0.counts ?? [:] })
        #expect(report.manifest.stages.map(\.seconds) == finished.compactMap(\.seconds))
        // The sample's 124 menu items (SampleData/README.md), as written and as parsed.
        #expect(report.manifest.stages.first { $0.name == .write }?.counts["menu_item"] == 124)
        #expect(report.manifest.stages.first { $0.name == .parse }?.counts["menu_items"] == 124)
        let checkStart = try #require(events.firstIndex { $0.event == .stageStarted && $0.stage == .check })
        let checkEnd = try #require(events.firstIndex { $0.event == .stageFinished && $0.stage == .check })
        let checkEvents = events.indices.filter { events[$0].event == .check }
        #expect(!checkEvents.isEmpty && checkEvents.allSatisfy { $0 > checkStart && $0 < checkEnd })
        #expect(report.manifest.stages.first { $0.name == .check }?.counts["checks"] == checkEvents.count)
        // After the stages: published, then run_finished, last.
        #expect(events.suffix(2).map(\.event) == [.published, .runFinished])
    }

    /// A rerun on the same inputs is its revalidation alone: one fetch stage, then `unchanged`.
    @Test func anUnchangedRunIsItsFetchStageAlone() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        _ = try await run(try sampleSpec(), in: workspace)
        let (report, events) = try await run(try sampleSpec(), in: workspace)
        #expect(report.unchanged)
        #expect(stageLines(events) == ["started fetch", "finished fetch"])
        #expect(report.manifest.stages.map(\.name) == [.fetch])
        #expect(events.suffix(2).map(\.event) == [.unchanged, .runFinished])
    }

    /// A blocking check stops the run after the check stage: no publish stage, in the events or
    /// the manifest, and `not_published` before `run_finished`.
    @Test func aBlockedRunHasNoPublishStage() async throws {
        let workspace = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        var spec = try sampleSpec()
        spec.checks.minMenuItems = 1000
        let (report, events) = try await run(spec, in: workspace)
        #expect(!report.published)
        #expect(stageLines(events).suffix(2) == ["started check", "finished check"])
        #expect(report.manifest.stages.map(\.name) == [.fetch, .parse, .compute, .write, .check])
        #expect(report.manifest.stages.last?.counts["blocking"] == 1)
        #expect(events.suffix(2).map(\.event) == [.notPublished, .runFinished])
    }
}
