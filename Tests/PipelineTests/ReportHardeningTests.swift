import Basics
import FoodModel
import Foundation
import Logging
import Pipeline
@testable import Report
import Snapshot
import Testing
import TestSupport

/// The page against what issue 52 found: label fitting that was quadratic in a name's length
/// (204 s for 60,000 characters), and a page that went on after the run was asked to stop.
@Suite struct ReportHardeningTests {
    /// "café " is c 550 + a 613 + f 352 + é 1000 (outside ASCII: a full em) + space 318 = 2833
    /// thousandths. 200 px at 13 px with the 1.1 margin is 200 / 0.0143 = 13,986 thousandths,
    /// 1000 of them the ellipsis: 12,986 for the text. Four "café" and the three spaces between
    /// them are 4 × 2833 − 318 = 11,014; then " c" 11,882, "a" 12,495, "f" 12,847, and "é"
    /// would make 13,847: "café café café café caf…".
    static let fitted = "café café café café caf…"

    @Test(.timeLimit(.minutes(1))) func aNameOfSixtyThousandCharactersIsFittedInOnePass() {
        let name = String(repeating: "café ", count: 12_000)
        #expect(name.count == 60_000)
        #expect(TextWidth.fitting(name, size: 13, width: 200) == Self.fitted)
    }

    @Test(.timeLimit(.minutes(1))) func aNameOfTwoHundredThousandCharactersIsFittedToo() {
        let name = String(repeating: "café ", count: 40_000)
        #expect(TextWidth.fitting(name, size: 13, width: 200) == Self.fitted)
    }

    /// The cut never ends in a space: "W W W W" at 10 px is 4 × 989 + 3 × 318 = 4910 thousandths,
    /// 54 px. In 34 px (3090 thousandths, 2090 once the ellipsis is counted) "W W" (2296) does
    /// not fit, and "W " is "W" once its space is dropped: "W…". In 40 px (2636 for the text)
    /// "W W" fits and "W W W" (3603) does not.
    @Test func aCutDropsTheSpacesItEndsWith() {
        #expect(TextWidth.fitting("W W W W", size: 10, width: 34) == "W…")
        #expect(TextWidth.fitting("W W W W", size: 10, width: 40) == "W W…")
    }

    /// The sample's three days read from its menu site alone, in `folder`.
    private func pipeline(in folder: URL) throws -> PipelineSpec {
        let file = folder.appendingPathComponent("stop.yml")
        try Data("""
            pipeline: stop
            sources:
              - name: ucla-menu
                adapter: ucla-menu-site
                location: \(Paths.sampleSite.path)
                dates: {from: 2026-10-10, to: 2026-10-12}
            """.utf8).write(to: file)
        return try SpecReader.read(file)
    }

    private func runner(_ spec: PipelineSpec, in folder: URL, observer: any RunObserver = SilentObserver())
        -> PipelineRunner {
        PipelineRunner(spec: spec, options: RunOptions(workspace: Workspace(root: folder),
                                                       today: ServiceDate("2026-10-12")!),
                       observer: observer, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    /// Asks the run to stop as the publish stage starts, as SIGTERM does (the command cancels the
    /// run's task): events are told on the run's own task.
    private struct StopAtPublish: RunObserver {
        func observe(_ event: RunEvent) {
            if event.event == .stageStarted, event.stage == .publish { withUnsafeCurrentTask { $0?.cancel() } }
        }
    }

    /// A stop that comes once the publish stage has begun: the snapshot is published and
    /// `latest`, the page stops at its first section instead of being drawn whole, and the run
    /// ends saying the page is missing, not that it stopped before publishing.
    @Test func aStopDuringThePublishStageEndsThePageNotThePublication() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = try pipeline(in: folder)
        let run = runner(spec, in: folder, observer: StopAtPublish())
        let outcome: Result<RunReport, any Error> = await Task {
            do { return .success(try await run.run()) } catch { return .failure(error) }
        }.value
        guard case .failure(let error) = outcome else { Issue.record("the run ended as if not stopped"); return }
        let failure = try #require(error as? Failure, "\(error)")
        #expect(failure.code == .publishedIncompletely, "\(failure)")
        #expect(failure.message.contains("its report page could not be written (stopped on request before the page "
                                         + "was finished); the next run writes it"), "\(failure)")
        let latest = try #require(SnapshotStore(directory: folder.appendingPathComponent("snapshots"))
            .latest(pipeline: "stop"))
        #expect(failure.place?.location == latest.path)
        #expect(!FileManager.default.fileExists(atPath: latest.path + ".report.html"))
    }

    /// The page alone, in a task that was cancelled: it stops before its first section, where it
    /// used to be drawn whole (a run with a ten-megabyte name waited 45 s for it after SIGTERM).
    @Test func aCancelledTaskStopsThePage() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try await runner(try pipeline(in: folder), in: folder).run()
        let snapshot = URL(fileURLWithPath: try #require(report.snapshotPath))

        let whole = try ReportPage.html(for: snapshot, previous: nil)
        #expect(whole.contains("<section id=\"headline\">") && whole.contains("<section id=\"recipes\">"))
        let stopped = await Task { () -> Result<String, any Error> in
            withUnsafeCurrentTask { $0?.cancel() }
            return Result { try ReportPage.html(for: snapshot, previous: nil) }
        }.value
        #expect(throws: Failure.self) { try stopped.get() }
        if case .failure(let failure as Failure) = stopped { #expect(failure.code == .interrupted, "\(failure)") }
    }
}
