import FoodModel
import Foundation
import Nutrition
import Snapshot
import SourceAdapters

/// The stages of a run, in order. Names are what events, manifests and progress lines show.
public enum StageName: String, Hashable, Sendable, Codable, CaseIterable {
    /// Fetching again only what can change, to learn whether anything did.
    case revalidate
    /// Documents fetched (or replayed from the raw store) for the partitions.
    case fetch
    /// Documents turned into values by the adapters; days streamed into staging as they come.
    case parse
    /// %DV under the pipeline's standard, swipe-balance tables.
    case compute
    /// The staging database completed: foods, codes, recipes, swipes, label reviews.
    case write
    /// The gates a snapshot must pass.
    case check
    /// The staging database made a verified, read-only snapshot, and `latest` moved to it.
    case publish
}

/// How a run ended.
public enum RunStatus: String, Hashable, Sendable, Codable {
    case published
    /// A blocking check failed: the last good snapshot stays `latest`.
    case notPublished = "not_published"
    /// Every input was what the latest snapshot was built from: nothing to publish.
    case unchanged
    /// Stopped on request (a signal) before publishing; the next run resumes it.
    case interrupted
    /// A subset run (`--partition`) whose night awaits other partitions (`awaited`): its own are
    /// committed to the ledger for the run that completes the night, and nothing is published.
    case harvested
}

/// What became of one partition in a run.
public enum PartitionStatus: String, Hashable, Sendable, Codable {
    case fetched
    /// Replayed from the raw store (a resumed run, `--only-missing`).
    case reused
    case failed
    /// Revalidated: the same bytes as the latest snapshot's, so not parsed.
    case unchanged
    /// Revalidated: something it reads differs from what the ledger recorded.
    case changed
    /// The new fetch was refused or failed; the last good version was published instead.
    case stale
}

/// What a stage hands on, and what the manifest counts of it.
protocol StageOutput {
    var counts: [String: Int] { get }
}

/// The run's stages as the manifest records them, in the order they ran: each timed by `time`,
/// the one place that says when a stage starts and finishes, plus what it spent outside its turn
/// (`StageTimes`).
struct StageLog {
    let context: StageContext
    private(set) var stages: [RunManifest.Stage] = []

    init(_ context: StageContext) {
        self.context = context
    }

    /// Runs `stage` between its `stage_started` and `stage_finished` events and records its time
    /// (with what it spent before its turn: the days written as partitions finished belong to
    /// the write) and counts.
    mutating func time<Output: StageOutput>(_ name: StageName, _ stage: () throws -> Output) rethrows -> Output {
        context.emit(.stageStarted, stage: name)
        let output = try context.times.measure(name, stage)
        record(name, counts: output.counts)
        return output
    }

    /// A stage that has no turn of its own (fetch and parse, run by partitions side by side):
    /// recorded with the time `StageTimes` summed for it.
    mutating func record(_ name: StageName, counts: [String: Int]) {
        let stage = RunManifest.Stage(name: name, seconds: context.times.seconds(of: name), counts: counts)
        stages.append(stage)
        context.emit(.stageFinished, stage: stage.name, seconds: stage.seconds, counts: stage.counts)
    }
}
